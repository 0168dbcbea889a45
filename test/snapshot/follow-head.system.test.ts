import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { encodeFunctionData, type Hex, keccak256, parseAbi, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diffDumps, dumpPostgres, summarizeDump } from "../../harness/canonical-dump";
import { syncClocksAndWaitRealtime } from "../../harness/chain-clock";
import { type DevnetWithLabels, rpc, startDevnetWithLabels } from "../../harness/devnet-fixture";
import {
  createDatabase,
  dropDatabase,
  indexerOptionsFor,
  type RunningIndexer,
  settledStatus,
  startIndexer,
  waitFor,
} from "../../harness/indexer-harness";
import { readSnapshotFile } from "../../snapshot/container";
import { snapshotCli, userSchemas } from "../support/snapshot-files";

/*
 * The operator's path end to end on a devnet: index on PostgreSQL, `npm run snapshot -- create` while it runs, the
 * chains move on (a shallow reorg across the snapshot's latest block, new names), `npm run snapshot -- restore` into a
 * new database verifies against the devnet's RPC, `ponder start` resumes there and follows the head, and its tables
 * equal a cold index of the final chains. Then a reorg below the snapshot's resume block: restore refuses it.
 */

const PLUGINS = ["subgraph", "protocol-acceleration", "registrars"];
const log = (line: string) => console.log(`[snapshot:follow] ${line}`);
const registryAbi = parseAbi([
  "function setSubnodeOwner(bytes32 node, bytes32 label, address owner) returns (bytes32)",
]);

/** The schema's secondary indexes (ponder.schema.ts's and ours), name → oid: an index built again gets a new oid. */
async function indexOids(databaseUrl: string, schema: string): Promise<Map<string, string>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; oid: string }>(
      `select c.relname as name, c.oid::text as oid from pg_index i join pg_class c on c.oid = i.indexrelid
         join pg_namespace n on n.oid = c.relnamespace where n.nspname = $1 and not i.indisprimary`,
      [schema],
    );
    return new Map(rows.map((r) => [r.name, r.oid]));
  } finally {
    await client.end();
  }
}

/** Ponder's RPC requests so far, by method (its `ponder_rpc_request_duration` histogram's counts). */
async function rpcRequests(url: string): Promise<string> {
  const text = await fetch(`${url}/metrics`).then((r) => r.text());
  const counts = new Map<string, number>();
  for (const m of text.matchAll(/^ponder_rpc_request_duration_count\{([^}]*)\} (\d+)/gm)) {
    const method = /method="([^"]+)"/.exec(m[1]!)?.[1] ?? "?";
    counts.set(method, (counts.get(method) ?? 0) + Number(m[2]));
  }
  return [...counts].map(([k, v]) => `${k}=${v}`).join(" ");
}

describe("a snapshot restored on a new database follows the head", () => {
  let env: DevnetWithLabels;
  let source: RunningIndexer;
  let dir: string;
  const indexers: RunningIndexer[] = [];
  const databases: string[] = [];

  async function newDatabase(): Promise<string> {
    const name = `snapf_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6).toString(36)}`;
    databases.push(name);
    return await createDatabase(name);
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "nameindex-snapshots-"));
    env = await startDevnetWithLabels({ seed: 7, names: 12 });
    source = await startIndexer(indexerOptionsFor(env, { plugins: PLUGINS, database: "postgres" }));
    indexers.push(source);
    await settledStatus(source, 3_000, 240_000);
  }, 600_000);

  afterAll(async () => {
    for (const indexer of indexers) await indexer.stop().catch(() => {});
    await env?.stop();
    for (const name of databases) await dropDatabase(name);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("restores, verifies, resumes and ends equal to a cold index; a reorg below the resume block is refused", async () => {
    const file = join(dir, "index.snapshot");
    const rpcUrls = Object.values(env.devnet.manifest.chains).map((c) => (c as { rpcUrl: string }).rpcUrl);
    // The source follows the heads (its latest root block past its resume block) while the snapshot is taken.
    await waitFor(
      async () => {
        for (const url of rpcUrls) await rpc(url, "evm_mine", []);
        const client = new pg.Client({ connectionString: source.env.DATABASE_URL });
        await client.connect();
        try {
          const { rows } = await client.query<{ safe: string; latest: string }>(
            `select safe_checkpoint as safe, latest_checkpoint as latest from "${source.schema}"._ponder_checkpoint where chain_id = 31337`,
          );
          return rows[0] !== undefined && rows[0].latest.slice(0, 10) > rows[0].safe.slice(0, 10);
        } finally {
          await client.end();
        }
      },
      120_000,
      "the source indexing past its resume checkpoint",
      2_000,
    );
    const created = await snapshotCli(source.env, ["create", file]);
    log(created.out.trim());
    expect(created.code).toBe(0);
    const { manifest } = await readSnapshotFile(file);
    const rootId = 31337;
    const rootRpc = env.devnet.manifest.chains[String(rootId)]!.rpcUrl as string;
    const root = manifest.checkpoints.find((c) => c.chainId === rootId)!;
    expect(root.resume).not.toBeNull();
    expect(root.latest!.number).toBeGreaterThan(root.resume!.number);

    // A shallow reorg: the snapshot's latest root block is replaced, its resume block stays.
    const head = Number(await rpc<Hex>(rootRpc, "eth_blockNumber"));
    const shallow = head - root.latest!.number + 1;
    expect(head - shallow).toBeGreaterThan(root.resume!.number);
    const [deployer] = await rpc<Hex[]>(rootRpc, "eth_accounts");
    // Re-mined empty blocks would get their old hashes back: the new branch carries a transfer.
    const transfer = { from: deployer, to: deployer, value: "0x1" };
    await rpc(rootRpc, "anvil_reorg", [shallow, [[transfer, 0]]]);
    // New names on the root chain after the snapshot.
    const registry = (
      env.devnet.manifest.datasources as unknown as { ensroot: { contracts: { Registry: { address: Hex } } } }
    ).ensroot.contracts.Registry.address;
    for (let i = 0; i < 3; i++) {
      const data = encodeFunctionData({
        abi: registryAbi,
        functionName: "setSubnodeOwner",
        args: [`0x${"0".repeat(64)}`, keccak256(toHex(`after-snapshot-${i}`)), deployer!],
      });
      await rpc(rootRpc, "eth_sendTransaction", [{ from: deployer, to: registry, data, gas: "0x100000" }]);
    }

    const target = await newDatabase();
    const restoreEnv = { ...source.env, DATABASE_URL: target, DATABASE_SCHEMA: "restored" };
    const restored = await snapshotCli(restoreEnv, ["restore", file, "--sample", "200"]);
    log(restored.out.trim());
    expect(restored.code).toBe(0);
    expect(restored.out).toMatch(
      /reorg across the checkpoint: chain devnetRoot \(31337\): latest block \d+ was reorged out/,
    );
    expect(restored.out).toMatch(
      /verify: \d+ tables of \d+ rows, \d+ chunks digested, 3 checkpoints, \d+ sampled names \(\d+ values\), \d+ RPC calls/,
    );

    const indexesBefore = await indexOids(target, "restored");
    expect(indexesBefore.size).toBeGreaterThan(0);

    const resumed = await startIndexer({
      ...indexerOptionsFor(env, { plugins: PLUGINS, database: "postgres" }),
      reuse: { databaseUrl: target },
      schema: "restored",
    });
    indexers.push(resumed);
    const cold = await startIndexer(indexerOptionsFor(env, { plugins: PLUGINS, database: "postgres" }));
    indexers.push(cold);
    await resumed.process.ready();
    await cold.process.ready();
    await syncClocksAndWaitRealtime(rpcUrls, resumed.url);
    await syncClocksAndWaitRealtime(rpcUrls, cold.url);
    await settledStatus(resumed, 3_000, 120_000);
    await settledStatus(cold, 3_000, 120_000);
    const [resumedDump, coldDump] = await Promise.all([
      dumpPostgres(target, "restored"),
      dumpPostgres(cold.env.DATABASE_URL!, cold.schema),
    ]);
    log(`resumed: ${summarizeDump(resumedDump)}`);
    log(`RPC requests by method, resumed: ${await rpcRequests(resumed.url)}; cold: ${await rpcRequests(cold.url)}`);
    // Ponder resumed the restored index (crash recovery from its checkpoint), it did not start it anew.
    expect(readFileSync(resumed.logFile, "utf8")).toContain("Detected crash recovery");
    // Its crash recovery kept the indexes restore built (patch createDatabase-keep-indexes-at-recovery): a dropped
    // and rebuilt index would have a new oid, and at mainnet size the rebuild is 26–43 minutes before /ready.
    const indexesAfter = await indexOids(target, "restored");
    expect([...indexesBefore].filter(([name, oid]) => indexesAfter.get(name) !== oid)).toEqual([]);
    // (Whether it fetched history again cannot show here: the devnet namespace turns Ponder's RPC cache off.
    // rehearsal/test/snapshot.test.ts checks it on mainnet-shaped chains.)
    expect(diffDumps(coldDump, resumedDump)).toEqual([]);
    const newNames = resumedDump.domain!.lines.filter((l) => l.includes(keccak256(toHex("after-snapshot-0")).slice(2)));
    expect(newNames.length).toBeGreaterThan(0);

    // A reorg below the snapshot's resume block: it holds no rows from before it to roll back to.
    const nowHead = Number(await rpc<Hex>(rootRpc, "eth_blockNumber"));
    await rpc(rootRpc, "anvil_reorg", [nowHead - root.resume!.number + 1, [[transfer, 0]]]);
    const deep = await newDatabase();
    const refused = await snapshotCli({ ...restoreEnv, DATABASE_URL: deep }, ["restore", file]);
    log(refused.out.trim());
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(
      /refused: the snapshot's checkpoints are not on your chains: chain devnetRoot \(31337\): resume block \d+ is 0x[0-9a-f]{64} in the snapshot and 0x[0-9a-f]{64} on your RPC; the snapshot holds no data from before it to roll back to/,
    );
    expect(await userSchemas(deep)).toEqual([]);
  }, 600_000);
});
