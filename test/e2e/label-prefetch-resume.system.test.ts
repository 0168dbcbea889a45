import pg from "pg";
import { toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syncClocksAndWaitRealtime } from "../../harness/chain-clock";
import { type DevnetWithLabels, rpc, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { indexerOptionsFor, type RunningIndexer, startIndexer, waitFor } from "../../harness/indexer-harness";
import { isLabelPrefetch, type RecordedCall, startRecordingRpc } from "../../harness/recording-rpc";
import { decodeCheckpointBlock } from "../../src/lib/ponder-checkpoint";

/*
 * The label prefetch's start-up read (src/lib/healing/index.ts prefetchFirstLabels), counted on the root chain's RPC:
 * a new index reads the registries' NewOwner logs from their start block; a resumed one from its resume block (Ponder's
 * safe checkpoint), never again the blocks it indexed before. Before, every start read the registries' first 2,000
 * blocks (the rehearsal's snapshot run counted 8 calls below the resume block on mainnet-shaped chains).
 */

const ROOT = 31337;

let env: DevnetWithLabels;
let recorder: Awaited<ReturnType<typeof startRecordingRpc>>;
let indexer: RunningIndexer;

const fromBlockOf = (call: RecordedCall) => Number((call.params[0] as { fromBlock: string }).fromBlock);
const prefetchFromBlocks = () => recorder.calls.filter(isLabelPrefetch).map(fromBlockOf);

beforeAll(async () => {
  env = await startDevnetWithLabels({ seed: 5, names: 8, mineInterval: 1 });
  recorder = await startRecordingRpc(env.devnet.manifest.chains[String(ROOT)]!.rpcUrl);
  indexer = await startIndexer(
    indexerOptionsFor(env, {
      plugins: ["subgraph"],
      database: "postgres",
      extraEnv: { [`RPC_URL_${ROOT}`]: recorder.url },
    }),
  );
}, 300_000);

afterAll(async () => {
  await indexer?.stop();
  await recorder?.close();
  await env?.stop();
});

describe("the label prefetch at start-up", () => {
  it("reads from the registries' start block on a new index and from the resume block on a resumed one", async () => {
    const rootUrl = env.devnet.manifest.chains[String(ROOT)]!.rpcUrl;
    const registries = env.devnet.manifest.datasources.ensroot!.contracts;
    const startBlock = Math.min(registries.RegistryOld!.startBlock!, registries.Registry!.startBlock!);

    await indexer.process.ready();
    await syncClocksAndWaitRealtime([rootUrl], indexer.url);
    expect(Math.min(...prefetchFromBlocks()), "a new index's first prefetch").toBe(startBlock);

    // A clean stop, more blocks, a restart on the same schema: Ponder resumes from its safe checkpoint.
    await indexer.process.stop();
    const client = new pg.Client({ connectionString: indexer.env.DATABASE_URL });
    await client.connect();
    const [row] = (
      await client.query<{ safe_checkpoint: string }>(
        `select safe_checkpoint from "${indexer.schema}"._ponder_checkpoint where chain_id = ${ROOT}`,
      )
    ).rows;
    await client.end();
    // One indexed chain: its checkpoint names its own block.
    const resume = decodeCheckpointBlock(row!.safe_checkpoint);
    expect(resume.chainId).toBe(ROOT);
    expect(resume.number).toBeGreaterThan(startBlock);
    await rpc(rootUrl, "anvil_mine", [toHex(20), toHex(1)]);

    recorder.calls.length = 0;
    await indexer.restart();
    await indexer.process.ready();
    await syncClocksAndWaitRealtime([rootUrl], indexer.url);
    await waitFor(async () => prefetchFromBlocks().length > 0, 30_000, "the resumed start's prefetch");
    const below = prefetchFromBlocks().filter((from) => from < resume.number);
    expect(below, `prefetch eth_getLogs below the resume block ${resume.number}`).toEqual([]);
    expect(Math.min(...prefetchFromBlocks()), "a resumed index's first prefetch").toBe(resume.number);
  }, 600_000);
});
