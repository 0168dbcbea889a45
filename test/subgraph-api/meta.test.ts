import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countingDb, createTestDatabase, type TestDatabase } from "../../harness/subgraph-fixture/pg";
import { ponderCheckpointMeta } from "../../src/api/subgraph";
import type { ChainBlocks } from "../../src/api/subgraph/chain-blocks";

/*
 * `_meta.block` from Ponder's `_ponder_checkpoint` (written here as Ponder writes it) and the chain's block at the
 * indexed number. Ponder keeps no unfinalized block in its sync store, so the head's hash comes from the RPC; while a
 * reorg is under way the RPC already has the new branch's block at that number and the index still the old rows.
 */

const CHAIN_ID = 31337;
/** Ponder's checkpoint: timestamp(10) chainId(16) blockNumber(16) transactionIndex(16) eventType(1) eventIndex(16). */
const checkpoint = (block: number, timestamp: number) =>
  `${String(timestamp).padStart(10, "0")}${String(CHAIN_ID).padStart(16, "0")}${String(block).padStart(16, "0")}${"9".repeat(33)}`;

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase("sg_meta");
});
afterAll(async () => {
  await t.drop();
});

/** A chain whose block at each number is given by the test. */
function chain(blocks: Map<number, { hash: string; timestamp: number }>): ChainBlocks {
  return {
    async block(query) {
      const number = "number" in query ? query.number : -1;
      const b = blocks.get(number);
      return b ? { number, hash: b.hash, parentHash: `0x${"00".repeat(32)}`, timestamp: b.timestamp } : null;
    },
  };
}

async function setCheckpoint(latest: string, finalized: string) {
  await t.pool.query("DELETE FROM _ponder_checkpoint");
  await t.pool.query(`INSERT INTO _ponder_checkpoint VALUES ('anvil', $1, $2, $2, $3)`, [CHAIN_ID, latest, finalized]);
}

const A_HEAD = { hash: `0x${"aa".repeat(32)}`, timestamp: 1_700_000_177 };
const B_HEAD = { hash: `0x${"bb".repeat(32)}`, timestamp: 1_700_000_190 };

describe("_meta.block while the chain reorgs", () => {
  it("names the indexed head's block when the chain's block at that number is the one indexed", async () => {
    await setCheckpoint(checkpoint(177, A_HEAD.timestamp), checkpoint(100, 1_700_000_100));
    const meta = ponderCheckpointMeta({
      db: countingDb(t),
      chainId: CHAIN_ID,
      chain: chain(new Map([[177, A_HEAD]])),
    });
    expect((await meta()).block).toMatchObject({ number: 177, timestamp: A_HEAD.timestamp, hash: A_HEAD.hash });
  });

  it("names no hash while the chain holds another block at the indexed number, and the new one once indexed", async () => {
    // The chain moved to branch B at 177; the index still holds A's 177 (its checkpoint has A's timestamp).
    const blocks = new Map([[177, B_HEAD]]);
    const meta = ponderCheckpointMeta({ db: countingDb(t), chainId: CHAIN_ID, chain: chain(blocks) });
    await setCheckpoint(checkpoint(177, A_HEAD.timestamp), checkpoint(100, 1_700_000_100));
    expect((await meta()).block).toMatchObject({ number: 177, hash: null, parentHash: null });
    // The indexer reverted A and indexed B's 177.
    await setCheckpoint(checkpoint(177, B_HEAD.timestamp), checkpoint(100, 1_700_000_100));
    expect((await meta()).block).toMatchObject({ number: 177, timestamp: B_HEAD.timestamp, hash: B_HEAD.hash });
  });
});
