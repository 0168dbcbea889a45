import { type Address, createPublicClient, type Hex, http, type Log, type PublicClient, toEventSelector } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetScenario, scenarioOf } from "../../devnet/src/index";
import { syncClocksAndWaitRealtime } from "../../harness/chain-clock";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { type RunningIndexer, startIndexer } from "../../harness/indexer-harness";
import { type RecordedCall, startRecordingRpc } from "../../harness/recording-rpc";
import type { DevnetManifest } from "../../src/namespaces/devnet-manifest";

/*
 * Events from the index, on a devnet over HTTP: an account's events (as its transactions' sender) and a resolver's
 * (as their emitter) are the chain's own logs, every field as anvil returns it, and no events query reaches an RPC
 * provider: they are asked of an API-only replica (`ponder serve`) whose RPC URLs are recording proxies.
 */

const ROOT = 31337;
const BASE = 31338;
const LINEA = 31339;

/** Resolver events every resolver handler indexes: each such log of the chain must be in the resolver's list. */
const RESOLVER_SELECTORS = [
  "event AddrChanged(bytes32 indexed node, address a)",
  "event AddressChanged(bytes32 indexed node, uint256 coinType, bytes newAddress)",
  "event TextChanged(bytes32 indexed node, string indexed indexedKey, string key, string value)",
].map((e) => toEventSelector(e));
/** NewOwner(bytes32,bytes32,address): every registry's, indexed by the subgraph plugin. */
const NEW_OWNER = toEventSelector("event NewOwner(bytes32 indexed node, bytes32 indexed label, address owner)");

let env: DevnetWithLabels;
let manifest: DevnetManifest;
let scenario: DevnetScenario;
let indexer: RunningIndexer;
let replica: { url: string; stop(): Promise<void> };
let recorders: Awaited<ReturnType<typeof startRecordingRpc>>[] = [];
/** Each chain's head once the scenario was played (recorders' order): every event asked about is at or below it. */
let scenarioHeads: bigint[] = [];
let root: PublicClient;

interface EventNode {
  id: string;
  chainId: number;
  blockNumber: string;
  blockHash: Hex;
  logIndex: number;
  transactionHash: Hex;
  transactionIndex: number;
  from: Address;
  sender: Address;
  to: Address | null;
  address: Address;
  topics: Hex[];
  data: Hex;
  timestamp: string;
}
const FIELDS =
  "id chainId blockNumber blockHash logIndex transactionHash transactionIndex from sender to address topics data timestamp";

async function omnigraph<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const res = await fetch(`${replica.url}/api/omnigraph`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: T; errors?: unknown };
  if (res.status !== 200 || body.errors) throw new Error(`omnigraph ${res.status}: ${JSON.stringify(body.errors)}`);
  return body.data as T;
}

/** Every page of a list, walked with cursors 25 at a time. */
async function allEvents(query: string, pick: (data: any) => any, variables: Record<string, unknown>) {
  const out: EventNode[] = [];
  for (let after: string | null = null; ; ) {
    const page = pick(await omnigraph(query, { ...variables, after }));
    out.push(...page.edges.map((e: { node: EventNode }) => e.node));
    if (!page.pageInfo.hasNextPage) return { events: out, totalCount: page.totalCount as number };
    after = page.pageInfo.endCursor;
  }
}

/** Each recorder's count of calls so far, to take the calls made after it. */
const rpcMark = (): number[] => recorders.map((r) => r.calls.length);

/**
 * The methods called since `mark`, without the replica's reads of blocks mined after the scenario: its indexing
 * status follows each chain's head in the background (a block's timestamp per new block, one chain every second
 * here), which the events queries have no part in.
 */
const rpcMethodsSince = (mark: number[]): string[] =>
  recorders
    .flatMap((r, i) => r.calls.slice(mark[i]).filter((c) => !isNewerBlockRead(c, scenarioHeads[i]!)))
    .map((c) => c.method);

const isNewerBlockRead = (c: RecordedCall, head: bigint): boolean =>
  c.method === "eth_getBlockByNumber" &&
  typeof c.params[0] === "string" &&
  c.params[0].startsWith("0x") &&
  BigInt(c.params[0]) > head;

/** What anvil says of a log: the receipt's log, the transaction, the block. */
async function chainFacts(e: EventNode) {
  const receipt = await root.getTransactionReceipt({ hash: e.transactionHash });
  const tx = await root.getTransaction({ hash: e.transactionHash });
  const block = await root.getBlock({ blockHash: receipt.blockHash });
  const log = receipt.logs.find((l) => l.logIndex === e.logIndex)!;
  return {
    id: `${receipt.blockNumber}-${e.logIndex}`,
    chainId: ROOT,
    blockNumber: String(receipt.blockNumber),
    blockHash: receipt.blockHash,
    logIndex: e.logIndex,
    transactionHash: receipt.transactionHash,
    transactionIndex: receipt.transactionIndex,
    from: tx.from.toLowerCase(),
    sender: tx.from.toLowerCase(),
    to: tx.to?.toLowerCase() ?? null,
    address: log.address.toLowerCase(),
    topics: log.topics,
    data: log.data,
    timestamp: String(block.timestamp),
  };
}

const place = (l: { blockNumber: bigint | string | null; logIndex: number | null }) => `${l.blockNumber}-${l.logIndex}`;

beforeAll(async () => {
  env = await startDevnetWithLabels({ seed: 23, names: 24, mineInterval: 1 });
  manifest = env.devnet.manifest;
  scenario = scenarioOf(manifest);
  indexer = await startIndexer({
    manifestPath: env.devnet.manifestPath,
    labelsServiceUrl: env.labelsUrl,
    plugins: ["subgraph", "basenames", "lineanames", "protocol-acceleration", "registrars"],
    database: "postgres",
  });
  await indexer.process.ready();
  const urls = [ROOT, BASE, LINEA].map((id) => manifest.chains[String(id)]!.rpcUrl);
  scenarioHeads = await Promise.all(urls.map((u) => createPublicClient({ transport: http(u) }).getBlockNumber()));
  await syncClocksAndWaitRealtime(urls, indexer.url);
  recorders = await Promise.all(urls.map((u) => startRecordingRpc(u)));
  replica = await indexer.startReplica(
    Object.fromEntries([ROOT, BASE, LINEA].map((id, i) => [`RPC_URL_${id}`, recorders[i]!.url])),
  );
  root = createPublicClient({ transport: http(urls[0]) }) as PublicClient;
  // The replica's first request may start its own chain reads (not the events'): answer one before counting.
  await omnigraph("{ root { id } }");
  // Its indexing status reads each chain's start and backfill-end blocks once, in the background from start-up; a
  // request waits for that first gather, so none of those reads lands among the events queries' (later gathers read
  // only blocks mined after the scenario: rpcMethodsSince leaves those out).
  const status = await fetch(`${replica.url}/api/indexing-status`);
  if (status.status !== 200) throw new Error(`the replica's indexing status answered ${status.status}`);
}, 900_000);

afterAll(async () => {
  await replica?.stop();
  for (const r of recorders) await r.close();
  await indexer?.stop();
  await env?.stop();
});

describe("events from the index", () => {
  it("lists a resolver's events: each one the chain's log, every log of its record events", async () => {
    // The resolver the scenario last wrote a root-chain name's records on (resolvers have no manifest address).
    const resolver = (
      scenario.names.find((f) => f.chainId === ROOT && f.resolver && Object.keys(f.texts ?? {}).length > 0)!
        .resolver as string
    ).toLowerCase();
    const mark = rpcMark();
    const { events, totalCount } = await allEvents(
      `query($r: AccountIdInput!, $after: String) { resolver(by: { contract: $r }) { events(first: 25, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { node { ${FIELDS} } } } } }`,
      (d) => d.resolver.events,
      { r: { chainId: ROOT, address: resolver } },
    );
    expect(rpcMethodsSince(mark), "RPC calls made by the events queries").toEqual([]);
    expect(events.length).toBe(totalCount);
    const onChain: Log[] = await root.getLogs({ address: resolver as Address, fromBlock: 0n, toBlock: "latest" });
    const records = onChain.filter((l) => RESOLVER_SELECTORS.includes(l.topics[0]!));
    expect(records.length).toBeGreaterThan(0);
    // Every record event of the chain is listed, in the chain's order; nothing listed is another contract's.
    const listed = events.map(place);
    expect(listed.filter((p) => records.some((l) => place(l) === p))).toEqual(records.map(place));
    for (const e of events) expect(e.address).toBe(resolver);
    for (const e of events.slice(0, 40)) expect(e).toEqual(await chainFacts(e));
    console.log(`[events] resolver ${resolver}: ${events.length} events, ${records.length} record events on chain`);
  }, 300_000);

  it("lists an account's events as its transactions' sender, with the chain's topics, data and time", async () => {
    // The sender of the root registry's first NewOwner (the scenario's deployer or a controller's caller).
    const registry = manifest.datasources.ensroot!.contracts.Registry!.address as Address;
    const newOwners = (await root.getLogs({ address: registry, fromBlock: 0n, toBlock: "latest" })).filter(
      (x) => x.topics[0] === NEW_OWNER,
    );
    const sender = (await root.getTransaction({ hash: newOwners[0]!.transactionHash! })).from.toLowerCase();
    const mark = rpcMark();
    const { events, totalCount } = await allEvents(
      `query($a: Address!, $after: String) { account(by: { address: $a }) { events(first: 25, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { node { ${FIELDS} } } } } }`,
      (d) => d.account.events,
      { a: sender },
    );
    expect(rpcMethodsSince(mark), "RPC calls made by the events queries").toEqual([]);
    expect(events.length).toBe(totalCount);
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) expect(e.from).toBe(sender);
    for (const e of events.filter((x) => x.chainId === ROOT).slice(0, 40)) expect(e).toEqual(await chainFacts(e));
    // Every root-registry NewOwner of the account's transactions is listed.
    const sent: string[] = [];
    for (const l of newOwners) {
      const tx = await root.getTransaction({ hash: l.transactionHash! });
      if (tx.from.toLowerCase() === sender) sent.push(place(l));
    }
    expect(sent.length).toBeGreaterThan(0);
    const listed = new Set(events.filter((e) => e.chainId === ROOT).map(place));
    for (const p of sent) expect(listed.has(p), p).toBe(true);
    // A filter narrows the same list: only NewOwner, only from this time on.
    const mid = BigInt(events[Math.floor(events.length / 2)]!.timestamp);
    const filtered = await allEvents(
      `query($a: Address!, $after: String, $s: Hex!, $t: BigInt!) { account(by: { address: $a }) { events(first: 25, after: $after, where: { selector: { eq: $s }, timestamp: { gte: $t } }) { totalCount pageInfo { hasNextPage endCursor } edges { node { ${FIELDS} } } } } }`,
      (d) => d.account.events,
      { a: sender, s: NEW_OWNER, t: String(mid) },
    );
    expect(filtered.events.map((e) => e.id)).toEqual(
      events.filter((e) => e.topics[0] === NEW_OWNER && BigInt(e.timestamp) >= mid).map((e) => e.id),
    );
    console.log(`[events] account ${sender}: ${events.length} events, ${sent.length} root NewOwner sent`);
  }, 300_000);

  it("answers a domain's events and its registration's event without the RPC", async () => {
    const f = scenario.names.find((x) => x.chainId === ROOT && x.name.endsWith(".eth") && x.labels.length === 2)!;
    const mark = rpcMark();
    const data = await omnigraph(
      `query($n: InterpretedName!) { domain(by: { name: $n }) { registration { event { ${FIELDS} } } events(first: 100) { edges { node { ${FIELDS} } } } } }`,
      { n: f.name },
    );
    expect(rpcMethodsSince(mark), "RPC calls made by the events queries").toEqual([]);
    const events = data.domain.events.edges.map((e: { node: EventNode }) => e.node) as EventNode[];
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) expect(e).toEqual({ ...(await chainFacts(e)), id: e.id });
    const reg = data.domain.registration?.event as EventNode | undefined;
    if (reg) expect(reg).toEqual({ ...(await chainFacts(reg)), id: reg.id });
  }, 300_000);
});
