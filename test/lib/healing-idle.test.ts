import { describe, expect, it } from "vitest";
import { runWhenIdle } from "../../src/lib/healing/idle";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits (idle) until `ran()` or 5 s. */
async function idleUntil(ran: () => boolean): Promise<void> {
  const end = performance.now() + 5_000;
  while (!ran() && performance.now() < end) await sleep(20);
}

/**
 * Keeps the event loop busy: 50 ms blocks of synchronous work, one after another, for `ms`. Returns when the last
 * block ended: the loop may run a timer between that block and this function's return, so the quiet period starts
 * there, not at the return.
 */
async function keepBusy(ms: number): Promise<number> {
  const end = performance.now() + ms;
  let lastBlockEnd = performance.now();
  while (lastBlockEnd < end) {
    const blockEnd = performance.now() + 50;
    while ((lastBlockEnd = performance.now()) < blockEnd) {
      // Busy, as module loading or a PGlite query is.
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return lastBlockEnd;
}

describe("runWhenIdle", () => {
  it("runs the task once the event loop has been idle for the quiet period", async () => {
    let ranAt: number | undefined;
    const start = performance.now();
    runWhenIdle(() => (ranAt = performance.now()), { quietMs: 100 });
    await idleUntil(() => ranAt !== undefined);
    expect(ranAt).toBeDefined();
    expect(ranAt! - start).toBeGreaterThanOrEqual(100);
  });

  it("waits while the event loop is busy, and runs the task after", async () => {
    let ranAt: number | undefined;
    runWhenIdle(() => (ranAt = performance.now()), { quietMs: 100 });
    const busyEnded = await keepBusy(600);
    expect(ranAt).toBeUndefined();
    await idleUntil(() => ranAt !== undefined);
    expect(ranAt).toBeDefined();
    expect(ranAt! - busyEnded).toBeGreaterThanOrEqual(100);
  });

  it("runs the task once", async () => {
    let runs = 0;
    runWhenIdle(() => runs++, { quietMs: 40 });
    await idleUntil(() => runs > 0);
    await sleep(300);
    expect(runs).toBe(1);
  });
});
