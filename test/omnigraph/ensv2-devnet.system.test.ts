import { readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { type Address, namehash } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scenarioOf } from "../../devnet/src/index";
import type { Ensv2NameFacts, Ensv2Scenario } from "../../devnet/src/scenario/ensv2-model";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { indexerOptionsFor, type RunningIndexer, settledStatus, startIndexer } from "../../harness/indexer-harness";
import { peerCookbook, skipWithoutPeerOmnigraph } from "../../harness/peer-omnigraph";

/*
 * /api/omnigraph over ENSv2: the devnet's ENSv2 scenario indexed with the subgraph and ensv2 plugins (one graph of
 * both versions). Every ENSv2 name of the manifest's expected end state (`scenario.ensv2`) is asked for and compared:
 * canonical name, registry, owner, expiry, token id, resolver, subregistry; the tree (three levels, the re-parented
 * registry, the root); roles against `ensv2_permission`; and the same names through /api/name-tokens and
 * /api/registrar-actions.
 */

const SEED = 3;
const NAMES = 30;

let env: DevnetWithLabels;
let indexer: RunningIndexer;
let v2: Ensv2Scenario;
let now: number;

beforeAll(async () => {
  env = await startDevnetWithLabels({ seed: SEED, names: NAMES });
  v2 = scenarioOf(env.devnet.manifest).ensv2;
  indexer = await startIndexer(indexerOptionsFor(env, { plugins: ["subgraph", "ensv2"], database: "postgres" }));
  await settledStatus(indexer, 3_000, 300_000);
  now = Math.floor(Date.now() / 1000);
}, 600_000);

afterAll(async () => {
  await indexer?.stop();
  await env?.stop();
});

async function omnigraph<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch(`${indexer.url}/api/omnigraph`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data?: T; errors?: unknown[] };
  expect(body.errors).toBeUndefined();
  return body.data!;
}

const lower = (a: string | undefined | null) => a?.toLowerCase() ?? null;

const DOMAIN_FIELDS = `
  __typename id label { interpreted } canonical { name { interpreted } depth path { id } }
  owner { address } registry { __typename contract { address } }
  subregistry { __typename contract { address } }
  resolver { assigned { contract { address } } }
  registration { __typename expiry registrant { address } registrar { address } }
  ... on ENSv2Domain { tokenId }`;

interface DomainAnswer {
  __typename: string;
  id: string;
  label: { interpreted: string };
  canonical: { name: { interpreted: string }; depth: number; path: { id: string }[] } | null;
  owner: { address: string } | null;
  registry: { __typename: string; contract: { address: string } };
  subregistry: { __typename: string; contract: { address: string } } | null;
  resolver: { assigned: { contract: { address: string } } | null };
  registration: { __typename: string; expiry: string; registrant: { address: string } | null } | null;
  tokenId?: string;
}

async function ensv2Domains(names: string[]): Promise<Map<string, DomainAnswer>> {
  const data = await omnigraph<{ domains: { totalCount: number; edges: { node: DomainAnswer }[] } }>(
    `query($names: [InterpretedName!]!) { domains(first: 100, where: { name: { in: $names }, version: ENSv2 }) { totalCount edges { node { ${DOMAIN_FIELDS} } } } }`,
    { names },
  );
  return new Map(data.domains.edges.map((e) => [e.node.canonical!.name.interpreted, e.node]));
}

/** What the manifest expects an ENSv2 domain's answer to hold. */
function expected(f: Ensv2NameFacts) {
  // The peer's id (enssdk makeENSv2DomainId): chain, registry, and the token id with its 32 version bits cleared, in
  // decimal.
  const storageId = (BigInt(f.tokenId) >> 32n) << 32n;
  return {
    id: `${env.devnet.manifest.ensv2!.chainId}-${lower(f.registry)}-${storageId}`,
    __typename: "ENSv2Domain",
    canonical: f.name,
    depth: f.name.split(".").length,
    registry: lower(f.registry),
    owner: f.status === "registered" ? lower(f.owner) : null,
    expiry: String(f.expiry),
    tokenId: f.tokenId,
    resolver: lower(f.resolver),
    subregistry: lower(f.subregistry),
  };
}

function actual(d: DomainAnswer, f: Ensv2NameFacts) {
  return {
    id: d.id,
    __typename: d.__typename,
    canonical: d.canonical?.name.interpreted,
    depth: d.canonical?.depth,
    registry: d.registry.contract.address,
    // The holder of an expired name's token is still the holder; the manifest gives none once it is past expiry.
    owner: f.status === "registered" ? (d.owner?.address ?? null) : null,
    expiry: d.registration?.expiry,
    tokenId: d.tokenId,
    resolver: d.resolver.assigned?.contract.address ?? null,
    subregistry: d.subregistry?.contract.address ?? null,
  };
}

describe("/api/omnigraph answers the devnet's ENSv2 names as the manifest expects", () => {
  it("lists every ENSv2 name (version: ENSv2) with its canonical name, registry, owner, expiry, token, resolver, subregistry", async () => {
    const found = await ensv2Domains(v2.names.map((f) => f.name));
    expect([...found.keys()].sort()).toEqual(v2.names.map((f) => f.name).sort());
    for (const f of v2.names) {
      const d = found.get(f.name)!;
      expect(actual(d, f), f.name).toEqual(expected(f));
      expect(d.registry.__typename, f.name).toBe("ENSv2Registry");
      // The canonical path runs from the top-level name down to this one, one domain per label.
      expect(d.canonical!.path.length, `${f.name}: path`).toBe(f.name.split(".").length);
      expect(d.canonical!.path.at(-1)!.id, `${f.name}: path ends with the domain`).toBe(d.id);
    }
    const kinds = new Set(v2.names.map((f) => f.via));
    for (const via of ["registrar", "reserved", "subname", "migrated-unwrapped"] as const)
      expect(kinds.has(via), via).toBe(true);
    expect(
      v2.names.some((f) => f.labels.length >= 4),
      "subnames three levels under .eth",
    ).toBe(true);
    expect(
      v2.names.some((f) => f.regenerations > 0),
      "a regenerated token",
    ).toBe(true);
  });

  it("domain(by: { name }) gives the ENSv2 domain of a registered name, and a reservation's ENSv2 registration kind", async () => {
    for (const f of v2.names) {
      const data = await omnigraph<{ domain: DomainAnswer | null }>(
        `query($name: InterpretedName!) { domain(by: { name: $name }) { ${DOMAIN_FIELDS} } }`,
        { name: f.name },
      );
      const d = data.domain;
      expect(d, f.name).not.toBeNull();
      if (f.status === "registered") {
        expect(actual(d!, f), f.name).toEqual(expected(f));
        expect(d!.registration?.__typename, f.name).toBe("ENSv2RegistryRegistration");
        // The registrant is the owner the registration named; the token may have moved since (safeTransferFrom).
        expect(d!.registration?.registrant?.address, f.name).toMatch(/^0x[0-9a-f]{40}$/);
      }
      if (f.status === "reserved") {
        // A reserved name resolves through ENSv1 while it is there (docs/api.md): its ENSv1 domain when indexed.
        expect(["ENSv1Domain", "ENSv2Domain"], f.name).toContain(d!.__typename);
        if (d!.__typename === "ENSv2Domain") expect(d!.registration?.__typename).toBe("ENSv2RegistryReservation");
      }
    }
  });

  it("a migrated ENSv1 name: both versions listed without `version`, the ENSv2 one by name", async () => {
    const migrated = v2.names.filter((f) => f.via.startsWith("migrated") && f.status === "registered");
    expect(migrated.length).toBeGreaterThan(0);
    for (const f of migrated) {
      const data = await omnigraph<{ domains: { totalCount: number; edges: { node: { __typename: string } }[] } }>(
        `query($name: InterpretedName!) { domains(where: { name: { eq: $name } }) { totalCount edges { node { __typename } } } }`,
        { name: f.name },
      );
      expect(data.domains.edges.map((e) => e.node.__typename).sort(), f.name).toEqual(["ENSv1Domain", "ENSv2Domain"]);
      expect(data.domains.totalCount, f.name).toBe(2);
      const byName = await omnigraph<{ domain: { __typename: string } }>(
        `query($name: InterpretedName!) { domain(by: { name: $name }) { __typename } }`,
        { name: f.name },
      );
      expect(byName.domain.__typename, f.name).toBe("ENSv2Domain");
    }
  });

  it("the tree: root is the ENSv2 root registry; each registry's canonical domain, the re-parented one included", async () => {
    const root = v2.registries.find((r) => r.kind === "root")!;
    const data = await omnigraph<{ root: { __typename: string; contract: { address: string }; canonical: boolean } }>(
      "{ root { __typename contract { address } canonical } }",
    );
    expect(data.root).toEqual({
      __typename: "ENSv2Registry",
      contract: { address: lower(root.address) },
      canonical: true,
    });
    const chainId = env.devnet.manifest.ensv2!.chainId;
    for (const r of v2.registries) {
      const answer = await omnigraph<{
        registry: {
          __typename: string;
          canonical: boolean;
          parents: { edges: { node: { canonical: { name: { interpreted: string } } | null } }[] };
          domains: { totalCount: number; edges: { node: { canonical: { name: { interpreted: string } } | null } }[] };
        } | null;
      }>(
        `query($c: AccountIdInput!) { registry(by: { contract: $c }) { __typename canonical
          parents { edges { node { canonical { name { interpreted } } } } }
          domains(first: 100) { totalCount edges { node { canonical { name { interpreted } } } } } } }`,
        { c: { chainId, address: r.address } },
      );
      const reg = answer.registry!;
      expect(reg.__typename, r.address).toBe("ENSv2Registry");
      expect(reg.canonical, r.address).toBe(true);
      if (r.kind !== "root") {
        // One of the domains linking it carries the registry's canonical name.
        expect(
          reg.parents.edges.map((e) => e.node.canonical?.name.interpreted),
          `${r.address} parents`,
        ).toContain(r.name);
      }
      const childNames = reg.domains.edges.map((e) => e.node.canonical?.name.interpreted).filter(Boolean);
      const expectedChildren = v2.names.filter((f) => lower(f.registry) === lower(r.address)).map((f) => f.name);
      for (const name of expectedChildren) expect(childNames, `${r.address} domains`).toContain(name);
    }
  });

  it("subdomains of an ENSv2 domain are the domains of its subregistry", async () => {
    const parent = v2.names.find(
      (f) => f.subregistry && v2.names.some((c) => lower(c.registry) === lower(f.subregistry)),
    )!;
    const data = await omnigraph<{
      domain: { subdomains: { edges: { node: { canonical: { name: { interpreted: string } } } }[] } };
    }>(
      `query($name: InterpretedName!) { domain(by: { name: $name }) { subdomains(first: 100) { edges { node { canonical { name { interpreted } } } } } } }`,
      { name: parent.name },
    );
    expect(data.domain.subdomains.edges.map((e) => e.node.canonical.name.interpreted).sort()).toEqual(
      v2.names
        .filter((c) => lower(c.registry) === lower(parent.subregistry))
        .map((c) => c.name)
        .sort(),
    );
  });

  it("permissions: every non-zero role entry of ensv2_permission, through Account.permissions and Domain.permissions", async () => {
    const db = new pg.Client({ connectionString: indexer.env.DATABASE_URL });
    await db.connect();
    let rows: { contract: string; resource: string; account: string; roles: string; domain_id: string | null }[];
    try {
      rows = (
        await db.query(
          `SELECT contract, resource, account, roles::text AS roles, domain_id FROM "${indexer.schema}"."ensv2_permission" WHERE roles <> 0`,
        )
      ).rows;
    } finally {
      await db.end();
    }
    expect(rows.length).toBeGreaterThan(0);
    const accounts = [...new Set(rows.map((r) => r.account))];
    for (const account of accounts) {
      const data = await omnigraph<{
        account: {
          permissions: {
            totalCount: number;
            edges: { node: { contract: { address: string }; resource: string; roles: string } }[];
          };
        };
      }>(
        `query($a: Address!) { account(by: { address: $a }) { permissions(first: 100) { totalCount edges { node { contract { address } resource roles } } } } }`,
        { a: account },
      );
      const got = data.account.permissions.edges
        .map((e) => `${e.node.contract.address} ${BigInt(e.node.resource)} ${e.node.roles}`)
        .sort();
      const want = rows
        .filter((r) => r.account === account)
        .map((r) => `${r.contract} ${BigInt(r.resource)} ${r.roles}`)
        .sort();
      expect(got, account).toEqual(want);
      expect(data.account.permissions.totalCount, account).toBe(want.length);
    }
    // The scenario's grants that stand at the end (last change per contract, resource and account is a grant) show.
    const granted = v2.roleChanges.filter((c) => c.grant && c.on !== "root");
    for (const change of granted) {
      const name = v2.names.find((f) => f.tokenId !== undefined && lower(f.registry) === lower(change.contract));
      if (!name) continue;
      const stillHeld = rows.some((r) => r.account === lower(change.account) && r.contract === lower(change.contract));
      expect(stillHeld || !change.grant, `${change.account} on ${change.contract}`).toBe(true);
    }
    const withDomain = rows.filter((r) => r.domain_id !== null);
    for (const r of withDomain) {
      const data = await omnigraph<{
        domain: { permissions: { edges: { node: { user: { address: string }; roles: string } }[] } } | null;
      }>(
        `query($id: DomainId!, $u: Address!) { domain(by: { id: $id }) { ... on ENSv2Domain { permissions(where: { user: { eq: $u } }) { edges { node { user { address } roles } } } } } }`,
        { id: r.domain_id, u: r.account },
      );
      expect(
        data.domain?.permissions.edges.map((e) => [e.node.user.address, e.node.roles]),
        r.domain_id!,
      ).toEqual([[r.account, r.roles]]);
    }
  });

  it("agrees with /api/name-tokens (current token and holder) and /api/registrar-actions (registrations)", async () => {
    const regenerated = v2.names.filter((f) => f.regenerations > 0 && f.status === "registered");
    expect(regenerated.length).toBeGreaterThan(0);
    const found = await ensv2Domains(regenerated.map((f) => f.name));
    for (const f of regenerated) {
      const res = await fetch(`${indexer.url}/api/name-tokens?name=${encodeURIComponent(f.name)}`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as {
        registeredNameTokens: {
          expiresAt: number;
          tokens: {
            token: { contract: { address: string }; tokenId: string };
            ownership: { owner: { address: string } };
            mintStatus: string;
          }[];
        };
      };
      const minted = body.registeredNameTokens.tokens.filter(
        (t) => t.mintStatus === "minted" && t.token.contract.address === lower(f.registry),
      );
      const d = found.get(f.name)!;
      expect(
        minted.map((t) => [BigInt(t.token.tokenId).toString(), t.ownership.owner.address]),
        f.name,
      ).toEqual([[d.tokenId, d.owner!.address]]);
      expect(String(body.registeredNameTokens.expiresAt), f.name).toBe(d.registration!.expiry);
    }
    const res = await fetch(`${indexer.url}/api/registrar-actions/${namehash("eth")}?limit=100`);
    expect(res.status).toBe(200);
    const actions = (
      (await res.json()) as { registrarActions: { name: string; action: { type: string; eventIds: string[] } }[] }
    ).registrarActions.filter((a) => a.action.type === "registration");
    expect(actions.length).toBeGreaterThan(0);
    for (const { name, action } of actions) {
      type Registration = { id: string; event: { id: string }; registrar: { address: string } };
      const data = await omnigraph<{
        domains: { edges: { node: { id: string; registrations: { edges: { node: Registration }[] } } }[] };
      }>(
        `query($name: InterpretedName!) { domains(where: { name: { eq: $name }, version: ENSv2 }) { edges { node { id registrations { edges { node { id event { id } registrar { address } } } } } } } }`,
        { name },
      );
      const [domain] = data.domains.edges.map((e) => e.node);
      const registrations = domain!.registrations.edges.map((r) => r.node);
      const registration = registrations.find((r) => r.event.id === action.eventIds[0]);
      expect(registration, `${name}: registration ${action.eventIds[0]}`).toBeDefined();
      // The peer's id: `<domainId>-<index>`, the domain's registrations numbered from 0 (the list is newest first).
      expect(registration!.id, name).toBe(
        `${domain!.id}-${registrations.length - 1 - registrations.indexOf(registration!)}`,
      );
      expect(registration!.registrar.address, name).toBe(
        lower(env.devnet.manifest.ensv2!.contracts.ETHRegistrar!.address as Address),
      );
    }
    expect(now).toBeGreaterThan(0);
  });

  it("docs/api.md's ENSv2 example answers a registered ENSv2 name with its roles", async () => {
    const docs = readFileSync(join(import.meta.dirname, "..", "..", "docs", "api.md"), "utf8");
    const section = docs.slice(docs.indexOf("## /api/omnigraph"), docs.indexOf("## Limits and errors of every route"));
    const example = [...section.matchAll(/```graphql\n([\s\S]*?)```/g)].map((m) => m[1]!)[3]!;
    const f = v2.names.find((n) => n.status === "registered" && n.subregistry && n.via === "registrar")!;
    const data = await omnigraph(example, { name: f.name });
    expect(data.domain.__typename).toBe("ENSv2Domain");
    expect(data.domain.canonical.name.interpreted).toBe(f.name);
    expect(data.domain.subregistry.contract.address).toBe(lower(f.subregistry));
    expect(data.domain.registration.expiry).toBe(String(f.expiry));
    expect(data.domain.permissions.edges.length).toBeGreaterThan(0);
  });

  it.skipIf(skipWithoutPeerOmnigraph("the cookbook on the ENSv2 devnet"))(
    "runs the peer's cookbook unchanged with ENSv2 variables (root is ENSv2's), without GraphQL errors",
    async () => {
      const f = v2.names.find((n) => n.status === "registered" && n.via === "registrar" && n.subregistry)!;
      const eth = v2.registries.find((r) => r.kind === "eth")!;
      const chainId = env.devnet.manifest.ensv2!.chainId;
      const value = (key: string, v: unknown): unknown => {
        if (key === "name") return typeof v === "string" ? f.name : { starts_with: f.labels[0]!.slice(0, 3) };
        if (key === "address") return lower(f.owner);
        if (key === "registry" || key === "contract") return { chainId, address: lower(eth.address) };
        return v;
      };
      for (const example of peerCookbook()) {
        const variables = Object.fromEntries(Object.entries(example.variables).map(([k, v]) => [k, value(k, v)]));
        const data = await omnigraph(example.query, variables);
        expect(data, example.id).toBeTruthy();
      }
    },
    120_000,
  );

  it("an ENSv2 domain's events are its registry's logs about it, read back from the chain", async () => {
    const db = new pg.Client({ connectionString: indexer.env.DATABASE_URL });
    await db.connect();
    let counts: { domain_id: string; n: number; contract: string }[];
    try {
      counts = (
        await db.query(
          `SELECT d.domain_id, count(*)::int AS n, min(e.contract) AS contract FROM "${indexer.schema}"."ensv2_domain_event" d JOIN "${indexer.schema}"."ensv2_event" e ON e.id = d.event_id GROUP BY d.domain_id ORDER BY n DESC LIMIT 3`,
        )
      ).rows;
    } finally {
      await db.end();
    }
    expect(counts.length).toBeGreaterThan(0);
    for (const c of counts) {
      const data = await omnigraph<{
        domain: {
          events: { totalCount: number; edges: { node: { address: string; topics: string[]; blockNumber: string } }[] };
        };
      }>(
        `query($id: DomainId!) { domain(by: { id: $id }) { events(first: 100) { totalCount edges { node { address topics blockNumber } } } } }`,
        { id: c.domain_id },
      );
      expect(data.domain.events.totalCount, c.domain_id).toBe(c.n);
      expect(data.domain.events.edges.length, c.domain_id).toBe(c.n);
      for (const e of data.domain.events.edges) expect(e.node.topics.length, c.domain_id).toBeGreaterThan(0);
      const blocks = data.domain.events.edges.map((e) => BigInt(e.node.blockNumber));
      expect(blocks, "oldest first").toEqual([...blocks].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    }
  });

  it("Permissions.events and PermissionsUser.events are the contract's and the entry's EACRolesChanged", async () => {
    const db = new pg.Client({ connectionString: indexer.env.DATABASE_URL });
    await db.connect();
    let changes: { chain_id: number; contract: string; resource: string; account: string; new_roles: string }[];
    try {
      changes = (
        await db.query(
          `SELECT chain_id, contract, resource, account, new_roles::text AS new_roles FROM "${indexer.schema}"."ensv2_permission_change" ORDER BY block_number, log_index`,
        )
      ).rows;
    } finally {
      await db.end();
    }
    expect(changes.length).toBeGreaterThan(0);
    const entry = (x: (typeof changes)[number]) => `${x.contract} ${x.resource} ${x.account}`;
    // The newest change that left its entry with roles (an entry whose roles were all revoked is not listed).
    const lastOfEntry = new Map(changes.map((x) => [entry(x), x]));
    const c = [...lastOfEntry.values()].filter((x) => x.new_roles !== "0").at(-1)!;
    const ofContract = changes.filter((x) => x.contract === c.contract).length;
    const ofEntry = changes.filter(
      (x) => x.contract === c.contract && x.resource === c.resource && x.account === c.account,
    ).length;
    const data = await omnigraph<{
      permissions: {
        events: { totalCount: number };
        resources: {
          edges: {
            node: {
              resource: string;
              users: {
                edges: {
                  node: {
                    user: { address: string };
                    events: { totalCount: number; edges: { node: { topics: string[] } }[] };
                  };
                }[];
              };
            };
          }[];
        };
      } | null;
    }>(
      `query($c: AccountIdInput!) { permissions(by: { contract: $c }) { events(first: 1) { totalCount }
        resources(first: 20) { edges { node { resource users(first: 10) { edges { node { user { address } events(first: 20) { totalCount edges { node { topics } } } } } } } } } } }`,
      { c: { chainId: c.chain_id, address: c.contract } },
    );
    expect(data.permissions?.events.totalCount).toBe(ofContract);
    const user = data
      .permissions!.resources.edges.filter((e) => BigInt(e.node.resource) === BigInt(c.resource))
      .flatMap((e) => e.node.users.edges)
      .find((e) => e.node.user.address === c.account);
    expect(user, `${c.account} on ${c.contract}`).toBeDefined();
    if (user) {
      expect(user.node.events.totalCount).toBe(ofEntry);
      // EACRolesChanged(uint256 indexed resource, address indexed account, …): the selector and two indexed topics.
      expect(user.node.events.edges.every((e) => e.node.topics.length === 3)).toBe(true);
    }
  });
});
