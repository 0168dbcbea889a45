import { keccak256, stringToHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { peerCookbookResponses, skipWithoutPeerOmnigraph } from "../../harness/peer-omnigraph";
import { buildFixture } from "../../harness/subgraph-fixture/fixture";
import type { TestDatabase } from "../../harness/subgraph-fixture/pg";
import { executeOmnigraphRequest, type OmnigraphOptions } from "../../src/api/omnigraph";
import type { RecordsAnswer, RecordsRequest } from "../../src/api/shared/resolution/records";
import type { Resolution } from "../../src/api/shared/resolution/resolve";
import type { ResolutionService } from "../../src/api/shared/resolution/service";
import { seededOmnigraph } from "./seeded-omnigraph";

/*
 * `resolve { profile { addresses contenthash } }` over the seeded PostgreSQL dataset, with the records' bytes from a
 * stubbed record source: the seeded dataset has no protocol-acceleration rows and no chain, so nothing resolves there
 * (the devnet test covers the resolution itself). What this checks is the way from the bytes to the GraphQL answer.
 */

const GOOD = {
  addresses: {
    "0": "0x76a91462e907b15cbf27d5425399ebf6f0fb50ebb88f1888ac",
    "501": `0x${"00".repeat(32)}`,
    "2": "0x0102", // not a Litecoin scriptPubKey: null in the profile, the bytes in records
    "60": "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
  } as Record<string, string>,
  contenthash: "0xe3010170122029f2d17be6139079dc48696d1f582a8530eb9805b561eda517e22a892c7e3f1f",
};
/**
 * EIP-1191's mixed case, written out from the EIP's own steps: a hex digit that is a letter is upper case where the
 * hash of `<chain id>0x<lower-case address>` has a nibble of 8 or more at its place. Rootstock's chain id is 30.
 */
function eip1191(address: string, chainId: number): string {
  const lower = address.slice(2).toLowerCase();
  const hash = keccak256(stringToHex(`${chainId}0x${lower}`)).slice(2);
  return `0x${[...lower].map((c, i) => (Number.parseInt(hash[i]!, 16) >= 8 ? c.toUpperCase() : c)).join("")}`;
}

/** An IPFS contenthash cut short. */
const MALFORMED = { addresses: {} as Record<string, string>, contenthash: "0xe3010170" };
/** What the stubbed source answers for every name. */
let stored = GOOD;

let t: TestDatabase;
let options: OmnigraphOptions;
let internalErrors: unknown[] = [];
const requests: RecordsRequest[] = [];

beforeAll(async () => {
  ({ t, options, internalErrors } = await seededOmnigraph("og_profile", buildFixture({ secondLevel: 5, accounts: 3 })));
  const records = async (_name: string, request: RecordsRequest): Promise<RecordsAnswer> => {
    requests.push(request);
    const r = stored;
    return {
      addresses: Object.fromEntries(request.coinTypes.map((c) => [`${c}`, r.addresses[`${c}`] ?? null])),
      texts: Object.fromEntries(request.texts.map((k) => [k, null])),
      ...(request.contenthash ? { contenthash: r.contenthash } : {}),
    };
  };
  const stub = {
    answer: async <T>(_db: unknown, _accelerate: boolean, run: (r: Resolution) => Promise<T>) => ({
      result: await run({ records } as unknown as Resolution),
      accelerated: true,
    }),
  };
  options = { ...options, resolution: stub as unknown as ResolutionService };
}, 120_000);

afterAll(async () => {
  await t?.drop();
});

const QUERY = `query($name: InterpretedName!) {
  domain(by: { name: $name }) { resolve {
    profile {
      addresses { ethereum bitcoin litecoin solana dogecoin }
      contenthash { protocolType decoded uri httpUrl }
    }
    records { addresses(coinTypes: [2]) { coinType address } contenthash }
  } }
}`;

describe("/api/omnigraph profile: addresses and contenthash", () => {
  it("answers non-EVM addresses in their chains' forms and the contenthash decoded", async () => {
    const r = await executeOmnigraphRequest({ query: QUERY, variables: { name: "eth" } }, options);
    expect(r.body.errors).toBeUndefined();
    const resolve = (r.body.data as any).domain.resolve;
    expect(resolve.profile).toEqual({
      addresses: {
        ethereum: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
        bitcoin: "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa",
        litecoin: null,
        solana: "11111111111111111111111111111111",
        dogecoin: null,
      },
      contenthash: {
        protocolType: "IPFS",
        decoded: "bafybeibj6lixxzqtsb45ysdjnupvqkufgdvzqbnvmhw2kf7cfkesy7r7d4",
        uri: "ipfs://bafybeibj6lixxzqtsb45ysdjnupvqkufgdvzqbnvmhw2kf7cfkesy7r7d4",
        httpUrl: "https://ipfs.io/ipfs/bafybeibj6lixxzqtsb45ysdjnupvqkufgdvzqbnvmhw2kf7cfkesy7r7d4",
      },
    });
    // The bytes stay where the schema has them, decodable or not.
    expect(resolve.records).toEqual({
      addresses: [{ coinType: 2, address: "0x0102" }],
      contenthash: "0xe3010170122029f2d17be6139079dc48696d1f582a8530eb9805b561eda517e22a892c7e3f1f",
    });
    // One resolution for the whole name: profile and records gathered together.
    expect(requests.length).toBe(1);
    expect(internalErrors).toEqual([]);
  });

  it("answers a Rootstock address in EIP-1191's mixed case for chain 30, the records keeping the bytes", async () => {
    const raw = "0x3a29282d5144cea68cb33995ce82212f4b21ccec";
    stored = { ...GOOD, addresses: { "137": raw } };
    const r = await executeOmnigraphRequest(
      {
        query: `{ domain(by: { name: "eth" }) { resolve { profile { addresses { rootstock ethereum } }
          records { addresses(coinTypes: [137]) { address } } } } }`,
      },
      options,
    );
    expect(r.body.errors).toBeUndefined();
    const resolve = (r.body.data as any).domain.resolve;
    expect(resolve.profile.addresses).toEqual({ rootstock: eip1191(raw, 30), ethereum: null });
    // Not ethereum's EIP-55 case, and not the lower case earlier builds answered.
    expect(resolve.profile.addresses.rootstock).toBe("0x3A29282D5144CEa68cb33995CE82212f4b21cceC");
    expect(resolve.records.addresses).toEqual([{ address: raw }]);
    expect(internalErrors).toEqual([]);
  });

  it.skipIf(skipWithoutPeerOmnigraph("the Rootstock address of the peer's recorded domain-profile"))(
    "answers the Rootstock address the peer's recorded domain-profile shows, from the same bytes",
    async () => {
      const recorded = peerCookbookResponses()["domain-profile"]?.data as any;
      const shown: string = recorded.domain.resolve.profile.addresses.rootstock;
      expect(shown).toMatch(/^0x[0-9a-fA-F]{40}$/);
      stored = { ...GOOD, addresses: { "137": shown.toLowerCase() } };
      const r = await executeOmnigraphRequest(
        { query: `{ domain(by: { name: "eth" }) { resolve { profile { addresses { rootstock } } } } }` },
        options,
      );
      expect(r.body.errors).toBeUndefined();
      expect((r.body.data as any).domain.resolve.profile.addresses.rootstock).toBe(shown);
      expect(internalErrors).toEqual([]);
    },
  );

  it("answers null, not an error, for a contenthash that does not decode", async () => {
    stored = MALFORMED;
    const r = await executeOmnigraphRequest({ query: QUERY, variables: { name: "eth" } }, options);
    expect(r.body.errors).toBeUndefined();
    const resolve = (r.body.data as any).domain.resolve;
    expect(resolve.profile.contenthash).toBeNull();
    expect(resolve.records.contenthash).toBe("0xe3010170");
    expect(internalErrors).toEqual([]);
  });
});
