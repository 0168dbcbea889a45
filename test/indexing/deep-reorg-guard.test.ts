import { describe, expect, it } from "vitest";
import { FinalityGuard, ponderFinalityBlocks, ReorgBeyondFinalityError } from "../../src/indexing/deep-reorg-guard";

/** A chain as a list of hashes by block number; tests rewrite its tail to reorganize it. */
function fakeChain(finality: number) {
  const hashes: string[] = Array.from({ length: 100 }, (_, i) => `0xa${i}`);
  return {
    hashes,
    chain: {
      id: 31337,
      name: "devnetRoot",
      finality,
      block: async (tag: number | "latest") => {
        const n = tag === "latest" ? hashes.length - 1 : tag;
        return n >= 0 && n < hashes.length ? { number: n, hash: hashes[n]! } : null;
      },
    },
  };
}

const reorg = (hashes: string[], fromBlock: number, length: number, tag: string) => {
  hashes.length = fromBlock;
  for (let n = fromBlock; n < fromBlock + length; n++) hashes.push(`0x${tag}${n}`);
};

describe("FinalityGuard", () => {
  it("lets reorgs within finality pass", async () => {
    const { hashes, chain } = fakeChain(30);
    const guard = new FinalityGuard([chain]);
    await guard.check();
    reorg(hashes, 75, 40, "b"); // head was 99: depth 25
    await expect(guard.check()).resolves.toBeUndefined();
    reorg(hashes, 90, 30, "c"); // head was 114, final up to 84
    await expect(guard.check()).resolves.toBeUndefined();
  });

  it("throws when a block it held final changes or disappears", async () => {
    const { hashes, chain } = fakeChain(30);
    const guard = new FinalityGuard([chain]);
    await guard.check(); // holds block 69
    reorg(hashes, 60, 50, "b");
    await expect(guard.check()).rejects.toThrow(ReorgBeyondFinalityError);
    await expect(guard.check()).rejects.toThrow(/devnetRoot \(31337\): block 69 was 0xa69 and is now 0xb69/);
    // The head it saw was 99, so the reorg replaced at least blocks 69 to 99 (it replaced 60 to 99).
    await expect(guard.check()).rejects.toThrow(/a reorg at least 31 blocks deep \(the head was at block 99\)/);

    const gone = fakeChain(30);
    const guard2 = new FinalityGuard([gone.chain]);
    await guard2.check();
    gone.hashes.length = 50; // reverted below the final block, nothing mined yet
    await expect(guard2.check()).rejects.toThrow(/is now gone/);
  });

  it("uses Ponder 0.17.7's finality depths", () => {
    expect(ponderFinalityBlocks(1)).toBe(65);
    expect(ponderFinalityBlocks(8453)).toBe(30);
    expect(ponderFinalityBlocks(31337)).toBe(30);
    expect(ponderFinalityBlocks(42161)).toBe(240);
  });
});
