import { performance } from "node:perf_hooks";

/**
 * Runs `task` once the main thread has been idle for `quietMs` (its event loop utilization at most
 * `maxUtilization`), like a browser's requestIdleCallback. `ponder start` keeps the main thread busy from module
 * loading to the backfill's start, then waits on its first JSON-RPC answers (one to a few seconds); a warm-up run from
 * here lands in that wait instead of lengthening start-up. Opportunistic: a process that is never idle never runs it,
 * so `task` must be something the code that needs it would do anyway on first use.
 */
export function runWhenIdle(task: () => void, { quietMs = 200, tickMs = 50, maxUtilization = 0.1 } = {}): void {
  let quietFor = 0;
  let last = performance.eventLoopUtilization();
  const tick = () => {
    const now = performance.eventLoopUtilization();
    const { utilization, idle, active } = performance.eventLoopUtilization(now, last);
    last = now;
    quietFor = utilization <= maxUtilization ? quietFor + idle + active : 0;
    if (quietFor >= quietMs) return task();
    setTimeout(tick, tickMs).unref();
  };
  setTimeout(tick, tickMs).unref();
}
