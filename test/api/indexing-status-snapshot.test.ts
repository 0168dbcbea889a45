import { describe, expect, it } from "vitest";
import { gaugeByChain } from "../../src/api/indexing-status/prometheus";
import {
  buildSnapshot,
  type ChainFacts,
  chainSnapshot,
  omnichainStatus,
  projectRealtime,
} from "../../src/api/shared/indexing-snapshot";
import { decodeCheckpointBlock } from "../../src/lib/ponder-checkpoint";

const ref = (number: number, timestamp: number) => ({ number, timestamp });

describe("chain status derivation", () => {
  const base: ChainFacts = { chainId: 1, startBlock: ref(100, 1000), historicalComplete: false };

  it("is queued with config only before any block at or after the start block is indexed", () => {
    expect(chainSnapshot(base)).toEqual({
      chainStatus: "chain-queued",
      config: { configType: "indefinite", startBlock: ref(100, 1000) },
    });
    expect(chainSnapshot({ ...base, latestIndexedBlock: ref(99, 990) }).chainStatus).toBe("chain-queued");
  });

  it("is backfilling towards the backfill end block", () => {
    expect(chainSnapshot({ ...base, latestIndexedBlock: ref(150, 1500), backfillEndBlock: ref(200, 2000) })).toEqual({
      chainStatus: "chain-backfill",
      config: { configType: "indefinite", startBlock: ref(100, 1000) },
      latestIndexedBlock: ref(150, 1500),
      backfillEndBlock: ref(200, 2000),
    });
  });

  it("never reports a backfill end behind the latest indexed block", () => {
    const snap = chainSnapshot({ ...base, latestIndexedBlock: ref(150, 1500) });
    expect(snap).toMatchObject({ chainStatus: "chain-backfill", backfillEndBlock: ref(150, 1500) });
  });

  it("follows the head once the backfill is complete, with the latest known block", () => {
    expect(
      chainSnapshot({
        ...base,
        historicalComplete: true,
        latestIndexedBlock: ref(300, 3000),
        latestKnownBlock: ref(302, 3020),
      }),
    ).toEqual({
      chainStatus: "chain-following",
      config: { configType: "indefinite", startBlock: ref(100, 1000) },
      latestIndexedBlock: ref(300, 3000),
      latestKnownBlock: ref(302, 3020),
    });
  });

  it("is completed with a definite config when the end block is indexed", () => {
    expect(
      chainSnapshot({
        ...base,
        endBlock: ref(200, 2000),
        latestIndexedBlock: ref(200, 2000),
        historicalComplete: true,
      }),
    ).toEqual({
      chainStatus: "chain-completed",
      config: { configType: "definite", startBlock: ref(100, 1000), endBlock: ref(200, 2000) },
      latestIndexedBlock: ref(200, 2000),
    });
    expect(chainSnapshot({ ...base, endBlock: ref(200, 2000), latestIndexedBlock: ref(150, 1500) })).toMatchObject({
      chainStatus: "chain-backfill",
      backfillEndBlock: ref(200, 2000),
    });
  });
});

describe("omnichain status", () => {
  const q = { chainStatus: "chain-queued" } as never;
  const b = { chainStatus: "chain-backfill" } as never;
  const f = { chainStatus: "chain-following" } as never;
  const c = { chainStatus: "chain-completed" } as never;
  it("follows the notes' order of rules", () => {
    expect(omnichainStatus([f, b, q])).toBe("omnichain-following");
    expect(omnichainStatus([b, q, c])).toBe("omnichain-backfill");
    expect(omnichainStatus([q, q])).toBe("omnichain-unstarted");
    expect(omnichainStatus([c, c])).toBe("omnichain-completed");
  });
});

describe("snapshot and projection", () => {
  it("uses the min start timestamp minus one as the cursor while unstarted", () => {
    const snap = buildSnapshot(
      [
        { chainId: 1, startBlock: ref(10, 500), historicalComplete: false },
        { chainId: 8453, startBlock: ref(20, 400), historicalComplete: false },
      ],
      10_000,
    );
    expect(snap.omnichainSnapshot.omnichainStatus).toBe("omnichain-unstarted");
    expect(snap.omnichainSnapshot.omnichainIndexingCursor).toBe(399);
    expect(snap.slowestChainIndexingCursor).toBe(399);
    expect(Object.keys(snap.omnichainSnapshot.chains)).toEqual(["1", "8453"]);
  });

  it("uses the max latest indexed timestamp of started chains as the cursor, and projects distance to now", () => {
    const snap = buildSnapshot(
      [
        {
          chainId: 1,
          startBlock: ref(10, 500),
          latestIndexedBlock: ref(50, 900),
          backfillEndBlock: ref(60, 1000),
          historicalComplete: false,
        },
        {
          chainId: 10,
          startBlock: ref(20, 600),
          latestIndexedBlock: ref(30, 700),
          backfillEndBlock: ref(60, 1000),
          historicalComplete: false,
        },
        { chainId: 8453, startBlock: ref(20, 950), historicalComplete: false },
      ],
      1_000,
    );
    expect(snap.omnichainSnapshot.omnichainIndexingCursor).toBe(900);
    const projected = projectRealtime(snap, 1_030);
    expect(projected.realtimeProjection).toMatchObject({ projectedAt: 1_030, worstCaseDistance: 130 });
    // A clock behind the snapshot never projects into the past.
    expect(projectRealtime(snap, 900).realtimeProjection).toMatchObject({ projectedAt: 1_000, worstCaseDistance: 100 });
  });
});

describe("Ponder facts", () => {
  it("decodes a checkpoint's block number, timestamp and chain", () => {
    const checkpoint = `${"1795297536"}${"31337".padStart(16, "0")}${"80".padStart(16, "0")}${"0".padStart(16, "0")}5${"0".padStart(16, "0")}`;
    expect(decodeCheckpointBlock(checkpoint)).toEqual({ number: 80, timestamp: 1795297536, chainId: 31337 });
  });

  it("reads per-chain gauges from Prometheus text", () => {
    const text = [
      "# HELP ponder_sync_block Closest-to-tip synced block number",
      'ponder_sync_block{chain="devnetRoot"} 120',
      'ponder_sync_block{chain="devnetBase"} 95',
      'ponder_sync_block_timestamp{chain="devnetRoot"} 1795297536',
    ].join("\n");
    expect(Object.fromEntries(gaugeByChain(text, "ponder_sync_block"))).toEqual({ devnetRoot: 120, devnetBase: 95 });
  });
});
