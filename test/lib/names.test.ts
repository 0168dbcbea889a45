import { describe, expect, it } from "vitest";
import { labelhashOf } from "../../src/lib/labels";
import { joinName, makeSubnode, namehash, ROOT_NODE, tokenIdToHex32 } from "../../src/lib/names";

describe("names", () => {
  it("subnodes are namehash steps", () => {
    expect(makeSubnode(ROOT_NODE, labelhashOf("eth"))).toBe(namehash("eth"));
    expect(makeSubnode(namehash("eth"), labelhashOf("vitalik"))).toBe(namehash("vitalik.eth"));
  });

  it("namehash treats an encoded label as its labelhash", () => {
    const hash = labelhashOf("unknown");
    expect(namehash(`[${hash.slice(2)}].eth`)).toBe(namehash("unknown.eth"));
  });

  it("token ids are 32-byte hex", () => {
    const lh = labelhashOf("vitalik");
    expect(tokenIdToHex32(BigInt(lh))).toBe(lh);
    expect(tokenIdToHex32(1n)).toBe(`0x${"0".repeat(63)}1`);
  });

  it("joins names: TLDs alone, children under a named parent, nothing under an unnamed one", () => {
    expect(joinName("eth", null, true)).toBe("eth");
    expect(joinName("eth", "", true)).toBe("eth");
    expect(joinName("vitalik", "eth", false)).toBe("vitalik.eth");
    expect(joinName("sub", null, false)).toBeNull();
  });
});
