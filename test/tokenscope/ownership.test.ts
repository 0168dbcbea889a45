import { describe, expect, it } from "vitest";
import { ownershipType } from "../../src/api/name-tokens/ownership";
import { nameTokensQuery } from "../../src/api/name-tokens/query";
import { nameTokenId, stateAfterTransfer } from "../../src/plugins/tokenscope/lib/transfers";

const WRAPPER = { chainId: 1, address: "0xd4416b13d2b3a9abae7acd5d6c2bbdbe25686401" } as const;
const LINEA_WRAPPER = { chainId: 59144, address: "0xa53cca02f98d590819141aa85c891e2af713c223" } as const;
const USER = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8" as const;
const ZERO = "0x0000000000000000000000000000000000000000" as const;

describe("ownershipType", () => {
  const wrappers = [WRAPPER, LINEA_WRAPPER];
  it("is namewrapper when a NameWrapper of the namespace holds the token, on its own chain", () => {
    expect(ownershipType(WRAPPER, "vitalik.eth", wrappers)).toBe("namewrapper");
    expect(ownershipType({ chainId: 59144, address: LINEA_WRAPPER.address }, "a.linea.eth", wrappers)).toBe(
      "namewrapper",
    );
    // the same address on another chain is not that wrapper
    expect(ownershipType({ chainId: 8453, address: WRAPPER.address }, "a.base.eth", wrappers)).toBe("unknown");
  });
  it("matches wrapper addresses case-insensitively", () => {
    expect(
      ownershipType({ chainId: 1, address: "0xD4416b13d2b3a9aBae7AcD5D6C2BbDBE25686401" }, "x.eth", wrappers),
    ).toBe("namewrapper");
  });
  it("is burned for the zero address", () => {
    expect(ownershipType({ chainId: 1, address: ZERO }, "vitalik.eth", wrappers)).toBe("burned");
  });
  it("is fully-onchain for a direct child of eth", () => {
    expect(ownershipType({ chainId: 1, address: USER }, "vitalik.eth", wrappers)).toBe("fully-onchain");
    expect(ownershipType({ chainId: 1, address: USER }, `[${"ab".repeat(32)}].eth`, wrappers)).toBe("fully-onchain");
  });
  it("is unknown for anything else", () => {
    expect(ownershipType({ chainId: 1, address: USER }, "sub.vitalik.eth", wrappers)).toBe("unknown");
    expect(ownershipType({ chainId: 8453, address: USER }, "jesse.base.eth", wrappers)).toBe("unknown");
    expect(ownershipType({ chainId: 1, address: USER }, "eth", wrappers)).toBe("unknown");
    expect(ownershipType({ chainId: 1, address: USER }, null, wrappers)).toBe("unknown");
  });
});

describe("token transfers", () => {
  it("mints to the receiver and burns to the zero address", () => {
    expect(stateAfterTransfer("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")).toEqual({
      owner: USER,
      mintStatus: "minted",
    });
    expect(stateAfterTransfer(ZERO)).toEqual({ owner: ZERO, mintStatus: "burned" });
  });
  it("ids tokens as <chainId>-<contract>-<tokenId>, lowercase", () => {
    expect(nameTokenId(1, "0xD4416b13d2b3a9aBae7AcD5D6C2BbDBE25686401", `0x${"AB".repeat(32)}`)).toBe(
      `1-0xd4416b13d2b3a9abae7acd5d6c2bbdbe25686401-0x${"ab".repeat(32)}`,
    );
  });
});

describe("name tokens query", () => {
  const fields = (q: Record<string, string>) => {
    const r = nameTokensQuery.safeParse(q);
    return r.success ? null : r.error.issues.map((i) => `${i.path.join(".") || "(query)"}: ${i.message}`);
  };
  it("takes exactly one of name or domainId", () => {
    expect(fields({ name: "vitalik.eth" })).toBeNull();
    expect(fields({ domainId: `0x${"ab".repeat(32)}` })).toBeNull();
    expect(fields({})).toEqual(["(query): give exactly one of 'name' or 'domainId'"]);
    expect(fields({ name: "vitalik.eth", domainId: `0x${"ab".repeat(32)}` })).toEqual([
      "(query): give exactly one of 'name' or 'domainId'",
    ]);
  });
  it("requires a normalized name", () => {
    expect(fields({ name: "Vitalik.eth" })).toEqual([
      'name: name must be ENSIP-15 normalized; its normalized form is "vitalik.eth"',
    ]);
    expect(fields({ name: "a..eth" })?.[0]).toMatch(/^name: name is not a valid ENS name/);
  });
  it("requires a 32-byte domainId and lowercases it", () => {
    expect(fields({ domainId: "0x12" })).toEqual(["domainId: domainId must be a 0x-prefixed 32-byte node (namehash)"]);
    expect(nameTokensQuery.parse({ domainId: `0x${"AB".repeat(32)}` }).domainId).toBe(`0x${"ab".repeat(32)}`);
  });
});
