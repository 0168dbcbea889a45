import { namehash } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account, FIXTURE_HEAD, RESOLVER_ADDRESS } from "../../harness/subgraph-fixture/fixture";
import { executeSubgraphRequest } from "../../src/api/subgraph";
import { ENTITIES } from "../../src/api/subgraph/model";
import { type Harness, startHarness } from "./harness";

let h: Harness;
type D = Record<string, unknown>;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  expect(h.internalErrors).toEqual([]);
  await h.close();
});

const TABLE_OF: Record<string, string> = {
  Domain: "domain",
  Account: "account",
  Resolver: "resolver",
  Registration: "registration",
  WrappedDomain: "wrapped_domain",
  Transfer: "transfer",
  NewOwner: "new_owner",
  NewResolver: "new_resolver",
  NewTTL: "new_ttl",
  WrappedTransfer: "wrapped_transfer",
  NameWrapped: "name_wrapped",
  NameUnwrapped: "name_unwrapped",
  FusesSet: "fuses_set",
  ExpiryExtended: "expiry_extended",
  NameRegistered: "name_registered",
  NameRenewed: "name_renewed",
  NameTransferred: "name_transferred",
  AddrChanged: "addr_changed",
  MulticoinAddrChanged: "multicoin_addr_changed",
  NameChanged: "name_changed",
  AbiChanged: "abi_changed",
  PubkeyChanged: "pubkey_changed",
  TextChanged: "text_changed",
  ContenthashChanged: "contenthash_changed",
  InterfaceChanged: "interface_changed",
  AuthorisationChanged: "authorisation_changed",
  VersionChanged: "version_changed",
};

/** A selection of every field of an entity, one level deep (relations by id). */
function selection(name: string): string {
  const e = ENTITIES.get(name)!;
  return e.fields
    .map((f) =>
      f.kind === "scalar" ? f.name : f.kind === "ref" || !f.many ? `${f.name} { id }` : `${f.name}(first: 2) { id }`,
    )
    .join(" ");
}

describe("root fields for every entity", () => {
  for (const [name, table] of Object.entries(TABLE_OF)) {
    it(`${name}: singular and plural`, async () => {
      const e = ENTITIES.get(name)!;
      const rows = h.rows[table]!;
      expect(rows.length).toBeGreaterThan(0);
      const sample = rows[rows.length - 1]!;
      const data = await h.q<Record<string, D | D[] | null>>(
        `query($id: ID!) { one: ${e.singular}(id: $id) { ${selection(name)} } many: ${e.plural}(first: 1000) { id } missing: ${e.singular}(id: "nope") { id } }`,
        { id: sample.id },
      );
      expect((data.one as D).id).toBe(sample.id);
      expect((data.many as D[]).length).toBe(Math.min(rows.length, 1000));
      expect(data.missing).toBeNull();
      // Scalars come back in The Graph's encodings.
      for (const f of e.fields) {
        if (f.kind !== "scalar") continue;
        const v = (data.one as D)[f.name];
        const expected = sample[f.column];
        if (expected === null || expected === undefined) {
          expect(v).toBeNull();
        } else if (f.list) {
          expect(v).toEqual((expected as unknown[]).map(String));
        } else if (f.type === "BigInt") {
          expect(v).toBe(String(expected));
        } else if (f.type === "Int") {
          expect(v).toBe(Number(expected));
        } else {
          expect(v).toBe(expected);
        }
      }
    });
  }

  it("a domain with everything: relations, derived one and lists", async () => {
    const id = namehash("name00004.eth"); // wrapped, with resolver and subdomains
    const { domain } = await h.q<{ domain: D }>(
      `query($id: String!) { domain(id: $id) {
        id name labelName labelhash subdomainCount ttl isMigrated createdAt expiryDate
        parent { id name } owner { id } registrant { id } wrappedOwner { id } resolvedAddress { id }
        resolver { id address texts coinTypes addr { id } domain { name } }
        registration { id registrationDate expiryDate cost registrant { id } labelName domain { name } }
        wrappedDomain { id fuses expiryDate owner { id } name domain { name } }
        subdomains(orderBy: name) { name parent { name } }
      } }`,
      { id },
    );
    const row = h.rows.domain!.find((d) => d.id === id)!;
    expect(domain).toMatchObject({
      id,
      name: "name00004.eth",
      labelName: "name00004",
      subdomainCount: row.subdomainCount,
      isMigrated: true,
      createdAt: String(row.createdAt),
      expiryDate: String(row.expiryDate),
      parent: { name: "eth" },
      owner: { id: row.ownerId },
      wrappedOwner: { id: account(4) },
      resolver: { address: RESOLVER_ADDRESS, domain: { name: "name00004.eth" } },
      registration: { domain: { name: "name00004.eth" }, registrant: { id: account(4) } },
      wrappedDomain: { name: "name00004.eth", owner: { id: account(4) } },
    });
    expect((domain.subdomains as D[]).map((s) => s.name)).toEqual([
      "sub0.name00004.eth",
      "sub1.name00004.eth",
      "sub2.name00004.eth",
      "sub3.name00004.eth",
    ]);
    expect(domain.subdomainCount).toBe(4);
  });

  it("accounts list their domains, wrapped domains and registrations", async () => {
    const me = account(4);
    const { account: a } = await h.q<{ account: { domains: D[]; wrappedDomains: D[]; registrations: D[] } }>(
      `{ account(id: "${me}") { id domains(first: 1000) { id } wrappedDomains(first: 1000) { id } registrations(first: 1000) { id } } }`,
    );
    expect(a.domains.length).toBe(h.rows.domain!.filter((d) => d.ownerId === me).length);
    expect(a.wrappedDomains.length).toBe(h.rows.wrapped_domain!.filter((d) => d.ownerId === me).length);
    expect(a.registrations.length).toBe(h.rows.registration!.filter((d) => d.registrantId === me).length);
    expect(a.wrappedDomains.length).toBeGreaterThan(0);
  });
});

describe("polymorphic events", () => {
  it("domain.events mixes types, read with __typename and inline fragments", async () => {
    const id = namehash("name00004.eth");
    const { domain } = await h.q<{ domain: { events: D[] } }>(
      `{ domain(id: "${id}") { events(first: 100, orderBy: blockNumber) {
          __typename id blockNumber transactionID domain { id }
          ... on Transfer { owner { id } }
          ... on NewOwner { owner { id } parentDomain { name } }
          ... on NewResolver { resolver { id } }
          ... on NameWrapped { name fuses expiryDate owner { id } }
          ... on WrappedTransfer { owner { id } }
          ... on FusesSet { fuses }
          ... on ExpiryExtended { expiryDate }
          ... on NewTTL { ttl }
      } } }`,
    );
    const types = domain.events.map((e) => e.__typename);
    expect(new Set(types)).toEqual(
      new Set(["NewOwner", "Transfer", "NewResolver", "NameWrapped", "WrappedTransfer", "FusesSet", "ExpiryExtended"]),
    );
    const blocks = domain.events.map((e) => e.blockNumber as number);
    expect(blocks).toEqual([...blocks].sort((a, b) => a - b));
    const wrapped = domain.events.find((e) => e.__typename === "NameWrapped")!;
    expect(wrapped).toMatchObject({ name: "name00004.eth", fuses: 0, owner: { id: account(4) } });
    expect(typeof wrapped.expiryDate).toBe("string");
    expect(domain.events.find((e) => e.__typename === "NewOwner")).toMatchObject({ parentDomain: { name: "eth" } });
    for (const e of domain.events) expect(e.domain).toEqual({ id });
  });

  it("registration.events, resolver.events and the interface root fields", async () => {
    const reg = h.rows.registration!.find((r) => h.rows.name_transferred!.some((e) => e.registrationId === r.id))!;
    const { registration } = await h.q<{ registration: { events: D[] } }>(
      `{ registration(id: "${reg.id}") { events { __typename ... on NameRegistered { registrant { id } expiryDate } ... on NameTransferred { newOwner { id } } ... on NameRenewed { expiryDate } } } }`,
    );
    expect(registration.events.map((e) => e.__typename).sort()).toEqual(
      ["NameRegistered", "NameRenewed", "NameTransferred"].filter((t) =>
        t === "NameRenewed" ? h.rows.name_renewed!.some((e) => e.registrationId === reg.id) : true,
      ),
    );
    const r0 = h.rows.resolver![0]!.id as string;
    const { resolver } = await h.q<{ resolver: { events: D[] } }>(
      `{ resolver(id: "${r0}") { events(first: 100) { __typename ... on TextChanged { key value } ... on AuthorisationChanged { isAuthorized owner target } ... on PubkeyChanged { x y } ... on MulticoinAddrChanged { coinType addr } } } }`,
    );
    const types = new Set(resolver.events.map((e) => e.__typename));
    for (const t of [
      "TextChanged",
      "AddrChanged",
      "MulticoinAddrChanged",
      "NameChanged",
      "AbiChanged",
      "PubkeyChanged",
      "ContenthashChanged",
      "InterfaceChanged",
      "AuthorisationChanged",
      "VersionChanged",
    ]) {
      expect(types).toContain(t);
    }
    expect(resolver.events.find((e) => e.__typename === "AuthorisationChanged")).toMatchObject({ isAuthorized: true });
    expect(resolver.events.find((e) => e.__typename === "MulticoinAddrChanged")).toMatchObject({ coinType: "60" });

    const total = [
      "text_changed",
      "addr_changed",
      "multicoin_addr_changed",
      "name_changed",
      "abi_changed",
      "pubkey_changed",
      "contenthash_changed",
      "interface_changed",
      "authorisation_changed",
      "version_changed",
    ].reduce((n, t) => n + h.rows[t]!.length, 0);
    const { resolverEvents } = await h.q<{ resolverEvents: D[] }>(`{ resolverEvents(first: 1000) { id } }`);
    expect(resolverEvents.length).toBe(Math.min(total, 1000));
    const some = h.rows.text_changed![3]!;
    const { resolverEvent, registrationEvent, domainEvent } = await h.q<Record<string, D | null>>(
      `{ resolverEvent(id: "${some.id}") { __typename id } registrationEvent(id: "${some.id}") { id } domainEvent(id: "${h.rows.new_ttl![0]!.id}") { __typename ... on NewTTL { ttl } } }`,
    );
    expect(resolverEvent).toEqual({ __typename: "TextChanged", id: some.id });
    expect(registrationEvent).toBeNull();
    expect(domainEvent).toEqual({ __typename: "NewTTL", ttl: "300" });
  });

  it("filters on interface collections", async () => {
    const key = "com.twitter";
    const { textChangeds } = await h.q<{ textChangeds: D[] }>(
      `{ textChangeds(first: 1000, where: { key: "${key}", resolver_: { address: "${RESOLVER_ADDRESS}" } }) { id value } }`,
    );
    const resolverIds = new Set(h.rows.resolver!.filter((r) => r.address === RESOLVER_ADDRESS).map((r) => r.id));
    expect(textChangeds.length).toBe(
      h.rows.text_changed!.filter((e) => e.key === key && resolverIds.has(e.resolverId)).length,
    );
    const { domain } = await h.q<{ domain: { events: D[] } }>(
      `{ domain(id: "${namehash("name00004.eth")}") { events(where: { blockNumber_gt: 0, transactionID_not: "0x00" }, first: 3, orderBy: id, orderDirection: desc) { id } } }`,
    );
    expect(domain.events.length).toBe(3);
  });
});

describe("batching", () => {
  it("nested collections cost one statement per field and level, not one per parent", async () => {
    const before = h.t.counter.statements;
    const r = await h.raw(`{ domains(first: 100, where: { parent: "${namehash("eth")}" }) {
      id owner { id } parent { id name }
      subdomains(first: 5) { id owner { id } subdomains { id } }
      resolver { texts }
      registration { cost }
      wrappedDomain { fuses }
      events(first: 3) { id }
    } }`);
    expect(r.body.errors).toBeUndefined();
    // domains (carrying parent, resolver, registration and wrappedDomain), subdomains, events, sub-subdomains
    expect(r.statements).toBe(4);
    expect(h.t.counter.statements - before).toBe(4);
  });

  it("to-one relations embedded in the root statement equal the batched ones", async () => {
    const fields = `id name parent { id name } resolver { id texts coinTypes addr { id } } registration { id cost labelName } wrappedDomain { id fuses name }`;
    // At the root the relations ride along in one statement; one level down they are batched loads.
    const embedded = await h.raw(`{ domains(first: 200, where: { parent: "${namehash("eth")}" }) { ${fields} } }`);
    const batched = await h.raw(`{ domain(id: "${namehash("eth")}") { subdomains(first: 200) { ${fields} } } }`);
    expect(embedded.statements).toBe(1);
    expect(batched.statements).toBeGreaterThan(2);
    const a = (embedded.body.data as { domains: D[] }).domains;
    const b = (batched.body.data as { domain: { subdomains: D[] } }).domain.subdomains;
    expect(a.length).toBe(200);
    expect(a).toEqual(b);
    expect(a.some((d) => d.resolver === null) && a.some((d) => d.wrappedDomain !== null)).toBe(true);
    // Through fragments and on a root singular too.
    const one = await h.raw(
      `query { domain(id: "${namehash("name00004.eth")}") { ...D } } fragment D on Domain { ... on Domain { registration { id } } resolver { id } }`,
    );
    expect(one.statements).toBe(1);
    expect((one.body.data as { domain: D }).domain.registration).not.toBeNull();
  });

  it("aliases of the same field with different arguments batch separately and stay correct", async () => {
    const { domains } = await h.q<{
      domains: { id: string; a: D[]; b: D[] }[];
    }>(`{ domains(first: 50, where: { subdomainCount_gt: 2 }) {
      id a: subdomains(first: 1, orderBy: name) { name } b: subdomains(first: 1, orderBy: name, orderDirection: desc) { name }
    } }`);
    expect(domains.length).toBeGreaterThan(2);
    for (const d of domains) {
      const children = h.rows
        .domain!.filter((c) => c.parentId === d.id)
        .map((c) => c.name as string)
        .sort();
      expect(d.a[0]!.name).toBe(children[0]);
      expect(d.b[0]!.name).toBe(children[children.length - 1]);
    }
  });
});

describe("_meta and the block argument", () => {
  it("_meta reports the indexed head", async () => {
    const data = await h.q(`{ _meta { block { number timestamp hash parentHash } deployment hasIndexingErrors } }`);
    expect(data).toEqual({
      _meta: { block: FIXTURE_HEAD, deployment: "nameindex-test", hasIndexingErrors: false },
    });
  });

  it("block: the head is accepted, by number, number_gte or hash", async () => {
    for (const block of [
      `{ number: ${FIXTURE_HEAD.number} }`,
      `{ number_gte: ${FIXTURE_HEAD.number - 5} }`,
      `{ hash: "${FIXTURE_HEAD.hash.toUpperCase().replace("0X", "0x")}" }`,
    ]) {
      const data = await h.q<{ domains: D[]; _meta: D }>(
        `{ domains(first: 1, block: ${block}) { id } _meta(block: ${block}) { block { number } } }`,
      );
      expect(data.domains.length).toBe(1);
    }
  });

  it("block: any other block is a clear error", async () => {
    const cases: [string, RegExp][] = [
      [
        `{ number: ${FIXTURE_HEAD.number + 1} }`,
        /^Failed to decode `block.number` value: `subgraph nameindex-test has only indexed up to block number 999999 and data for block number 1000000 is therefore not yet available`$/,
      ],
      [`{ number: 5 }`, /past blocks are not available: this endpoint keeps no history.*block number 999999/],
      [`{ number_gte: ${FIXTURE_HEAD.number + 10} }`, /not yet available/],
      [`{ hash: "0x${"12".repeat(32)}" }`, /past blocks are not available/],
    ];
    for (const [block, message] of cases) {
      for (const q of [
        `{ domains(block: ${block}) { id } }`,
        `{ domain(id: "x", block: ${block}) { id } }`,
        `{ _meta(block: ${block}) { deployment } }`,
      ]) {
        const r = await h.raw(q);
        expect(r.status).toBe(200);
        expect(r.body.errors?.[0]?.message).toMatch(message);
      }
    }
  });

  it("before the first indexed block, _meta says so", async () => {
    const r = await executeSubgraphRequest(
      { query: "{ _meta { block { number } } }" },
      { ...h.options, getMeta: async () => ({ block: null, deployment: "d", hasIndexingErrors: false }) },
    );
    expect(r.status).toBe(200);
    expect(r.body.errors?.[0]?.message).toMatch(/No block has been indexed/);
  });
});
