import { readFileSync } from "node:fs";
import pg from "pg";
import {
  type Address,
  concat,
  createPublicClient,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  pad,
  toHex,
  zeroAddress,
} from "viem";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { BaseRegistrarAbi, NameWrapperAbi, RegistryAbi, ResolverAbi } from "../../abis";
import { dumpPglite } from "../../harness/canonical-dump";
import { mineAtLeast } from "../../harness/chain-clock";
import { type DevnetWithLabels, rpc, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { indexerOptionsFor, type RunningIndexer, startIndexer } from "../../harness/indexer-harness";
import { lastVersionOf } from "../../src/lib/entity-history/version";
import { namehash, ROOT_NODE } from "../../src/lib/names";
import type { DevnetManifest } from "../../src/namespaces/devnet-manifest";
import { reorgMetric, waitForHead } from "../reliability/support/follow-head";
import { ReorgDriver } from "../reliability/support/reorg-scenario";

/*
 * /subgraph at past blocks on the devnet (subgraph, basenames, lineanames on PostgreSQL), against the chains read at
 * those blocks: for a sample of the root chain's blocks, every domain the index shows at that block (owner, resolver,
 * TTL, wrapped owner, the .eth registration's expiry, the resolver's address record, subdomainCount by the documented
 * rule) equals eth_call at that block, and the set of domains is the set the registries' NewOwner logs created up to
 * it (the other chains' names by omnichain order: created in a block older than the root block). `_change_block`
 * holds every domain whose state changed since a block and nothing the logs since then did not touch.
 */

const ROOT = 31337;
const PLUGINS = ["subgraph", "basenames", "lineanames"];
const ETH_NODE = namehash("eth");

let env: DevnetWithLabels;
let manifest: DevnetManifest;
let indexer: RunningIndexer;
let root: PublicClient;
let head: number;

interface IndexedDomain {
  id: Hex;
  name: string | null;
  labelhash: Hex | null;
  parent: { id: Hex } | null;
  owner: { id: string };
  resolver: { address: string; addr: { id: string } | null } | null;
  ttl: string | null;
  subdomainCount: number;
  wrappedOwner: { id: string } | null;
  registration: { expiryDate: string } | null;
}

const DOMAIN_FIELDS = `id name labelhash parent { id } owner { id } resolver { address addr { id } } ttl subdomainCount
  wrappedOwner { id } registration { expiryDate }`;

async function subgraph<T>(query: string, variables: Record<string, unknown> = {}, url = indexer.url): Promise<T> {
  const res = await fetch(`${url}/subgraph`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data?: T; errors?: { message: string }[] };
  if (body.errors) throw new Error(body.errors.map((e) => e.message).join("; "));
  return body.data!;
}

/** Every domain at `block` (undefined: the head), a page of 1,000 at a time by id. */
async function domainsAt(
  block: number | undefined,
  where: Record<string, unknown> = {},
  url = indexer.url,
): Promise<IndexedDomain[]> {
  const out: IndexedDomain[] = [];
  let after = "";
  for (;;) {
    const { domains } = await subgraph<{ domains: IndexedDomain[] }>(
      `query($block: Block_height, $where: Domain_filter) {
        domains(first: 1000, orderBy: id, block: $block, where: $where) { ${DOMAIN_FIELDS} }
      }`,
      { block: block === undefined ? null : { number: block }, where: { ...where, id_gt: after } },
      url,
    );
    out.push(...domains);
    if (domains.length < 1000) return out;
    after = domains.at(-1)!.id;
  }
}

const contract = (datasource: keyof DevnetManifest["datasources"], name: string) =>
  manifest.datasources[datasource]!.contracts[name]!.address as Address;
const clientOf = (chainId: number) =>
  createPublicClient({ transport: http(manifest.chains[String(chainId)]!.rpcUrl) }) as PublicClient;

/**
 * The nodes a chain's registries created (NewOwner), and those its registrar registered before the registry knew them
 * (an L2 registrar's `NameRegistered` makes the domain, as the basenames scenario's bare registrations do), with the
 * block and its timestamp.
 */
async function createdNodes(
  client: PublicClient,
  registries: Address[],
  registrar?: { address: Address; node: Hex },
  toBlock?: bigint,
) {
  const newOwner = RegistryAbi.find((e) => e.type === "event" && e.name === "NewOwner")!;
  const registered = BaseRegistrarAbi.find((e) => e.type === "event" && e.name === "NameRegistered")!;
  const logs = [
    ...(await client.getLogs({ address: registries, event: newOwner, fromBlock: 0n, toBlock })).map((log) => ({
      log,
      node: keccak256(concat([log.args.node!, log.args.label!])),
      parent: log.args.node!,
    })),
    ...(registrar
      ? (await client.getLogs({ address: registrar.address, event: registered, fromBlock: 0n, toBlock })).map(
          (log) => ({
            log,
            node: keccak256(concat([registrar.node, pad(toHex(log.args.id!))])),
            parent: registrar.node,
          }),
        )
      : []),
  ];
  const times = new Map<bigint, bigint>();
  const out: { node: Hex; parent: Hex; block: bigint; timestamp: bigint }[] = [];
  for (const { log, node, parent } of logs) {
    if (!times.has(log.blockNumber)) {
      times.set(log.blockNumber, (await client.getBlock({ blockNumber: log.blockNumber })).timestamp);
    }
    out.push({ node, parent, block: log.blockNumber, timestamp: times.get(log.blockNumber)! });
  }
  return out;
}

/** The registry, NameWrapper, registrar and resolver answers for `node` at `blockNumber`. */
async function chainAt(node: Hex, labelhash: Hex | null, parent: Hex | null, blockNumber: bigint) {
  const at = { blockNumber };
  const registry = await registryAt(blockNumber);
  const read = <T>(p: Promise<T>, fallback: T) => p.catch(() => fallback);
  const [owner, resolver, ttl, wrappedOwner] = await Promise.all([
    root.readContract({ address: registry, abi: RegistryAbi, functionName: "owner", args: [node], ...at }),
    root.readContract({ address: registry, abi: RegistryAbi, functionName: "resolver", args: [node], ...at }),
    root.readContract({ address: registry, abi: RegistryAbi, functionName: "ttl", args: [node], ...at }),
    // Not deployed yet at an early block: nothing is wrapped.
    read(
      root.readContract({
        address: contract("ensroot", "NameWrapper"),
        abi: NameWrapperAbi,
        functionName: "ownerOf",
        args: [BigInt(node)],
        ...at,
      }),
      zeroAddress,
    ),
  ]);
  const expires =
    parent === ETH_NODE && labelhash
      ? await read(
          root.readContract({
            address: contract("ensroot", "BaseRegistrar"),
            abi: BaseRegistrarAbi,
            functionName: "nameExpires",
            args: [BigInt(labelhash)],
            ...at,
          }),
          0n,
        )
      : undefined;
  const addr =
    resolver !== zeroAddress
      ? await read(
          root.readContract({ address: resolver, abi: ResolverAbi, functionName: "addr", args: [node], ...at }),
          undefined,
        )
      : undefined;
  return {
    owner: owner.toLowerCase(),
    resolver: resolver.toLowerCase(),
    ttl,
    wrappedOwner: wrappedOwner.toLowerCase(),
    expires,
    addr: addr?.toLowerCase(),
  };
}

/** The registry with fallback, or the old registry before the newer one was deployed (it falls back to it later). */
async function registryAt(blockNumber: bigint): Promise<Address> {
  const registry = contract("ensroot", "Registry");
  const code = await root.getCode({ address: registry, blockNumber });
  return code && code !== "0x" ? registry : contract("ensroot", "RegistryOld");
}

/** subdomainCount by the default mode's rule, from the chain at `blockNumber` (subgraph-compare's, at a block). */
async function chainSubdomainCount(
  node: Hex,
  children: Map<Hex, Hex[]>,
  blockNumber: bigint,
  memo: Map<Hex, number>,
): Promise<number> {
  const known = memo.get(node);
  if (known !== undefined) return known;
  const registry = await registryAt(blockNumber);
  let n = 0;
  for (const child of children.get(node) ?? []) {
    const [owner, resolver] = await Promise.all([
      root.readContract({ address: registry, abi: RegistryAbi, functionName: "owner", args: [child], blockNumber }),
      root.readContract({ address: registry, abi: RegistryAbi, functionName: "resolver", args: [child], blockNumber }),
    ]);
    if (
      owner !== zeroAddress ||
      resolver !== zeroAddress ||
      (await chainSubdomainCount(child, children, blockNumber, memo)) > 0
    )
      n++;
  }
  memo.set(node, n);
  return n;
}

/** `use` on a connection to the full-history index's database, closed after. */
async function onIndexDatabase<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: indexer.env.DATABASE_URL });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** A failure's evidence: the history versions of `ids` (decoded: timestamp, chain, block) and their NewOwner logs. */
async function versionsOf(ids: Hex[], created: { node: Hex; block: bigint; timestamp: bigint }[]): Promise<string> {
  return onIndexDatabase(async (client) => {
    const { rows } = await client.query<{ id: string; version: string }>(
      `SELECT id, version::text AS version FROM "${indexer.schema}".domain_history WHERE id = ANY($1) ORDER BY id, version`,
      [ids],
    );
    const decode = (v: bigint) => {
      const base = v / 10n ** 12n;
      return `ts ${base / 10n ** 32n} chain ${(base / 10n ** 16n) % 10n ** 16n} block ${base % 10n ** 16n}`;
    };
    return ids
      .map((id) => {
        const versions = rows.filter((r) => r.id === id).map((r) => decode(BigInt(r.version)));
        const logs = created.filter((n) => n.node === id).map((n) => `block ${n.block} ts ${n.timestamp}`);
        return `${id}: versions [${versions.join("; ")}], NewOwner [${logs.join("; ")}]`;
      })
      .join(" | ");
  });
}

/**
 * Waits until the index at `url` shows the root chain's block `headBlock`. Omnichain ordering indexes a live root block
 * only once every other chain has a block at least as late, and the devnet's chains mine only when a test sends them
 * something: the other chains mine one block past the root block's time first.
 */
async function followRootHead(url: string, headBlock: { number: number; hash: string }, what: string): Promise<void> {
  const { timestamp } = await root.getBlock({ blockNumber: BigInt(headBlock.number) });
  for (const chainId of [31338, 31339]) {
    const rpcUrl = manifest.chains[String(chainId)]!.rpcUrl;
    const latest = await rpc<{ timestamp: Hex }>(rpcUrl, "eth_getBlockByNumber", ["latest", false]);
    await mineAtLeast(rpcUrl, Math.max(Number(latest.timestamp), Number(timestamp)) + 1);
  }
  await waitForHead(url, headBlock as never, what);
}

beforeAll(async () => {
  // Few transactions a block: the scenario spreads over many root blocks, each a state to compare.
  env = await startDevnetWithLabels({ seed: 21, names: 24, txsPerBlock: 4 });
  manifest = env.devnet.manifest;
  root = clientOf(ROOT);
  indexer = await startIndexer(indexerOptionsFor(env, { plugins: PLUGINS, database: "postgres" }));
  await indexer.process.ready();
  // /ready comes once the backfill reaches the finalized block; the chain's last blocks are indexed live after it.
  // Every test starts from the chain's head, so that no other index shares the database while those are indexed.
  const latest = await root.getBlock({ blockTag: "latest" });
  head = Number(latest.number);
  await followRootHead(indexer.url, { number: head, hash: latest.hash }, "the devnet's head").catch((error: Error) => {
    const log = readFileSync(indexer.logFile, "utf8").split("\n").slice(-40).join("\n");
    throw new Error(`${error.message}\nthe indexer's last log lines:\n${log}`);
  });
}, 600_000);

afterAll(async () => {
  await indexer?.stop();
  await env?.stop();
});

describe("/subgraph at past blocks", () => {
  it("shows at each sampled block the domains and values the chains had then", async () => {
    const rootNodes = await createdNodes(root, [contract("ensroot", "Registry"), contract("ensroot", "RegistryOld")]);
    const l2Nodes = [
      ...(await createdNodes(clientOf(31338), [contract("basenames", "Registry")], {
        address: contract("basenames", "BaseRegistrar"),
        node: namehash("base.eth"),
      })),
      ...(await createdNodes(clientOf(31339), [contract("lineanames", "Registry")], {
        address: contract("lineanames", "BaseRegistrar"),
        node: namehash("linea.eth"),
      })),
    ];
    // An L2 that creates its own name (`base.eth`) before the root chain does makes it, and `eth` as its placeholder
    // parent (l2-registry.ts): in omnichain order they exist from then on, whichever chain's row they are later.
    const managed = new Set<Hex>([namehash("base.eth"), namehash("linea.eth")]);
    const madeByL2 = (timestamp: bigint) =>
      l2Nodes.filter((n) => managed.has(n.node) && n.timestamp < timestamp).flatMap((n) => [n.node, ETH_NODE]);
    const rootSet = new Set<Hex>([ROOT_NODE, ...rootNodes.map((n) => n.node)]);
    const first = Number(rootNodes[0]!.block);
    expect(head - first, "the scenario spans many root blocks").toBeGreaterThan(20);
    const samples = [
      first - 1,
      first,
      ...[1, 2, 3, 4, 5].map((i) => first + Math.floor(((head - first) * i) / 6)),
      head,
    ];
    const lines: string[] = [];
    let compared = 0;
    // The indexer reads a table nothing changed in since the block from its live table; a replica told to read the
    // history always must answer the same (history.ts).
    const historyAlone = await indexer.startReplica({ SUBGRAPH_HISTORY_LIVE_TABLES: "false" });
    onTestFinished(() => historyAlone.stop());
    for (const b of samples) {
      const block = BigInt(b);
      const { timestamp } = await root.getBlock({ blockNumber: block });
      const domains = await domainsAt(b);
      expect(await domainsAt(b, {}, historyAlone.url), `block ${b}: the history alone`).toEqual(domains);
      // Pages in another order than the id, with a skip, and lists nested in a page.
      const ordered = `query($block: Block_height, $eth: String!) {
        registrations(first: 5, skip: 2, orderBy: registrationDate, orderDirection: desc, block: $block) {
          id registrationDate domain { id name owner { id } } registrant { id } }
        domains(first: 10, skip: 3, orderBy: createdAt, orderDirection: desc, where: { parent: $eth }, block: $block) {
          id name createdAt owner { id } resolver { id } subdomains(first: 2, orderBy: name) { id name } }
        accounts(first: 5, orderBy: id, block: $block) { id domains(first: 3, orderBy: name) { id name } }
      }`;
      const orderedVars = { block: { number: b }, eth: ETH_NODE };
      expect(await subgraph(ordered, orderedVars, historyAlone.url), `block ${b}: ordered pages`).toEqual(
        await subgraph(ordered, orderedVars),
      );
      const ids = new Set(domains.map((d) => d.id));
      // The set: the root chain's nodes created up to b, and the other chains' created in blocks older than b's.
      const expectedRoot = new Set<Hex>([ROOT_NODE, ...rootNodes.filter((n) => n.block <= block).map((n) => n.node)]);
      for (const node of madeByL2(timestamp)) if (rootSet.has(node)) expectedRoot.add(node);
      const expectedL2 = new Set(
        l2Nodes.filter((n) => n.timestamp < timestamp && !rootSet.has(n.node)).map((n) => n.node),
      );
      const rootShown = [...ids].filter((id) => rootSet.has(id));
      const l2Shown = [...ids].filter((id) => !rootSet.has(id));
      expect(new Set(rootShown), `root-chain domains at block ${b}`).toEqual(expectedRoot);
      const names = (list: Iterable<Hex>) => [...list].map((id) => domains.find((d) => d.id === id)?.name ?? id).sort();
      const unexpected = l2Shown.filter((id) => !expectedL2.has(id));
      const why = unexpected.length
        ? ` (root block ${b}: ts ${timestamp}; ${await versionsOf(unexpected, l2Nodes)})`
        : "";
      expect(names(l2Shown), `other chains' domains at root block ${b}${why}`).toEqual(names(expectedL2));

      const children = new Map<Hex, Hex[]>();
      for (const n of rootNodes.filter((n) => n.block <= block)) {
        const list = children.get(n.parent) ?? [];
        if (!list.includes(n.node)) list.push(n.node);
        children.set(n.parent, list);
      }
      const memo = new Map<Hex, number>();
      // Root-chain names an L2 made before the root chain did (a managed name, its placeholder `eth`): the index
      // counts them as their parent's subdomains from then on, while the root chain does not know them yet.
      const rootMade = new Set(rootNodes.filter((n) => n.block <= block).map((n) => n.node));
      const madeFirstByL2 = new Set(madeByL2(timestamp).filter((n) => rootSet.has(n) && !rootMade.has(n)));
      const mismatches: string[] = [];
      for (const d of domains.filter((d) => rootSet.has(d.id))) {
        const c = await chainAt(d.id, d.labelhash, d.parent?.id ?? null, block);
        const check = (field: string, indexed: unknown, chain: unknown) => {
          if (indexed !== chain) mismatches.push(`${b} ${d.name ?? d.id} ${field}: index ${indexed}, chain ${chain}`);
        };
        if (d.id !== ROOT_NODE) check("owner", d.owner.id, c.owner);
        check("resolver", d.resolver?.address.toLowerCase() ?? zeroAddress, c.resolver);
        check("ttl", BigInt(d.ttl ?? 0), c.ttl);
        check("wrappedOwner", d.wrappedOwner?.id ?? zeroAddress, c.wrappedOwner);
        if (c.expires !== undefined && c.expires > 0n) check("expiry", d.registration?.expiryDate, String(c.expires));
        if (c.addr !== undefined) check("addr", d.resolver?.addr?.id ?? zeroAddress, c.addr);
        // The other chains' names under a root-chain name (`base.eth` under `eth`) count too: the index holds them.
        const l2Children = [...l2Shown, ...madeFirstByL2].filter(
          (id) => domains.find((x) => x.id === id)?.parent?.id === d.id,
        ).length;
        check(
          "subdomainCount",
          d.subdomainCount,
          (await chainSubdomainCount(d.id, children, block, memo)) + l2Children,
        );
        compared++;
      }
      expect(mismatches).toEqual([]);
      lines.push(`${b}: ${rootShown.length} root + ${l2Shown.length} other`);
    }
    console.log(
      `[subgraph-history] chain truth at ${samples.length} past blocks (${first - 1}…${head}): ${compared} domain states equal eth_call at their block (${lines.join(", ")})`,
    );
    // It boots a `ponder serve` replica, which may take the harness's 120 s on a loaded machine.
  }, 240_000);

  it("answers _change_block with every domain changed since the block, and only domains the logs touched", async () => {
    const headDomains = new Map((await domainsAt(undefined)).map((d) => [d.id, d]));
    const first = Number(
      (await createdNodes(root, [contract("ensroot", "Registry"), contract("ensroot", "RegistryOld")]))[0]!.block,
    );
    const parents = new Map([...headDomains.values()].map((d) => [d.id, d.parent?.id ?? null]));
    const lines: string[] = [];
    for (const m of [first + Math.floor((head - first) / 3), first + Math.floor(((head - first) * 2) / 3), head]) {
      const before = new Map((await domainsAt(m - 1)).map((d) => [d.id, d]));
      const changed = new Set((await domainsAt(undefined, { _change_block: { number_gte: m } })).map((d) => d.id));
      // Complete: a domain that is new or differs from its state at m - 1 is listed.
      const differs = [...headDomains.values()]
        .filter((d) => JSON.stringify(d) !== JSON.stringify(before.get(d.id)))
        .map((d) => d.id);
      expect(
        differs.filter((id) => !changed.has(id)),
        `changed since ${m} but not listed`,
      ).toEqual([]);
      // Sound: a root-chain domain listed is one a log since m names (a node, a subnode, a .eth label, a token id),
      // or an ancestor of one (subdomainCount). The other chains' domains are left to the first test.
      const logs = await root.getLogs({ fromBlock: BigInt(m), toBlock: BigInt(head) });
      const touched = new Set<Hex>();
      for (const log of logs) {
        const words = [...log.topics.slice(1), ...(log.data.length >= 66 ? [`0x${log.data.slice(2, 66)}` as Hex] : [])];
        for (const w of words as Hex[]) {
          touched.add(w);
          touched.add(keccak256(concat([ETH_NODE, w])));
          for (const t of log.topics.slice(1) as Hex[]) touched.add(keccak256(concat([t, w])));
        }
      }
      for (const id of [...touched]) {
        let p = parents.get(id);
        while (p) {
          touched.add(p);
          p = parents.get(p);
        }
      }
      const rootChain = new Set([ROOT_NODE, ...before.keys()].filter((id) => headDomains.has(id)));
      const unexplained = [...changed].filter((id) => rootChain.has(id) && !touched.has(id) && !touched.has(pad(id)));
      expect(unexplained, `listed as changed since ${m}, touched by no log`).toEqual([]);
      // At a past block too: what changed between m and the block.
      const atBlock = await domainsAt(head - 1, { _change_block: { number_gte: m } });
      // Changed in [m, head - 1] is a part of changed in [m, head]; nothing of block head shows at head - 1.
      expect(atBlock.filter((d) => !changed.has(d.id)).map((d) => d.id)).toEqual([]);
      if (m === head) expect(atBlock).toEqual([]);
      lines.push(`since ${m}: ${changed.size} listed, ${differs.length} differ from block ${m - 1}`);
    }
    console.log(`[subgraph-history] _change_block: ${lines.join("; ")}`);
  });

  it("keeps one version per entity and block: the state at the block's end", async () => {
    await onIndexDatabase(async (client) => {
      const lines: string[] = [];
      for (const table of ["domain", "account", "resolver", "registration", "wrapped_domain"]) {
        // A version's digits above the last 12 name its block (src/lib/entity-history/version.ts).
        const { rows } = await client.query<{ versions: string; repeated: string }>(
          `SELECT count(*)::text AS versions,
                  (SELECT count(*) FROM (SELECT 1 FROM "${indexer.schema}"."${table}_history"
                     GROUP BY id, div(version, 1000000000000) HAVING count(*) > 1) r)::text AS repeated
             FROM "${indexer.schema}"."${table}_history"`,
        );
        expect(rows[0]!.repeated, `${table}_history: ids with two versions in one block`).toBe("0");
        // Each version's valid_to, filled in by the trigger ponder start installs: the id's next version, NULL for
        // its last, none still pending.
        const { rows: wrong } = await client.query<{ n: string }>(
          `SELECT count(*)::text AS n FROM (SELECT valid_to, lead(version) OVER (PARTITION BY id ORDER BY version) AS next
             FROM "${indexer.schema}"."${table}_history") v WHERE valid_to IS DISTINCT FROM next`,
        );
        expect(wrong[0]!.n, `${table}_history: versions whose valid_to is not the next version`).toBe("0");
        // A write that leaves the entity as it was (an upsert that found it so) is no change: graph-node writes no
        // version for it, and `_change_block` does not list the entity. Known difference: an entity changed and
        // changed back within one block (a domain here) keeps that block's version, equal to the one before.
        const { rows: same } = await client.query<{ n: string }>(
          `SELECT count(*)::text AS n FROM (SELECT to_jsonb(h) - 'version' - 'valid_to' AS state,
                  lag(to_jsonb(h) - 'version' - 'valid_to') OVER (PARTITION BY id ORDER BY version) AS previous
             FROM "${indexer.schema}"."${table}_history" h) v WHERE state = previous`,
        );
        if (table !== "domain") expect(same[0]!.n, `${table}_history: versions equal to the version before`).toBe("0");
        lines.push(`${table} ${rows[0]!.versions}`);
      }
      // Several events on one entity in a block (a registration's NewOwner, Transfer, NewResolver…) leave one version.
      const { rows: events } = await client.query<{ n: string }>(
        `SELECT count(*)::text AS n FROM (SELECT domain_id, block_number FROM "${indexer.schema}".new_owner
           UNION ALL SELECT domain_id, block_number FROM "${indexer.schema}".new_resolver
           UNION ALL SELECT domain_id, block_number FROM "${indexer.schema}".transfer) e
          GROUP BY domain_id, block_number HAVING count(*) > 1`,
      );
      expect(events.length).toBeGreaterThan(0);
      console.log(
        `[subgraph-history] one version per entity and block: ${lines.join(", ")} versions; ${events.length} domain-blocks with several registry events`,
      );
    });
  });

  it("refuses blocks past the head and unknown hashes, and answers _meta at a block", async () => {
    const { _meta } = await subgraph<{ _meta: { block: { number: number; hash: string } } }>(
      `query($n: Int!) { _meta(block: { number: $n }) { block { number hash } } }`,
      { n: head - 3 },
    );
    const onChain = await root.getBlock({ blockNumber: BigInt(head - 3) });
    expect(_meta.block).toEqual({ number: head - 3, hash: onChain.hash });
    const byHash = await subgraph<{ domains: { id: string }[] }>(
      `query($h: Bytes!) { domains(block: { hash: $h }, first: 1000) { id } }`,
      { h: onChain.hash },
    );
    const byNumber = await subgraph<{ domains: { id: string }[] }>(
      `query($n: Int!) { domains(block: { number: $n }, first: 1000) { id } }`,
      { n: head - 3 },
    );
    expect(byHash.domains).toEqual(byNumber.domains);
    await expect(subgraph(`{ domains(block: { number: ${head + 1000} }) { id } }`)).rejects.toThrow(
      /only indexed up to block number/,
    );
    await expect(subgraph(`{ domains(block: { hash: "0x${"ab".repeat(32)}" }) { id } }`)).rejects.toThrow(
      /^Failed to decode `block.hash` value: `no block with that hash found`$/,
    );
  });
});

describe("SUBGRAPH_HISTORY_BLOCKS=none: no history", () => {
  it("writes the live tables as the full history's index does, no version, and answers the head only", async () => {
    const bare = await startIndexer({
      ...indexerOptionsFor(env, { plugins: PLUGINS, database: "postgres" }),
      extraEnv: { SUBGRAPH_HISTORY_BLOCKS: "none" },
      // A schema beside the full history's, so that one statement compares the two indexes' tables.
      reuse: { databaseUrl: indexer.env.DATABASE_URL },
    });
    try {
      await bare.process.ready();
      await waitForHead(
        bare.url,
        { number: head, hash: (await root.getBlock({ blockNumber: BigInt(head) })).hash },
        "none",
      );
      await onIndexDatabase(async (client) => {
        const differing: string[] = [];
        for (const table of ["domain", "account", "resolver", "registration", "wrapped_domain"]) {
          const { rows } = await client.query<{ n: number }>(
            `SELECT (SELECT count(*) FROM (SELECT * FROM "${indexer.schema}"."${table}" EXCEPT SELECT * FROM "${bare.schema}"."${table}") a)
              + (SELECT count(*) FROM (SELECT * FROM "${bare.schema}"."${table}" EXCEPT SELECT * FROM "${indexer.schema}"."${table}") b) AS n`,
          );
          if (Number(rows[0]!.n) !== 0) differing.push(`${table}: ${rows[0]!.n} rows differ`);
          const versions = await client.query<{ n: string }>(
            `SELECT count(*) AS n FROM "${bare.schema}"."${table}_history"`,
          );
          if (versions.rows[0]!.n !== "0") differing.push(`${table}_history: ${versions.rows[0]!.n} versions`);
        }
        expect(differing).toEqual([]);
      });
      const atHead = await subgraph<{ domains: IndexedDomain[] }>(
        `query($n: Int!) { domains(first: 1000, orderBy: id, block: { number: $n }) { ${DOMAIN_FIELDS} } }`,
        { n: head },
        bare.url,
      );
      expect(atHead.domains).toEqual(await domainsAt(undefined));
      await expect(subgraph(`{ domains(block: { number: ${head - 1} }) { id } }`, {}, bare.url)).rejects.toThrow(
        /this endpoint keeps no history and serves only the indexed head \(block number \d+\)/,
      );
      await expect(
        subgraph(`{ domains(where: { _change_block: { number_gte: ${head - 5} } }) { id } }`, {}, bare.url),
      ).rejects.toThrow(/`_change_block` filters are not available: this endpoint keeps no history/);
    } finally {
      await bare.stop();
      await onIndexDatabase((client) => client.query(`DROP SCHEMA IF EXISTS "${bare.schema}" CASCADE`));
    }
  }, 300_000);
});

describe("SUBGRAPH_HISTORY_BLOCKS: the last N blocks only, on PGlite", () => {
  const RETAINED = 40;

  it("answers within the window as the full history does, refuses before it, and prunes what it no longer needs", async () => {
    const pruned = await startIndexer({
      ...indexerOptionsFor(env, { plugins: PLUGINS, database: "pglite" }),
      extraEnv: { SUBGRAPH_HISTORY_BLOCKS: String(RETAINED), NAMEINDEX_HISTORY_PRUNE_SECONDS: "0" },
    });
    try {
      await pruned.process.ready();
      await waitForHead(
        pruned.url,
        { number: head, hash: (await root.getBlock({ blockNumber: BigInt(head) })).hash },
        "PGlite",
      );
      const query = `query($n: Int!) { domains(first: 1000, orderBy: id, block: { number: $n }) { ${DOMAIN_FIELDS} } }`;
      const ask = async (url: string, n: number) => {
        const res = await fetch(`${url}/subgraph`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query, variables: { n } }),
        });
        return (await res.json()) as { data?: { domains: IndexedDomain[] }; errors?: { message: string }[] };
      };
      const inWindow = [head - RETAINED, head - Math.floor(RETAINED / 2), head];
      for (const n of inWindow) {
        const [full, kept] = [await ask(indexer.url, n), await ask(pruned.url, n)];
        expect(kept.errors, `block ${n}`).toBeUndefined();
        expect(kept.data, `block ${n} on PGlite with ${RETAINED} blocks kept`).toEqual(full.data);
      }
      const before = await ask(pruned.url, head - RETAINED - 1);
      expect(before.errors?.[0]?.message).toMatch(
        new RegExp(
          `keeps the history of the last ${RETAINED} blocks only.*block number ${head - RETAINED - 1} is no longer available`,
        ),
      );
      // The full history still answers there.
      expect((await ask(indexer.url, head - RETAINED - 1)).errors).toBeUndefined();

      await pruned.process.stop();
      const dump = await dumpPglite(pruned.pgliteDirectory!, pruned.schema);
      const rows = dump.domain_history!.lines.map((l) => JSON.parse(l) as { id: string; version: string });
      const boundary = head - RETAINED;
      const { timestamp } = await root.getBlock({ blockNumber: BigInt(boundary) });
      const upTo = lastVersionOf({ timestamp, chainId: ROOT, blockNumber: BigInt(boundary) });
      // Pruned while indexing: fewer versions, and fewer superseded ones below the window, than the full history.
      const superseded = (list: { id: string; version: string }[]) => {
        const below = new Map<string, number>();
        for (const r of list) if (BigInt(r.version) <= upTo) below.set(r.id, (below.get(r.id) ?? 0) + 1);
        return [...below.values()].reduce((n, v) => n + v - 1, 0);
      };
      const fullRows = await onIndexDatabase(
        async (client) =>
          (await client.query(`SELECT id, version::text AS version FROM "${indexer.schema}".domain_history`)).rows as {
            id: string;
            version: string;
          }[],
      );
      expect(rows.length).toBeLessThan(fullRows.length);
      expect(superseded(rows)).toBeLessThan(superseded(fullRows));
      console.log(
        `[subgraph-history] SUBGRAPH_HISTORY_BLOCKS=${RETAINED} on PGlite: ${inWindow.length} blocks in the window equal the full history, block ${head - RETAINED - 1} refused; domain_history ${rows.length} rows against ${fullRows.length} with every block, ${superseded(rows)} superseded versions below the window against ${superseded(fullRows)}`,
      );
    } finally {
      await pruned.stop();
    }
  }, 300_000);
});

describe("paging at a pinned block while the head moves and reorgs", () => {
  interface Page {
    _meta: { block: { number: number; hash: string } };
    domains: { id: string; name: string | null; owner: { id: string }; subdomainCount: number }[];
  }
  const PAGE = 7;
  const pageQuery = `query($block: Block_height, $after: String!) {
    _meta(block: $block) { block { number hash } }
    domains(first: ${PAGE}, orderBy: id, where: { id_gt: $after }, block: $block) { id name owner { id } subdomainCount }
  }`;

  it("gives every domain of the pinned block exactly once, and the same pages again after new blocks and a reorg", async () => {
    const driver = await ReorgDriver.connect(manifest);
    await waitForHead(indexer.url, await driver.head(), "the devnet's head");
    // The Graph's pattern: the first page at the head, the next ones at the block hash its _meta named.
    const first = await subgraph<Page>(pageQuery, { block: null, after: "" });
    const pinned = first._meta.block;
    const pin = { hash: pinned.hash };
    const pages: Page["domains"][] = [first.domains];
    const fork = await driver.snapshot();
    expect(fork.block).toBe(pinned.number);
    const [, , , , , , , ownerA, ownerB, other] = driver.accounts;
    const shared = driver.freshLabel();
    const next = async () => {
      const page = await subgraph<Page>(pageQuery, { block: pin, after: pages.at(-1)!.at(-1)!.id });
      expect(page._meta.block).toEqual(pinned);
      pages.push(page.domains);
      return page.domains.length;
    };
    // Page, then new blocks (branch A registers names and changes records), page, then a reorg back to the pinned
    // block and a longer branch B, page on to the end.
    await next();
    const a = await driver.playBranch({
      tag: "pinA",
      blocks: 3,
      ownNames: 2,
      sharedLabel: shared,
      owner: ownerA!,
      transferTo: ownerA!,
    });
    await followRootHead(indexer.url, a.head, "branch A");
    await next();
    const reorgsBefore = await reorgMetric(indexer.url);
    await driver.revert(fork);
    const b = await driver.playBranch({
      tag: "pinB",
      blocks: 4,
      ownNames: 3,
      sharedLabel: shared,
      owner: ownerB!,
      transferTo: other!,
    });
    await followRootHead(indexer.url, b.head, "branch B");
    expect(await reorgMetric(indexer.url), "the indexer reconciled the reorg").toBeGreaterThan(reorgsBefore);
    while ((await next()) === PAGE) {}
    const listed = pages.flat();
    const ids = listed.map((d) => d.id);
    expect(new Set(ids).size, "no domain twice").toBe(ids.length);
    // Every domain of the pinned block: the registries' NewOwner logs up to it (chain truth), and nothing newer.
    const rootNodes = await createdNodes(
      root,
      [contract("ensroot", "Registry"), contract("ensroot", "RegistryOld")],
      undefined,
      BigInt(pinned.number),
    );
    const rootIds = new Set([ROOT_NODE, ...rootNodes.map((n) => n.node)]);
    for (const r of [...a.registered, ...b.registered]) if (!rootIds.has(r.node)) expect(ids).not.toContain(r.node);
    expect(ids.filter((id) => rootIds.has(id as Hex)).sort()).toEqual([...rootIds].sort());
    // The same pages when asked again, now that the head is branch B's.
    const again: Page["domains"][] = [];
    let after = "";
    for (;;) {
      const page = await subgraph<Page>(pageQuery, { block: pin, after });
      again.push(page.domains);
      if (page.domains.length < PAGE) break;
      after = page.domains.at(-1)!.id;
    }
    expect(again).toEqual(pages);
    // The head moved on: the same query at the head shows branch B's names.
    const atHead = await domainsAt(undefined);
    for (const r of b.registered) expect(atHead.map((d) => d.id)).toContain(r.node);
    console.log(
      `[subgraph-history] pinned pagination: ${ids.length} domains at block ${pinned.number} in ${pages.length} pages of ${PAGE}, each once, across branch A (${a.head.number}) and a reorg to branch B (${b.head.number}); the same ${again.length} pages asked again`,
    );
  }, 300_000);
});
