import pg from "pg";
import { type Address, concat, createPublicClient, type Hex, http, keccak256, stringToBytes, zeroAddress } from "viem";
import { BaseRegistrarAbi, NameWrapperAbi, RegistryAbi, ResolverAbi } from "../../abis";
import { encodeLabelhash, isShowableLabel, type LabelMode } from "../../src/lib/labels";
import { GRACE_PERIOD_SECONDS, namehash, ROOT_NODE, ZERO_ADDRESS } from "../../src/lib/names";
import type { DevnetManifest } from "../../src/namespaces/devnet-manifest";

/*
 * Reads the subgraph tables Ponder wrote (PostgreSQL) and the devnet's contracts (eth_call), and compares them.
 * Used by test/e2e/subgraph-index.system.test.ts.
 */

export interface DomainRow {
  id: Hex;
  name: string | null;
  label_name: string | null;
  labelhash: Hex | null;
  parent_id: Hex | null;
  subdomain_count: number;
  resolver_id: string | null;
  resolved_address_id: string | null;
  ttl: string | null;
  is_migrated: boolean;
  owner_id: string;
  registrant_id: string | null;
  wrapped_owner_id: string | null;
  expiry_date: string | null;
}

export interface IndexSnapshot {
  domains: Map<Hex, DomainRow>;
  resolvers: Map<string, { id: string; address: Hex; addr_id: string | null; texts: string[] | null }>;
  registrations: Map<
    string,
    {
      id: string;
      domain_id: Hex;
      expiry_date: string;
      registrant_id: string;
      label_name: string | null;
      cost: string | null;
    }
  >;
  wrappedDomains: Map<Hex, { id: Hex; owner_id: string; fuses: number; expiry_date: string; name: string | null }>;
  /** Latest TextChanged value per `<resolverId>|<key>`. */
  latestTexts: Map<string, string | null>;
  eventCounts: Record<string, number>;
}

export const EVENT_TABLES = [
  "new_owner",
  "transfer",
  "new_resolver",
  "new_ttl",
  "name_registered",
  "name_renewed",
  "name_transferred",
  "name_wrapped",
  "name_unwrapped",
  "wrapped_transfer",
  "fuses_set",
  "expiry_extended",
  "addr_changed",
  "multicoin_addr_changed",
  "name_changed",
  "abi_changed",
  "pubkey_changed",
  "text_changed",
  "contenthash_changed",
  "interface_changed",
  "authorisation_changed",
  "version_changed",
];

export async function readIndex(connectionString: string, schema: string): Promise<IndexSnapshot> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const q = async <T>(sql: string) => (await client.query(sql)).rows as T[];
    const s = `"${schema}"`;
    const domains = await q<DomainRow>(`select * from ${s}.domain`);
    const resolvers = await q<IndexSnapshot["resolvers"] extends Map<string, infer V> ? V : never>(
      `select * from ${s}.resolver`,
    );
    const registrations = await q<IndexSnapshot["registrations"] extends Map<string, infer V> ? V : never>(
      `select * from ${s}.registration`,
    );
    const wrapped = await q<IndexSnapshot["wrappedDomains"] extends Map<Hex, infer V> ? V : never>(
      `select * from ${s}.wrapped_domain`,
    );
    const texts = await q<{ resolver_id: string; key: string; value: string | null }>(
      `select distinct on (resolver_id, key) resolver_id, key, value from ${s}.text_changed order by resolver_id, key, block_number desc, id desc`,
    );
    const eventCounts: Record<string, number> = {};
    for (const t of EVENT_TABLES)
      eventCounts[t] = Number((await q<{ n: string }>(`select count(*) as n from ${s}.${t}`))[0]!.n);
    return {
      domains: new Map(domains.map((d) => [d.id, d])),
      resolvers: new Map(resolvers.map((r) => [r.id, r])),
      registrations: new Map(registrations.map((r) => [r.id, r])),
      wrappedDomains: new Map(wrapped.map((w) => [w.id, w])),
      latestTexts: new Map(texts.map((t) => [`${t.resolver_id}|${t.key}`, t.value])),
      eventCounts,
    };
  } finally {
    await client.end();
  }
}

export interface ChainRecord {
  owner: string;
  resolver: string;
  ttl: bigint;
  wrappedOwner: string;
}

/** The registry's and NameWrapper's answers for every node, read at the chain's head (the scenario is over). */
export async function readChain(manifest: DevnetManifest, nodes: Hex[]) {
  const ds = manifest.datasources.ensroot!;
  const rpcUrl = manifest.chains[String(ds.chainId)]!.rpcUrl;
  const client = createPublicClient({ transport: http(rpcUrl) });
  const registry = ds.contracts.Registry!.address as Address;
  const wrapper = ds.contracts.NameWrapper!.address as Address;
  const baseRegistrar = ds.contracts.BaseRegistrar!.address as Address;
  const lower = (a: string) => a.toLowerCase();
  const records = new Map<Hex, ChainRecord>();
  await inBatches(nodes, 16, async (node) => {
    const [owner, resolver, ttl, wrappedOwner] = await Promise.all([
      client.readContract({ address: registry, abi: RegistryAbi, functionName: "owner", args: [node] }),
      client.readContract({ address: registry, abi: RegistryAbi, functionName: "resolver", args: [node] }),
      client.readContract({ address: registry, abi: RegistryAbi, functionName: "ttl", args: [node] }),
      client.readContract({ address: wrapper, abi: NameWrapperAbi, functionName: "ownerOf", args: [BigInt(node)] }),
    ]);
    records.set(node, { owner: lower(owner), resolver: lower(resolver), ttl, wrappedOwner: lower(wrappedOwner) });
  });
  return {
    records,
    async registrar(labelhash: Hex) {
      const id = BigInt(labelhash);
      const expires = await client.readContract({
        address: baseRegistrar,
        abi: BaseRegistrarAbi,
        functionName: "nameExpires",
        args: [id],
      });
      const owner = await client
        .readContract({ address: baseRegistrar, abi: BaseRegistrarAbi, functionName: "ownerOf", args: [id] })
        .catch(() => ZERO_ADDRESS);
      return { expires, owner: lower(owner) };
    },
    async addr(resolver: Address, node: Hex) {
      return lower(
        await client.readContract({ address: resolver, abi: ResolverAbi, functionName: "addr", args: [node] }),
      );
    },
    async text(resolver: Address, node: Hex, key: string) {
      return client.readContract({ address: resolver, abi: ResolverAbi, functionName: "text", args: [node, key] });
    },
  };
}

async function inBatches<T>(items: T[], size: number, fn: (item: T) => Promise<void>) {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(fn));
}

export interface Mismatch {
  node: Hex;
  name: string | null;
  field: string;
  indexed: unknown;
  chain: unknown;
}

/** owner, resolver and ttl of every indexed domain against the registry (the root's owner is set without an event). */
export function compareRegistry(index: IndexSnapshot, chain: Map<Hex, ChainRecord>): Mismatch[] {
  const out: Mismatch[] = [];
  for (const d of index.domains.values()) {
    const c = chain.get(d.id)!;
    const resolverAddress = d.resolver_id ? index.resolvers.get(d.resolver_id)?.address.toLowerCase() : ZERO_ADDRESS;
    const push = (field: string, indexed: unknown, onchain: unknown) => {
      if (indexed !== onchain) out.push({ node: d.id, name: d.name, field, indexed, chain: onchain });
    };
    if (d.id !== ROOT_NODE) push("owner", d.owner_id, c.owner);
    push("resolver", resolverAddress, c.resolver);
    push("ttl", BigInt(d.ttl ?? 0), c.ttl);
    push("wrappedOwner", d.wrapped_owner_id ?? ZERO_ADDRESS, c.wrappedOwner);
  }
  return out;
}

/**
 * What subdomainCount should be: the children (as the index knows them) that are not empty on chain — an owner, a
 * resolver, or non-empty children of their own.
 */
export function expectedSubdomainCounts(index: IndexSnapshot, chain: Map<Hex, ChainRecord>): Map<Hex, number> {
  const children = new Map<Hex, Hex[]>();
  for (const d of index.domains.values()) {
    if (d.parent_id) children.set(d.parent_id, [...(children.get(d.parent_id) ?? []), d.id]);
  }
  const counts = new Map<Hex, number>();
  const count = (id: Hex): number => {
    if (counts.has(id)) return counts.get(id)!;
    const n = (children.get(id) ?? []).filter((child) => {
      const c = chain.get(child)!;
      return c.owner !== ZERO_ADDRESS || c.resolver !== ZERO_ADDRESS || count(child) > 0;
    }).length;
    counts.set(id, n);
    return n;
  };
  for (const id of index.domains.keys()) count(id);
  return counts;
}

/**
 * `subdomainCount` by the default mode's rule (docs/api.md, "/subgraph: Domain.subdomainCount") from the chain alone,
 * for each of `nodes`: a node's children are the subnodes its registries' NewOwner logs name (eth_getLogs), and a
 * child counts when the registry's owner() or resolver() of it is not the zero address, or when a child of its own
 * counts.
 */
export async function chainSubdomainCounts(manifest: DevnetManifest, nodes: Hex[]): Promise<Map<Hex, number>> {
  const ds = manifest.datasources.ensroot!;
  const client = createPublicClient({ transport: http(manifest.chains[String(ds.chainId)]!.rpcUrl) });
  const registry = ds.contracts.Registry!.address as Address;
  const registries = [registry, ds.contracts.RegistryOld!.address as Address];
  const newOwner = RegistryAbi.find((e) => e.type === "event" && e.name === "NewOwner")!;
  const counts = new Map<Hex, number>();
  const count = async (node: Hex): Promise<number> => {
    const known = counts.get(node);
    if (known !== undefined) return known;
    const logs = await client.getLogs({ address: registries, event: newOwner, args: { node }, fromBlock: 0n });
    const children = [...new Set(logs.map((l) => keccak256(concat([node, l.args.label!]))))];
    let n = 0;
    for (const child of children) {
      const [owner, resolver] = await Promise.all([
        client.readContract({ address: registry, abi: RegistryAbi, functionName: "owner", args: [child] }),
        client.readContract({ address: registry, abi: RegistryAbi, functionName: "resolver", args: [child] }),
      ]);
      if (owner !== zeroAddress || resolver !== zeroAddress || (await count(child)) > 0) n++;
    }
    counts.set(node, n);
    return n;
  };
  for (const node of nodes) await count(node);
  return new Map(nodes.map((node) => [node, counts.get(node)!]));
}

export const labelhashOf = (label: string) => keccak256(stringToBytes(label));

/**
 * The labels a stored name may show for a scenario name: a label shows as itself when the mode can show it and the
 * indexer could know it (in the label set, or revealed by a controller or the NameWrapper), else encoded.
 */
export function allowedLabels(label: string, mode: LabelMode, healable: boolean): string[] {
  const encoded = encodeLabelhash(labelhashOf(label));
  if (!isShowableLabel(label, mode)) return [encoded];
  return healable ? [label] : [label, encoded];
}

export { GRACE_PERIOD_SECONDS, namehash, ZERO_ADDRESS };
