import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADDR_REVERSE,
  account,
  OTHER_RESOLVER_ADDRESS,
  RESOLVER_ADDRESS,
  ZERO_ADDRESS,
} from "../../harness/subgraph-fixture/fixture";
import { type Harness, startHarness } from "./harness";

/*
 * Every `where` operator, checked against the same predicate evaluated in JavaScript over the fixture rows.
 * SQL semantics apply: a comparison with a null column never matches (except `x: null` / `x_not: null`).
 */

let h: Harness;
type D = Record<string, unknown>;
let domains: D[];

beforeAll(async () => {
  h = await startHarness();
  domains = h.rows.domain!;
});
afterAll(async () => {
  expect(h.internalErrors).toEqual([]);
  await h.close();
});

const str = (v: unknown) => (v === null || v === undefined ? null : String(v));
const big = (v: unknown) => (v === null || v === undefined ? null : BigInt(v as bigint));
const lc = (v: unknown) => str(v)?.toLowerCase() ?? null;

async function ids(where: Record<string, unknown>, entity = "domains"): Promise<string[]> {
  const data = await h.q<Record<string, { id: string }[]>>(
    `query($w: ${entity === "domains" ? "Domain" : entity === "resolvers" ? "Resolver" : "Registration"}_filter) { r: ${entity}(first: 1000, where: $w) { id } }`,
    { w: where },
  );
  return data.r!.map((d) => d.id).sort();
}

const expectIds = (rows: D[], pred: (d: D) => boolean) =>
  rows
    .filter(pred)
    .map((d) => d.id as string)
    .sort();

const name = (d: D) => str(d.name);
const NAME = "name00042.eth";

const domainCases: [string, Record<string, unknown>, (d: D) => boolean][] = [
  ["equality", { name: NAME }, (d) => name(d) === NAME],
  ["null equality", { name: null }, (d) => name(d) === null],
  ["_not", { name_not: NAME }, (d) => name(d) !== null && name(d) !== NAME],
  ["_not null", { expiryDate_not: null }, (d) => d.expiryDate !== null],
  ["_in", { name_in: [NAME, "eth", "nope"] }, (d) => [NAME, "eth"].includes(name(d) ?? "")],
  ["_in empty", { name_in: [] }, () => false],
  ["_not_in", { name_not_in: [NAME, "eth"] }, (d) => name(d) !== null && ![NAME, "eth"].includes(name(d)!)],
  ["_gt string", { name_gt: "name00190" }, (d) => name(d) !== null && name(d)! > "name00190"],
  ["_lte string", { name_lte: "Mixed3" }, (d) => name(d) !== null && name(d)! <= "Mixed3"],
  ["_contains", { name_contains: "0004" }, (d) => name(d)?.includes("0004") ?? false],
  ["_not_contains", { name_not_contains: "sub" }, (d) => name(d) !== null && !name(d)!.includes("sub")],
  ["_contains_nocase", { name_contains_nocase: "MIXED1" }, (d) => lc(d.name)?.includes("mixed1") ?? false],
  [
    "_not_contains_nocase",
    { name_not_contains_nocase: "mixed" },
    (d) => name(d) !== null && !lc(d.name)!.includes("mixed"),
  ],
  ["_starts_with", { name_starts_with: "sub1." }, (d) => name(d)?.startsWith("sub1.") ?? false],
  ["_starts_with_nocase", { name_starts_with_nocase: "mIxEd" }, (d) => lc(d.name)?.startsWith("mixed") ?? false],
  ["_not_starts_with", { name_not_starts_with: "name" }, (d) => name(d) !== null && !name(d)!.startsWith("name")],
  [
    "_not_starts_with_nocase",
    { name_not_starts_with_nocase: "NAME" },
    (d) => name(d) !== null && !lc(d.name)!.startsWith("name"),
  ],
  ["_ends_with", { name_ends_with: "1.eth" }, (d) => name(d)?.endsWith("1.eth") ?? false],
  ["_ends_with_nocase", { name_ends_with_nocase: "7.ETH" }, (d) => lc(d.name)?.endsWith("7.eth") ?? false],
  ["_not_ends_with", { name_not_ends_with: ".eth" }, (d) => name(d) !== null && !name(d)!.endsWith(".eth")],
  [
    "_not_ends_with_nocase",
    { name_not_ends_with_nocase: ".ETH" },
    (d) => name(d) !== null && !lc(d.name)!.endsWith(".eth"),
  ],
  ["LIKE wildcards are literal", { name_contains: "%" }, () => false],
  ["underscore is literal", { labelName_contains: "_" }, () => false],
  [
    "labelName null (unknown labels)",
    { labelName: null, parent: "0x93cdeb708b7545dc668eb9280176169d1c33cfd8ed6f04690a0bcc88a93fc4ae" },
    (d) => d.labelName === null && d.parentId === "0x93cdeb708b7545dc668eb9280176169d1c33cfd8ed6f04690a0bcc88a93fc4ae",
  ],
  ["BigInt equality", { ttl: "300" }, (d) => big(d.ttl) === 300n],
  ["BigInt as Int literal", { ttl_gt: 0 }, (d) => (big(d.ttl) ?? 0n) > 0n],
  [
    "BigInt _gte/_lt",
    { createdAt_gte: "1600000600", createdAt_lt: "1600001200" },
    (d) => big(d.createdAt)! >= 1600000600n && big(d.createdAt)! < 1600001200n,
  ],
  [
    "BigInt _in",
    { createdAt_in: ["1600000000", "1600000060"] },
    (d) => [1600000000n, 1600000060n].includes(big(d.createdAt)!),
  ],
  ["BigInt _not_in", { createdAt_not_in: ["1600000000", "0"] }, (d) => ![1600000000n, 0n].includes(big(d.createdAt)!)],
  ["BigInt _lte", { expiryDate_lte: "1640000000" }, (d) => d.expiryDate !== null && big(d.expiryDate)! <= 1640000000n],
  ["Int equality", { subdomainCount: 3 }, (d) => d.subdomainCount === 3],
  ["Int _gt", { subdomainCount_gt: 1 }, (d) => (d.subdomainCount as number) > 1],
  ["Int _in", { subdomainCount_in: [2, 4] }, (d) => [2, 4].includes(d.subdomainCount as number)],
  ["Int _not", { subdomainCount_not: 0 }, (d) => d.subdomainCount !== 0],
  ["Boolean", { isMigrated: true }, (d) => d.isMigrated === true],
  ["Boolean _not", { isMigrated_not: true }, (d) => d.isMigrated !== true],
  ["Boolean _in", { isMigrated_in: [false] }, (d) => d.isMigrated === false],
  ["ID equality", { id: ADDR_REVERSE }, (d) => d.id === ADDR_REVERSE],
  ["ID _gt/_lt", { id_gt: "0x4", id_lt: "0x8" }, (d) => (d.id as string) > "0x4" && (d.id as string) < "0x8"],
  ["ID _in", { id_in: [ADDR_REVERSE, "0xnothing"] }, (d) => d.id === ADDR_REVERSE],
  ["ID _not_in", { id_not_in: [ADDR_REVERSE] }, (d) => d.id !== ADDR_REVERSE],
  ["relation by id", { owner: account(3) }, (d) => d.ownerId === account(3)],
  ["relation _not", { owner_not: ZERO_ADDRESS }, (d) => d.ownerId !== ZERO_ADDRESS],
  [
    "relation _in",
    { owner_in: [account(1), account(2)] },
    (d) => [account(1), account(2)].includes(d.ownerId as string),
  ],
  ["relation null", { resolver: null }, (d) => d.resolverId === null],
  ["relation _not null", { resolver_not: null }, (d) => d.resolverId !== null],
  [
    "relation _starts_with",
    { resolver_starts_with: OTHER_RESOLVER_ADDRESS },
    (d) => str(d.resolverId)?.startsWith(OTHER_RESOLVER_ADDRESS) ?? false,
  ],
  ["relation _ends_with", { parent_ends_with: "ae" }, (d) => str(d.parentId)?.endsWith("ae") ?? false],
  ["relation _contains_nocase", { owner_contains_nocase: "000B" }, (d) => lc(d.ownerId)!.includes("000b")],
  ["parent by id (subdomains)", { parent: ADDR_REVERSE }, (d) => d.parentId === ADDR_REVERSE],
  [
    "and",
    { and: [{ owner: account(2) }, { subdomainCount_gt: 0 }] },
    (d) => d.ownerId === account(2) && (d.subdomainCount as number) > 0,
  ],
  ["or", { or: [{ owner: account(2) }, { name: NAME }] }, (d) => d.ownerId === account(2) || name(d) === NAME],
  [
    "or of and (ensjs paging shape)",
    { or: [{ and: [{ createdAt_gte: "1600000600", id_gt: "0x8" }] }, { createdAt_gt: "1600000600" }] },
    (d) => (big(d.createdAt)! >= 1600000600n && (d.id as string) > "0x8") || big(d.createdAt)! > 1600000600n,
  ],
  [
    "several keys in one object are AND-ed",
    { owner: account(4), ttl: "0" },
    (d) => d.ownerId === account(4) && big(d.ttl) === 0n,
  ],
];

describe("Domain_filter operators", () => {
  for (const [label, where, pred] of domainCases) {
    it(label, async () => {
      expect(await ids(where)).toEqual(expectIds(domains, pred));
    });
  }

  it("Bytes equality, _in and _not ignore hex case", async () => {
    const d = domains.find((x) => x.name === NAME)!;
    const lh = d.labelhash as string;
    expect(await ids({ labelhash: lh.toUpperCase().replace("0X", "0x") })).toEqual([d.id]);
    expect(await ids({ labelhash_in: [lh.toUpperCase().replace("0X", "0x")] })).toEqual([d.id]);
    expect((await ids({ labelhash_not: lh })).length).toBe(domains.filter((x) => x.labelhash !== null).length - 1);
  });

  it("Bytes _contains / _not_contains / _gt", async () => {
    const fragment = (domains.find((x) => x.name === NAME)!.labelhash as string).slice(10, 20);
    expect(await ids({ labelhash_contains: `0x${fragment}` })).toEqual(
      expectIds(domains, (d) => containsBytes(str(d.labelhash), fragment) === true),
    );
    expect(await ids({ labelhash_not_contains: `0x${fragment}` })).toEqual(
      expectIds(domains, (d) => containsBytes(str(d.labelhash), fragment) === false),
    );
    expect(await ids({ labelhash_gt: "0xf0" })).toEqual(
      expectIds(domains, (d) => d.labelhash !== null && str(d.labelhash)! > "0xf0"),
    );
  });

  it("Bytes _contains matches whole bytes, not hex digits across a byte boundary", async () => {
    // A byte that some labelhash holds only straddling two bytes (…1a 0b… holds "a0" but not the byte 0xa0).
    const bytes = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
    const straddled = bytes.find((b) =>
      domains.some(
        (d) => d.labelhash !== null && str(d.labelhash)!.slice(2).includes(b) && !containsBytes(str(d.labelhash), b),
      ),
    )!;
    expect(straddled).toBeDefined();
    const found = await ids({ labelhash_contains: `0x${straddled}` });
    expect(found).toEqual(expectIds(domains, (d) => containsBytes(str(d.labelhash), straddled) === true));
    expect(found).not.toEqual(expectIds(domains, (d) => str(d.labelhash)?.slice(2).includes(straddled) ?? false));
  });

  it("ID and relation ids are case-sensitive strings, as in The Graph (ids are lowercase)", async () => {
    expect(account(10)).toMatch(/[a-f]/);
    expect(await ids({ owner: account(10).toUpperCase().replace("0X", "0x") })).toEqual([]);
    expect((await ids({ owner: account(10) })).length).toBeGreaterThan(0);
    expect(await ids({ id: ADDR_REVERSE.toUpperCase().replace("0X", "0x") })).toEqual([]);
  });

  it("nested filter on a relation: owner_ and parent_", async () => {
    expect(await ids({ owner_: { id: account(5) } })).toEqual(expectIds(domains, (d) => d.ownerId === account(5)));
    expect(await ids({ owner_: { id_in: [account(5), account(6)] } })).toEqual(
      expectIds(domains, (d) => [account(5), account(6)].includes(d.ownerId as string)),
    );
    const parentIdsNamedEth = domains.filter((p) => p.name === "eth").map((p) => p.id);
    expect(await ids({ parent_: { name: "eth" } })).toEqual(
      expectIds(domains, (d) => parentIdsNamedEth.includes(d.parentId)),
    );
    const parentsMatching = domains.filter((p) => str(p.name)?.startsWith("name0001")).map((p) => p.id);
    expect(await ids({ parent_: { name_starts_with: "name0001" } })).toEqual(
      expectIds(domains, (d) => parentsMatching.includes(d.parentId)),
    );
  });

  it("nested filter through two levels and on an account's derived lists", async () => {
    const grand = domains.filter((p) => p.name === "eth").map((p) => p.id);
    const parents = domains.filter((p) => grand.includes(p.parentId)).map((p) => p.id);
    expect(await ids({ parent_: { parent_: { name: "eth" } } })).toEqual(
      expectIds(domains, (d) => parents.includes(d.parentId)),
    );
    // Domains whose owner also owns a domain with three subdomains.
    const owners = new Set(domains.filter((d) => d.subdomainCount === 3).map((d) => d.ownerId));
    expect(await ids({ owner_: { domains_: { subdomainCount: 3 } } })).toEqual(
      expectIds(domains, (d) => owners.has(d.ownerId)),
    );
  });

  it("nested filter on derived fields: subdomains_, registration_, wrappedDomain_, events_", async () => {
    const withSub1 = new Set(domains.filter((d) => d.labelName === "sub1").map((d) => d.parentId));
    expect(await ids({ subdomains_: { labelName: "sub1" } })).toEqual(expectIds(domains, (d) => withSub1.has(d.id)));
    const cheap = new Set(h.rows.registration!.filter((r) => r.cost === null).map((r) => r.domainId));
    expect(await ids({ registration_: { cost: null } })).toEqual(expectIds(domains, (d) => cheap.has(d.id)));
    const fused = new Set(h.rows.wrapped_domain!.filter((w) => w.fuses === 196608).map((w) => w.domainId));
    expect(await ids({ wrappedDomain_: { fuses: 196608 } })).toEqual(expectIds(domains, (d) => fused.has(d.id)));
    const ttlChanged = new Set(h.rows.new_ttl!.map((e) => e.domainId));
    const unwrapped = new Set(h.rows.name_unwrapped!.map((e) => e.domainId));
    const block = Math.min(...h.rows.name_unwrapped!.map((e) => e.blockNumber as number));
    expect(await ids({ events_: { blockNumber: block } })).toEqual(
      expectIds(domains, (d) =>
        [...h.rows.name_unwrapped!, ...h.rows.new_ttl!, ...h.rows.transfer!, ...h.rows.new_owner!].some(
          (e) => e.domainId === d.id && e.blockNumber === block,
        ),
      ),
    );
    expect(ttlChanged.size + unwrapped.size).toBeGreaterThan(0);
  });

  it("ensjs getNamesForAddress filter shape", async () => {
    const me = account(7);
    const now = 1_650_000_000n;
    const where = {
      and: [
        { or: [{ owner: me }, { registrant: me }, { resolvedAddress: me }, { wrappedOwner: me }] },
        { parent_not: ADDR_REVERSE },
        { or: [{ expiryDate_gt: `${now}` }, { expiryDate: null }] },
        {
          or: [
            { owner_not: ZERO_ADDRESS },
            { resolver_not: null },
            { and: [{ registrant_not: ZERO_ADDRESS }, { registrant_not: null }] },
          ],
        },
      ],
    };
    const expected = expectIds(
      domains,
      (d) =>
        [d.ownerId, d.registrantId, d.resolvedAddressId, d.wrappedOwnerId].includes(me) &&
        d.parentId !== ADDR_REVERSE &&
        d.parentId !== null &&
        (d.expiryDate === null || big(d.expiryDate)! > now) &&
        (d.ownerId !== ZERO_ADDRESS ||
          d.resolverId !== null ||
          (d.registrantId !== null && d.registrantId !== ZERO_ADDRESS)),
    );
    expect(expected.length).toBeGreaterThan(3);
    expect(await ids(where)).toEqual(expected);
  });
});

describe("list fields (Resolver.texts, Resolver.coinTypes)", () => {
  let resolvers: D[];
  beforeAll(() => {
    resolvers = h.rows.resolver!;
  });
  const texts = (r: D) => (r.texts as string[] | null) ?? [];
  const coins = (r: D) => ((r.coinTypes as string[] | null) ?? []).map(String);

  it("_contains (all of) / _not_contains", async () => {
    expect(await ids({ texts_contains: ["url", "com.twitter"] }, "resolvers")).toEqual(
      expectIds(resolvers, (r) => texts(r).includes("url") && texts(r).includes("com.twitter")),
    );
    expect(await ids({ texts_not_contains: ["description"] }, "resolvers")).toEqual(
      expectIds(resolvers, (r) => !texts(r).includes("description")),
    );
    expect(await ids({ coinTypes_contains: ["0"] }, "resolvers")).toEqual(
      expectIds(resolvers, (r) => coins(r).includes("0")),
    );
  });
  it("_contains_nocase / _not_contains_nocase", async () => {
    expect(await ids({ texts_contains_nocase: ["COM.Twitter"] }, "resolvers")).toEqual(
      expectIds(resolvers, (r) => texts(r).includes("com.twitter")),
    );
    expect(await ids({ texts_not_contains_nocase: ["URL"] }, "resolvers")).toEqual(
      expectIds(resolvers, (r) => !texts(r).includes("url")),
    );
  });
  it("equality / _not on the whole list", async () => {
    expect(await ids({ texts: ["avatar"] }, "resolvers")).toEqual(
      expectIds(resolvers, (r) => JSON.stringify(texts(r)) === JSON.stringify(["avatar"])),
    );
    expect(await ids({ coinTypes_not: ["60"] }, "resolvers")).toEqual(
      expectIds(resolvers, (r) => JSON.stringify(coins(r)) !== JSON.stringify(["60"])),
    );
  });
  it("_has / _not_has (one element)", async () => {
    expect(await ids({ texts_has: "description" }, "resolvers")).toEqual(
      expectIds(resolvers, (r) => texts(r).includes("description")),
    );
    expect(await ids({ coinTypes_not_has: "0" }, "resolvers")).toEqual(
      expectIds(resolvers, (r) => !coins(r).includes("0")),
    );
  });
  it("Bytes column on resolvers and relation to Account", async () => {
    expect(await ids({ address: RESOLVER_ADDRESS.toUpperCase().replace("0X", "0x") }, "resolvers")).toEqual(
      expectIds(resolvers, (r) => r.address === RESOLVER_ADDRESS),
    );
    expect(await ids({ addr_: { id: account(1) } }, "resolvers")).toEqual(
      expectIds(resolvers, (r) => r.addrId === account(1)),
    );
  });
});

describe("filter errors are GraphQL errors", () => {
  it.each([
    ["unknown filter field", `{ domains(where: { nope: 1 }) { id } }`, /nope/],
    ["wrong scalar type", `{ domains(where: { subdomainCount: "x" }) { id } }`, /Int/],
    ["bad BigInt", `{ domains(where: { ttl: "12a" }) { id } }`, /BigInt/],
    ["bad Bytes", `{ domains(where: { labelhash: "zz" }) { id } }`, /Bytes/],
    ["_change_block", `{ domains(where: { _change_block: { number_gte: 1 } }) { id } }`, /_change_block/],
    ["null where a value is needed", `{ domains(where: { createdAt_gt: null }) { id } }`, /null/],
  ])("%s", async (_label, query, message) => {
    const r = await h.raw(query);
    expect(r.status).toBe(200);
    expect(r.body.errors?.[0]?.message).toMatch(message);
  });
});

describe("list sizes", () => {
  it("an _in list over 1000 values is a GraphQL error", async () => {
    const ids = Array.from({ length: 1001 }, (_, i) => `0x${i.toString(16)}`);
    const r = await h.raw("query($ids: [ID!]) { domains(where: { id_in: $ids }) { id } }", { ids });
    expect(r.body.errors?.[0]?.message).toMatch(/1001 values, the limit is 1000/);
    const ok = await h.raw("query($ids: [ID!]) { domains(where: { id_in: $ids }) { id } }", {
      ids: ids.slice(0, 1000),
    });
    expect(ok.body.errors).toBeUndefined();
  });
});

/** Whether 0x-hex `hex` holds the bytes `needle` (hex without 0x) at a byte boundary; null for null. */
function containsBytes(hex: string | null | undefined, needle: string): boolean | null {
  if (hex === null || hex === undefined) return null;
  const digits = hex.slice(2);
  for (let i = digits.indexOf(needle); i !== -1; i = digits.indexOf(needle, i + 1)) if (i % 2 === 0) return true;
  return false;
}
