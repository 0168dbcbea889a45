import { describe, expect, it } from "vitest";
import { caughtShare, pickChunks } from "../../snapshot/chunk-sample";

/** P(no tampered chunk drawn) drawing k of n chunks without replacement, b of them tampered: C(n−b, k) / C(n, k). */
function missProbability(n: number, b: number, k: number): number {
  let p = 1;
  for (let i = 0; i < k; i++) p *= Math.max(0, n - b - i) / (n - i);
  return p;
}

describe("the chunk sample", () => {
  it("draws k distinct chunks, each equally likely, and every chunk of a table with no more than k", () => {
    const n = 10;
    const k = 3;
    const drawn = new Array(n).fill(0);
    const runs = 20_000;
    for (let run = 0; run < runs; run++) {
      const picked = pickChunks(n, k);
      expect(new Set(picked).size).toBe(k);
      for (const i of picked) drawn[i] += 1;
    }
    // Each chunk's share is k/n = 0.3 (sd 0.0032 over 20,000 runs): off by 0.02 is a 1-in-10^8 chance.
    for (const count of drawn) expect(Math.abs(count / runs - k / n)).toBeLessThan(0.02);
    expect(pickChunks(4, 200)).toEqual([0, 1, 2, 3]);
    expect(pickChunks(4, 0)).toEqual([]);
  });

  it("prints a share whose tampering escapes with probability ≤ 0.1 %, exactly, for every table size", () => {
    expect(caughtShare(200)).toBe(0.034);
    expect(caughtShare(6905)).toBe(0.001);
    expect(caughtShare(0)).toBe(1);
    for (const k of [1, 6, 50, 200]) {
      const f = caughtShare(k);
      for (const n of [k + 1, 2 * k, 10 * k, 1000 * k]) {
        expect(missProbability(n, Math.ceil(f * n), k)).toBeLessThanOrEqual(0.001);
      }
    }
  });
});
