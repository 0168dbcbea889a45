import { afterEach, describe, expect, it } from "vitest";
// The ponder patch's own modules (patches/ponder+*.patch): the in-memory backfill data and Ponder's row encoders.
// @ts-expect-error plain JavaScript without types
import { getFreshSyncData, useFreshSyncData } from "../../node_modules/ponder/dist/esm/sync-store/fresh.js";
// @ts-expect-error plain JavaScript without types
import { encodeBlock, encodeLog, encodeTransaction } from "../../node_modules/ponder/dist/esm/sync-store/encode.js";

/*
 * The rules sync-store/fresh.js must keep to answer Ponder's getEventData as its SQL path does: only committed
 * intervals are visible, one row per primary key, log filters applied, block and log order, at most `limit` rows of a
 * kind per read ending at a whole block, the SQL path's formatting, and a loud error rather than an empty answer
 * when a range is asked for again after it was handed out.
 */

const ROOT = "0x00000000000c2e074ec69a0dfb2997ba6c7d2e1e";
const NEW_OWNER = "0xce0457fe73731f824cc272376169235128c118b5c9adab9d5f6d2bb2b8fb8fbf";
const TRANSFER = "0xd4735d920b0f87494915f556dd9b54c8f309026070caea5c737245152564d266";
const hex = (n: number) => `0x${n.toString(16)}`;
const word = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;

let nextChainId = 900_000;
afterEach(() => {
  delete process.env.NAMEINDEX_SYNC_IN_MEMORY;
});

function logFilter(chainId: number, topic0: string | string[] = [NEW_OWNER, TRANSFER]) {
  return { type: "log", chainId, address: ROOT, topic0, topic1: null, topic2: null, topic3: null, fromBlock: undefined, toBlock: undefined, include: [] };
}

function newChain(filters?: unknown[]) {
  const id = nextChainId++;
  const data = useFreshSyncData({ id, disableCache: true }, filters ?? [logFilter(id)]);
  expect(data).toBeDefined();
  expect(getFreshSyncData(id)).toBe(data);
  return { id, data };
}

function rpcBlock(number: number) {
  return {
    number: hex(number), timestamp: hex(1_700_000_000 + number), hash: word(number), parentHash: word(number - 1),
    logsBloom: `0x${"0".repeat(512)}`, miner: "0xAbCd000000000000000000000000000000000001", gasUsed: "0x5208", gasLimit: "0x1c9c380",
    baseFeePerGas: "0x7", nonce: "0x0000000000000000", mixHash: word(0), stateRoot: word(1), receiptsRoot: word(2),
    transactionsRoot: word(3), sha3Uncles: word(4), size: "0x220", difficulty: "0x0", totalDifficulty: "0x0", extraData: "0x",
  };
}

function rpcLog(block: number, logIndex: number, topic0 = NEW_OWNER, address = ROOT) {
  return {
    blockNumber: hex(block), logIndex: hex(logIndex), transactionIndex: "0x0", blockHash: word(block), transactionHash: word(1000 + block),
    address, topics: [topic0, word(logIndex)], data: "0x", removed: false,
  };
}

function rpcTransaction(block: number, index: number) {
  return {
    blockNumber: hex(block), transactionIndex: hex(index), hash: word(5000 + block * 10 + index), blockHash: word(block),
    from: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", to: ROOT, input: "0x1234", value: "0x0", nonce: hex(index),
    r: word(7), s: word(8), v: "0x1", type: "0x2", gas: "0x5208", maxFeePerGas: "0x10", maxPriorityFeePerGas: "0x1",
  };
}

/** Records and commits one interval: every block with `logsPerBlock` logs and one transaction. */
function syncInterval(chain: { id: number; data: any }, blocks: number[], logsPerBlock: number) {
  const recorder = chain.data.beginInterval();
  for (const n of blocks) {
    recorder.blocks.push(encodeBlock({ block: rpcBlock(n), chainId: chain.id }));
    recorder.transactions.push(encodeTransaction({ transaction: rpcTransaction(n, 0), chainId: chain.id }));
    for (let i = 0; i < logsPerBlock; i++) recorder.logs.push(encodeLog({ log: rpcLog(n, i), chainId: chain.id }));
  }
  return recorder;
}

describe("backfill data through memory (ponder patch, sync-store/fresh.js)", () => {
  it("is used only for a chain with its RPC cache disabled, no trace filters, and not switched off", () => {
    expect(useFreshSyncData({ id: nextChainId++, disableCache: false }, [])).toBeUndefined();
    expect(useFreshSyncData({ id: nextChainId++, disableCache: true }, [{ type: "trace" }])).toBeUndefined();
    expect(useFreshSyncData({ id: nextChainId++, disableCache: true }, [{ type: "transfer" }])).toBeUndefined();
    process.env.NAMEINDEX_SYNC_IN_MEMORY = "false";
    const off = nextChainId++;
    expect(useFreshSyncData({ id: off, disableCache: true }, [])).toBeUndefined();
    expect(getFreshSyncData(off)).toBeUndefined();
  });

  it("shows an interval's rows only once it is committed, formatted as the SQL path formats them", () => {
    const chain = newChain();
    const recorder = syncInterval(chain, [3, 1, 2], 2);
    // A log that matches no filter (another event) stays out, as the SQL path's WHERE leaves it out.
    recorder.logs.push(encodeLog({ log: rpcLog(2, 7, word(99)), chainId: chain.id }));
    // A log fetched twice (two filters asked for it) is one row, as ON CONFLICT DO NOTHING keeps one.
    recorder.logs.push(encodeLog({ log: rpcLog(2, 1), chainId: chain.id }));
    chain.data.commitInterval(recorder);
    const uncommitted = newChain();
    syncInterval(uncommitted, [1, 2], 2);
    expect(uncommitted.data.takeEventData({ filters: [logFilter(uncommitted.id)], fromBlock: 1, toBlock: 2, limit: 100 })).toMatchObject({
      blocks: [], logs: [], transactions: [], cursor: 2,
    });

    const read = chain.data.takeEventData({ filters: [logFilter(chain.id)], fromBlock: 1, toBlock: 3, limit: 100 });
    expect(read.cursor).toBe(3);
    expect(read.blocks.map((b: { number: bigint }) => b.number)).toEqual([1n, 2n, 3n]);
    expect(read.blocks[0].miner).toBe("0xabcd000000000000000000000000000000000001");
    expect(read.blocks[0].timestamp).toBe(1_700_000_001n);
    expect(read.logs.map((l: { blockNumber: number; logIndex: number }) => [l.blockNumber, l.logIndex])).toEqual([
      [1, 0], [1, 1], [2, 0], [2, 1], [3, 0], [3, 1],
    ]);
    expect(read.logs[0]).toEqual({
      blockNumber: 1, logIndex: 0, transactionIndex: 0, address: ROOT, topics: [NEW_OWNER, word(0), null, null], data: "0x", removed: false,
    });
    expect(read.transactions[0]).toMatchObject({
      blockNumber: 1, transactionIndex: 0, from: "0x70997970c51812dc3a010c7d01b50e0d17dc79c8", to: ROOT, type: "eip1559",
      gasPrice: undefined, accessList: undefined, maxFeePerGas: 16n, value: 0n, input: "0x1234",
    });
    expect(read.traces).toEqual([]);
  });

  it("reads at most `limit` rows of a kind, ending at a whole block, and resumes where it stopped", () => {
    const chain = newChain();
    chain.data.commitInterval(syncInterval(chain, [1, 2, 3, 4], 4));
    const filters = [logFilter(chain.id)];
    const first = chain.data.takeEventData({ filters, fromBlock: 1, toBlock: 4, limit: 9 });
    expect([first.cursor, first.logs.length, first.blocks.length]).toEqual([2, 8, 2]);
    const second = chain.data.takeEventData({ filters, fromBlock: 3, toBlock: 4, limit: 9 });
    expect([second.cursor, second.logs.length]).toEqual([4, 8]);
    // A block with more rows than the limit is still read whole (the SQL path doubles its limit until it is).
    const big = newChain();
    big.data.commitInterval(syncInterval(big, [1, 2], 12));
    const whole = big.data.takeEventData({ filters: [logFilter(big.id)], fromBlock: 1, toBlock: 2, limit: 9 });
    expect([whole.cursor, whole.logs.length]).toEqual([1, 12]);
  });

  it("applies the log filters' topics and block ranges", () => {
    const chain = newChain();
    const recorder = syncInterval(chain, [1, 2], 1);
    recorder.logs.push(encodeLog({ log: rpcLog(2, 5, TRANSFER), chainId: chain.id }));
    chain.data.commitInterval(recorder);
    const onlyTransfers = { ...logFilter(chain.id, TRANSFER), fromBlock: 2 };
    const read = chain.data.takeEventData({ filters: [onlyTransfers], fromBlock: 1, toBlock: 2, limit: 100 });
    expect(read.logs.map((l: { logIndex: number }) => l.logIndex)).toEqual([5]);
    // Blocks and transactions are not filtered by logs, as in the SQL path: the event builder matches them.
    expect(read.blocks).toHaveLength(2);
  });

  it("refuses, loudly, a range it has already handed out", () => {
    const chain = newChain();
    chain.data.commitInterval(syncInterval(chain, [1, 2], 1));
    chain.data.takeEventData({ filters: [logFilter(chain.id)], fromBlock: 1, toBlock: 2, limit: 100 });
    expect(() => chain.data.takeEventData({ filters: [logFilter(chain.id)], fromBlock: 2, toBlock: 2, limit: 100 })).toThrow(
      /already handed to indexing.*NAMEINDEX_SYNC_IN_MEMORY=false/,
    );
  });

  it("holds the sync back while more than 10,000 logs wait, and lets it go once they are read", async () => {
    const chain = newChain();
    chain.data.commitInterval(syncInterval(chain, [1, 2, 3, 4, 5], 2100));
    let released = false;
    const waiting = chain.data.waitForRoom().then(() => (released = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(released).toBe(false);
    chain.data.takeEventData({ filters: [logFilter(chain.id)], fromBlock: 1, toBlock: 1, limit: 100_000 });
    await waiting;
    expect(released).toBe(true);
  });

  it("keeps nothing before the block indexing resumes from, so a run restarted late in the backfill is not held back", async () => {
    const chain = newChain();
    chain.data.keepFrom(3);
    // 15,000 logs fetched from the chain's start, 9,000 of them at or after block 3: under the 10,000 of room.
    chain.data.commitInterval(syncInterval(chain, [1, 2, 3, 4, 5], 3000));
    await chain.data.waitForRoom();
    const read = chain.data.takeEventData({ filters: [logFilter(chain.id)], fromBlock: 3, toBlock: 5, limit: 100_000 });
    expect(read.blocks.map((b: { number: bigint }) => b.number)).toEqual([3n, 4n, 5n]);
    expect(read.logs).toHaveLength(9000);
  });
});
