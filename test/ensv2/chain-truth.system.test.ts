import pg from "pg";
import { type Abi, type Address, createPublicClient, http, namehash, type PublicClient, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devnetAbis } from "../../devnet/src/contracts";
import { scenarioOf } from "../../devnet/src/index";
import type { Ensv2Scenario } from "../../devnet/src/scenario/ensv2-model";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { indexerOptionsFor, type RunningIndexer, settledStatus, startIndexer } from "../../harness/indexer-harness";
import { startRecordingRpc } from "../../harness/recording-rpc";
import { completedEvents, firstLinks, transferLogs } from "../support/ensv2-transfers";
import { checkRegistrationOrder, indexedOrderKeys } from "../support/registration-order";

/*
 * Chain truth for the ensv2 plugin: after the devnet's ENSv2 scenario, every name the index holds is read back from
 * its registry with eth_call (token id, holder, expiry, resolver, subregistry) and every role entry with
 * `roles(resource, account)`, and each must equal the index; then the index must hold the scenario's expected end
 * state (manifest `scenario.ensv2`), canonical names included.
 */

const SEED = 3;
const NAMES = 30;
const REGISTRY = devnetAbis().PermissionedRegistry;

interface DomainRow {
  id: string;
  registry: Address;
  storage_id: string;
  token_id: string;
  label: string | null;
  name: string | null;
  owner: Address | null;
  expiry: string;
  resolver: Address | null;
  subregistry: Address | null;
  status: "registered" | "reserved" | "unregistered";
}
interface PermissionRow {
  contract: Address;
  resource: string;
  account: Address;
  roles: string;
  domain_id: string | null;
}
interface RegistryRow {
  address: Address;
  canonical_name: string | null;
}

let env: DevnetWithLabels;
let indexer: RunningIndexer;
/** The indexer's RPC of the ENSv2 chain, recorded: what it asked for and the logs it got. */
let recorder: Awaited<ReturnType<typeof startRecordingRpc>>;
let client: PublicClient;
let v2: Ensv2Scenario;
let domains: DomainRow[];
let permissions: PermissionRow[];
let registries: RegistryRow[];
let now: bigint;

beforeAll(async () => {
  env = await startDevnetWithLabels({ seed: SEED, names: NAMES });
  const manifest = env.devnet.manifest;
  v2 = scenarioOf(manifest).ensv2;
  client = createPublicClient({
    transport: http(manifest.chains[String(manifest.ensv2!.chainId)]!.rpcUrl, { batch: { batchSize: 200 } }),
  });
  // 40 empty blocks take the scenario past Ponder's 30 unfinalized blocks, so its historical sync indexes all of it, as
  // it does a public chain's history (a registry's transfers before its link; test/reliability/reorg.system.test.ts
  // covers transfers at the head).
  await client.request({ method: "anvil_mine", params: ["0x28"] } as never);
  const chainId = manifest.ensv2!.chainId;
  recorder = await startRecordingRpc(manifest.chains[String(chainId)]!.rpcUrl, { keepLogs: true });
  indexer = await startIndexer(
    indexerOptionsFor(env, {
      plugins: ["ensv2"],
      database: "postgres",
      extraEnv: { [`RPC_URL_${chainId}`]: recorder.url },
    }),
  );
  await settledStatus(indexer, 3_000, 300_000);
  const db = new pg.Client({ connectionString: indexer.env.DATABASE_URL });
  await db.connect();
  try {
    const rows = async <T>(table: string) =>
      (await db.query(`SELECT * FROM "${indexer.schema}"."${table}"`)).rows as T[];
    [domains, permissions, registries] = [
      await rows("ensv2_domain"),
      await rows("ensv2_permission"),
      await rows("ensv2_registry"),
    ];
  } finally {
    await db.end();
  }
  now = (await client.getBlock()).timestamp;
}, 600_000);

afterAll(async () => {
  await indexer?.stop();
  await recorder?.close();
  await env?.stop();
});

/** The ERC-20s the devnet's registrar takes (MockUSDC, MockDAI), lowercase. */
const manifestTokens = () =>
  Object.fromEntries(
    ["MockUSDC", "MockDAI"].map((c) => [c, env.devnet.manifest.ensv2!.contracts[c]?.address?.toLowerCase()]),
  );
const read = <T>(address: Address, functionName: string, args: unknown[]) =>
  client.readContract({ address, abi: REGISTRY, functionName, args } as never) as Promise<T>;
const lower = (a: string) => a.toLowerCase();
/** What the registry's getters answer for a label: nothing past its expiry. */
const whileLive = (d: DomainRow, value: Address | null) => (BigInt(d.expiry) > now && value ? value : zeroAddress);

describe("ensv2 index against the chain (eth_call)", () => {
  it("every name's token id, holder, expiry, resolver and subregistry equal the registry's", async () => {
    expect(domains.length).toBeGreaterThan(0);
    let compared = 0;
    for (const d of domains) {
      const what = `${d.name ?? d.id}`;
      expect(d.label, `${what}: label`).not.toBeNull();
      const storageId = BigInt(d.storage_id);
      const tokenId = BigInt(d.token_id);
      const [chainTokenId, holder, expiry, resolver, subregistry] = await Promise.all([
        read<bigint>(d.registry, "getTokenId", [storageId]),
        read<Address>(d.registry, "latestOwnerOf", [tokenId]),
        read<bigint>(d.registry, "getExpiry", [storageId]),
        read<Address>(d.registry, "getResolver", [d.label]),
        read<Address>(d.registry, "getSubregistry", [d.label]),
      ]);
      expect(chainTokenId, `${what}: token id`).toBe(tokenId);
      expect(lower(holder), `${what}: latestOwnerOf`).toBe(d.owner ?? zeroAddress);
      expect(expiry, `${what}: expiry`).toBe(BigInt(d.expiry));
      expect(lower(resolver), `${what}: resolver`).toBe(whileLive(d, d.resolver));
      expect(lower(subregistry), `${what}: subregistry`).toBe(whileLive(d, d.subregistry));
      compared++;
    }
    let rolesEqual = 0;
    const registryAddresses = new Set(registries.map((r) => r.address));
    const indexedRoles = (contract: Address, resource: bigint, account: Address) =>
      BigInt(
        permissions.find((p) => p.contract === contract && BigInt(p.resource) === resource && p.account === account)
          ?.roles ?? 0n,
      );
    for (const p of permissions) {
      const resource = BigInt(p.resource);
      const roles = await read<bigint>(p.contract, "roles", [resource, p.account]);
      // A registry answers roles(anyId, …) for the name's current resource, which moves on once the name expires
      // (contracts-v2 PermissionedRegistry.getResource): compare with the index's entry of that resource.
      const current =
        resource !== 0n && registryAddresses.has(p.contract)
          ? await read<bigint>(p.contract, "getResource", [resource])
          : resource;
      expect(roles, `roles(${p.resource}, ${p.account}) on ${p.contract}`).toBe(
        indexedRoles(p.contract, current, p.account),
      );
      rolesEqual++;
    }
    console.log(`chain truth: ${compared} names, ${rolesEqual} role entries equal`);
  });

  it("lists only roles that roles() reads: none on a re-registered name's old resource, all of a regenerated name's", async () => {
    // Listed: the entries with a non-zero bitmap (the APIs leave the others out, docs/api.md).
    const listed = permissions.filter((p) => p.domain_id !== null && BigInt(p.roles) !== 0n);
    const domainOf = (p: PermissionRow) => domains.find((d) => d.id === p.domain_id)!;
    let equal = 0;
    for (const p of listed) {
      const d = domainOf(p);
      // Once a name expires, roles() reads its next resource (nothing granted there) while the index keeps the roles
      // the name had until its next registration: the comparison above maps those through getResource.
      if (BigInt(d.expiry) <= now) continue;
      const resource = BigInt(p.resource);
      const what = `${d.name}: ${p.account}'s roles on resource ${p.resource}`;
      expect(await read<bigint>(p.contract, "getResource", [resource]), `${what} (the name's current resource)`).toBe(
        resource,
      );
      expect(await read<bigint>(p.contract, "roles", [resource, p.account]), what).toBe(BigInt(p.roles));
      equal++;
    }

    // Re-registration: a name registered again once expired, by another account, moved to its next resource.
    const resourcesOf = (d: DomainRow) =>
      new Set(permissions.filter((p) => p.domain_id === d.id).map((p) => p.resource));
    const reRegistered = domains.filter((d) => resourcesOf(d).size > 1 && BigInt(d.expiry) > now);
    expect(reRegistered.length, "a re-registered name").toBeGreaterThan(0);
    let unlisted = 0;
    for (const d of reRegistered) {
      const current = await read<bigint>(d.registry, "getResource", [BigInt(d.token_id)]);
      for (const p of permissions.filter((x) => x.domain_id === d.id && BigInt(x.resource) !== current)) {
        const what = `${d.name}: ${p.account} on its old resource ${p.resource}`;
        expect(p.roles, what).toBe("0");
        if (p.account !== d.owner) {
          expect(await read<bigint>(d.registry, "roles", [BigInt(p.resource), p.account]), what).toBe(0n);
        }
        unlisted++;
      }
    }
    expect(unlisted).toBeGreaterThan(0);

    // Regeneration: every role change burns and re-mints the token; the resource, and the roles on it, stay. roles()
    // of every token id the name had equals what the index lists.
    const regenerated = v2.names.filter((n) => n.regenerations > 0);
    expect(regenerated.length, "a regenerated name").toBeGreaterThan(0);
    let regeneratedEqual = 0;
    for (const f of regenerated) {
      const d = domains.find((x) => x.registry === lower(f.registry) && x.label === f.labels[0])!;
      const tokenId = BigInt(d.token_id);
      const rows = permissions.filter((p) => p.domain_id === d.id);
      expect(
        rows.some((p) => BigInt(p.roles) !== 0n && p.account === d.owner),
        `${f.name}: its holder's roles`,
      ).toBe(true);
      for (let version = 0n; version <= (tokenId & 0xffffffffn); version++) {
        const anyId = ((tokenId >> 32n) << 32n) | version;
        for (const p of rows) {
          expect(
            await read<bigint>(d.registry, "roles", [anyId, p.account]),
            `${f.name} v${version}: ${p.account}`,
          ).toBe(BigInt(p.roles));
          regeneratedEqual++;
        }
      }
    }
    console.log(
      `chain truth: ${equal} listed name roles equal roles(); re-registered ${reRegistered.map((d) => d.name).join(", ")}: ${unlisted} ${unlisted === 1 ? "entry" : "entries"} on its old resource unlisted; regenerated ${regenerated.map((f) => f.name).join(", ")}: ${regeneratedEqual} roles() reads by every token id equal`,
    );
  });

  it("covers the names migrated through the LockedMigrationController and their WrapperRegistries", async () => {
    const wrappers = new Set(v2.registries.filter((r) => r.kind === "wrapper").map((r) => r.address));
    expect(wrappers.size).toBeGreaterThan(0);
    // Each WrapperRegistry is a registry of the index, whose kind the chain confirms (it answers its wrapped node).
    for (const address of wrappers) {
      expect(
        registries.some((r) => r.address === address),
        address,
      ).toBe(true);
      expect(
        await client.readContract({ address, abi: devnetAbis().WrapperRegistry, functionName: "getWrappedNode" }),
        address,
      ).toBe(namehash(v2.registries.find((r) => r.address === address)!.name));
    }
    const inWrappers = domains.filter((d) => wrappers.has(d.registry));
    const lockedTwoLds = domains.filter((d) => d.subregistry !== null && wrappers.has(d.subregistry));
    expect(inWrappers.length).toBeGreaterThan(0);
    expect(lockedTwoLds.length).toBe(wrappers.size);
    // The roles migration granted (from the NameWrapper fuses): on each name's token and each WrapperRegistry's root,
    // the index's entry for the name's current resource holds what the registry answers.
    const migrated = v2.names.filter((f) => f.via === "migrated-locked" || f.via === "migrated-emancipated");
    let roles = 0;
    for (const f of migrated) {
      const onToken = v2.roleChanges.find((c) => c.contract === f.registry && c.on === f.labels[0] && c.grant);
      const onRoot = v2.roleChanges.find((c) => c.contract === f.subregistry && c.on === "root" && c.grant);
      for (const [change, resource] of [
        [onToken, await read<bigint>(f.registry, "getResource", [BigInt(f.tokenId)])],
        [onRoot, 0n],
      ] as const) {
        if (!change) continue;
        const row = permissions.find(
          (p) =>
            p.contract === lower(change.contract) &&
            BigInt(p.resource) === resource &&
            p.account === lower(change.account),
        );
        expect(row?.roles, `${f.name}: ${change.on} on ${change.contract}`).toBe(change.roles);
        roles++;
      }
    }
    expect(roles).toBe(migrated.length + migrated.filter((f) => f.subregistry).length);
    console.log(
      `chain truth: ${inWrappers.length} names in ${wrappers.size} WrapperRegistries, ${roles} migration role entries equal`,
    );
  });
});

describe("ensv2 index against the scenario's expected end state (manifest scenario.ensv2)", () => {
  const domainOf = (registry: Address, label: string) =>
    domains.find((d) => d.registry === lower(registry) && d.label === label);

  it("holds every name with its canonical name, registry, status, holder, expiry, token id, resolver and subregistry", () => {
    for (const f of v2.names) {
      const d = domainOf(f.registry, f.labels[0]!);
      expect(d, f.name).toBeDefined();
      const status = d!.status === "unregistered" || BigInt(d!.expiry) <= now ? "expired" : d!.status;
      expect(
        {
          name: d!.name,
          status,
          expiry: Number(d!.expiry),
          tokenId: BigInt(d!.token_id).toString(),
          resolver: d!.resolver ?? undefined,
          subregistry: d!.subregistry ?? undefined,
        },
        f.name,
      ).toEqual({
        name: f.name,
        status: f.status,
        expiry: f.expiry,
        tokenId: f.tokenId,
        resolver: f.resolver?.toLowerCase(),
        subregistry: f.subregistry?.toLowerCase(),
      });
      if (f.owner) expect(d!.owner, `${f.name}: owner`).toBe(lower(f.owner));
    }
    // Every name the index has from a registry reachable from the root is one the scenario expects (whose list
    // leaves out the root registry's own "eth").
    const named = domains
      .filter((d) => d.name !== null && d.name !== "eth")
      .map((d) => d.name)
      .sort();
    expect(named).toEqual(v2.names.map((f) => f.name).sort());
  });

  it("gives each registry of the tree the canonical name the scenario expects, the re-parented one included", () => {
    for (const r of v2.registries) {
      const row = registries.find((x) => x.address === lower(r.address));
      expect(row?.canonical_name, `registry ${r.address} (${r.kind})`).toBe(r.name);
    }
  });

  it("holds every role the scenario granted, and a zero bitmap for every one it revoked", () => {
    for (const change of v2.roleChanges) {
      const rows = permissions.filter(
        (p) => p.contract === lower(change.contract) && p.account === lower(change.account),
      );
      expect(rows.length, `${change.on} ${change.account} on ${change.contract}`).toBeGreaterThan(0);
    }
  });
});

describe("ENSv2 names in the other APIs", () => {
  it("/api/name-tokens lists every token id of a regenerated ENSv2 name: the old ones burned, the current one held", async () => {
    const f = v2.names.find((n) => n.regenerations > 0)!;
    const res = await fetch(`${indexer.url}/api/name-tokens?name=${encodeURIComponent(f.name)}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      registeredNameTokens: {
        name: string;
        expiresAt: number;
        tokens: {
          token: { contract: { address: string }; tokenId: string };
          ownership: { owner: { address: string } };
          mintStatus: string;
        }[];
      };
    };
    const found = body.registeredNameTokens;
    expect([found.name, found.expiresAt]).toEqual([f.name, f.expiry]);
    const current = BigInt(f.tokenId);
    const ofRegistry = found.tokens.filter((t) => t.token.contract.address === lower(f.registry));
    const byId = new Map(ofRegistry.map((t) => [BigInt(t.token.tokenId), t]));
    for (let version = 0n; version < (current & 0xffffffffn); version++) {
      expect(byId.get(((current >> 32n) << 32n) | version)?.mintStatus, `version ${version}`).toBe("burned");
    }
    expect([byId.get(current)?.mintStatus, byId.get(current)?.ownership.owner.address]).toEqual([
      "minted",
      lower(f.owner!),
    ]);
  });

  it("/api/registrar-actions lists the ENSv2 registrar's registrations and renewals, priced in their ERC-20", async () => {
    const registered = v2.eventCounts["ETHRegistrar:NameRegistered"]!;
    const renewed = v2.eventCounts["ETHRegistrar:NameRenewed"]!;
    const res = await fetch(`${indexer.url}/api/registrar-actions/${namehash("eth")}?limit=100`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      pageContext: { totalRecords: number };
      registrarActions: {
        name: string;
        action: {
          type: string;
          eventIds: string[];
          incrementalDuration: number;
          pricing: { total: { currency: string; token: { address: string }; amount: string } };
        };
      }[];
    };
    // This index runs the ensv2 plugin alone: every action is an ENSv2 one.
    expect(body.pageContext.totalRecords).toBe(registered + renewed);
    const actions = body.registrarActions;
    expect(actions.filter((a) => a.action.type === "registration").length).toBe(registered);
    const names = new Set(v2.names.map((n) => n.name));
    for (const { name, action } of actions) {
      expect(names.has(name) || action.type === "renewal", name).toBe(true);
      expect(action.pricing.total.currency, name).toBe("ERC20");
      expect(Object.values(manifestTokens()).includes(action.pricing.total.token.address), name).toBe(true);
      expect(BigInt(action.pricing.total.amount) > 0n, name).toBe(true);
      expect(action.incrementalDuration, name).toBeGreaterThan(0);
      // A registration is the registry's LabelRegistered and the registrar's NameRegistered.
      expect(action.eventIds.length, name).toBe(action.type === "registration" ? 2 : 1);
    }
  });
});

describe("ensv2 registration order", () => {
  it("pages every registry's domains by registration start and expiry as their registrations show; the index's keys are theirs", async () => {
    const { keys, lists } = await indexedOrderKeys(indexer.env.DATABASE_URL!, indexer.schema, "ensv2_domain");
    const PAGE = 3;
    const query = `query($id: RegistryId!, $by: DomainsOrderBy!, $dir: OrderDirection!, $after: String) {
      registry(by: { id: $id }) { domains(first: ${PAGE}, after: $after, order: { by: $by, dir: $dir }) {
        pageInfo { endCursor hasNextPage } edges { node { id registration { __typename start expiry } } }
      } }
    }`;
    let paged = 0;
    const kinds = new Set<string>();
    for (const [registry, count] of lists) {
      const seen = await checkRegistrationOrder(
        {
          label: `domains of ${registry}`,
          page: async (by, dir, after) => {
            const res = await fetch(`${indexer.url}/api/omnigraph`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ query, variables: { id: registry, by, dir, after } }),
            });
            const body = (await res.json()) as { data?: any; errors?: unknown };
            expect(res.status).toBe(200);
            expect(body.errors).toBeUndefined();
            const c = body.data.registry.domains;
            return { nodes: c.edges.map((e: any) => e.node), ...c.pageInfo };
          },
        },
        keys,
        PAGE,
      );
      expect(seen.length, `domains of ${registry}`).toBe(count);
      for (const d of seen) kinds.add(d.registration?.__typename ?? "none");
      paged += seen.length;
    }
    expect(paged).toBe(domains.length);
    expect([...kinds].sort()).toEqual(expect.arrayContaining(["ENSv2RegistryRegistration"]));
  });
});

describe("ENSv2 registries' transfers: from the tree only, a registry's earlier ones included", () => {
  const query = async <T>(sql: string, params: unknown[] = []): Promise<T[]> => {
    const db = new pg.Client({ connectionString: indexer.env.DATABASE_URL });
    await db.connect();
    try {
      return (await db.query(sql, params)).rows as T[];
    } finally {
      await db.end();
    }
  };

  it("indexes the names, holders, tokens and transfer events of a registry used before it was linked as the chain has them", async () => {
    const early = v2.registries.find((r) => r.usedBeforeLink)!;
    const address = lower(early.address) as Address;
    const link = (await firstLinks(client)).get(address)!;
    const logs = await transferLogs(client, [address]);
    const beforeLink = logs.filter(
      (l) => l.blockNumber < link.block || (l.blockNumber === link.block && l.logIndex < link.logIndex),
    );
    // The scenario's case: transfers in blocks before the link, one in the link's own block before it, one after.
    expect(beforeLink.filter((l) => l.blockNumber < link.block).length).toBeGreaterThan(0);
    expect(beforeLink.filter((l) => l.blockNumber === link.block).length).toBeGreaterThan(0);
    expect(logs.length).toBeGreaterThan(beforeLink.length);

    const names = domains.filter((d) => d.registry === address);
    expect(names.map((d) => d.name).sort()).toEqual(
      v2.names
        .filter((f) => lower(f.registry) === address)
        .map((f) => f.name)
        .sort(),
    );
    expect(names.length).toBe(3);
    for (const d of names) {
      const holder = await read<Address>(address, "latestOwnerOf", [BigInt(d.token_id)]);
      expect(d.owner, `${d.name}: holder`).toBe(lower(holder));
    }

    // Every token's holder is the last `to` the chain's transfers gave it.
    const lastTo = new Map<string, string>();
    for (const l of logs) {
      for (const id of l.args.ids ?? [l.args.id!]) lastTo.set(id.toString(), lower(l.args.to));
    }
    const tokens = await query<{ token_id: string; owner: string }>(
      `SELECT token_id, owner FROM "${indexer.schema}".ensv2_token WHERE contract = $1`,
      [address],
    );
    expect(new Map(tokens.map((t) => [BigInt(t.token_id).toString(), t.owner]))).toEqual(lastTo);

    // Each transfer is an event of the index, with its log's facts, as if Ponder had delivered it.
    const events = await query<{
      block_number: string;
      log_index: number;
      event_name: string;
      transaction_hash: string;
    }>(
      `SELECT e.block_number, e.log_index, e.event_name, '0x' || encode(l.transaction_hash, 'hex') AS transaction_hash FROM "${indexer.schema}".ensv2_event e
       JOIN "${indexer.schema}".indexed_log l ON l.chain_id = e.chain_id AND l.block_number = e.block_number AND l.log_index = e.log_index
       WHERE e.contract = $1 AND e.event_name LIKE 'Transfer%' ORDER BY e.block_number, e.log_index`,
      [address],
    );
    expect(events.map((e) => [BigInt(e.block_number), e.log_index, e.event_name, e.transaction_hash])).toEqual(
      logs.map((l) => [l.blockNumber, l.logIndex, l.eventName, l.transactionHash]),
    );
    console.log(
      `ensv2 transfers: registry ${address} linked at block ${link.block}: ${beforeLink.length} of its ${logs.length} transfers fetched at the link, ${names.length} names equal`,
    );
  });

  it("fetches and handles no other contract's ERC-1155 transfers: sync rows and handler runs are the registries' own", async () => {
    const foreign = v2.foreignTransfers;
    const registryAddresses = v2.registries.map((r) => lower(r.address) as Address);
    const [registryLogs, foreignLogs, links] = await Promise.all([
      transferLogs(client, registryAddresses),
      transferLogs(client, [foreign.contract]),
      firstLinks(client),
    ]);
    // The chain carries what the manifest says: 100 foreign transfers for each of the registries'.
    expect(registryLogs.length).toBe(foreign.registryLogs);
    expect(foreignLogs.length).toBe(foreign.logs);
    expect(foreign.logs).toBe(100 * foreign.registryLogs);

    const [{ n: foreignRows }] = await query<{ n: number }>(
      "SELECT count(*)::int AS n FROM ponder_sync.logs WHERE address = $1",
      [foreign.contract],
    );
    const [{ n: registryRows }] = await query<{ n: number }>(
      "SELECT count(*)::int AS n FROM ponder_sync.logs WHERE address = ANY($1) AND topic0 = ANY($2)",
      [registryAddresses, [...new Set(registryLogs.map((l) => l.topics[0]!))]],
    );
    expect(foreignRows).toBe(0);
    // Nor did the RPC send any: every log eth_getLogs answered, by emitter.
    const answered = recorder.calls
      .filter((c) => c.method === "eth_getLogs" && Array.isArray(c.result))
      .flatMap((c) => c.result as { address: string; topics: `0x${string}`[] }[]);
    const foreignAnswered = answered.filter((l) => lower(l.address) === foreign.contract).length;
    const transferTopics = new Set(registryLogs.map((l) => l.topics[0]!));
    const transfersAnswered = answered.filter((l) => transferTopics.has(l.topics[0]!)).length;
    expect(answered.length).toBeGreaterThan(0);
    expect(foreignAnswered).toBe(0);
    expect(registryRows).toBeGreaterThan(0);
    expect(registryRows).toBeLessThanOrEqual(registryLogs.length);

    // Ponder hands the handlers the root's transfers and a linked registry's from the block of its first link on.
    const root = lower(v2.contracts.RootRegistry!);
    const delivered = registryLogs.filter((l) => {
      const emitter = lower(l.address);
      const link = links.get(emitter as Address);
      return emitter === root || (link !== undefined && l.blockNumber >= link.block);
    });
    const runs = await completedEvents(indexer.url);
    const transferRuns = [...runs].filter(([name]) => /^ensv2\/.*:Transfer(Single|Batch)$/.test(name));
    const total = transferRuns.reduce((sum, [, n]) => sum + n, 0);
    expect(transferRuns.length).toBeGreaterThan(0);
    expect(total).toBe(delivered.length);
    console.log(
      `ensv2 transfers: ${foreign.logs} foreign logs: ${foreignAnswered} in eth_getLogs answers, ${foreignRows} ponder_sync rows; registries' ${registryLogs.length}: ${transfersAnswered} in eth_getLogs answers, ${registryRows} rows, ${total} handler runs (${registryLogs.length - total} fetched at a link)`,
    );
  });
});
