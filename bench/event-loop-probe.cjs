// Preloaded into the indexer by bench:status (NODE_OPTIONS=--require): once a second, appends the longest event-loop
// stall of that second to EVENT_LOOP_PROBE_LOG, so the bench can show how much of a route's latency is the indexer
// keeping its own event loop busy rather than the route.
const { appendFileSync } = require("node:fs");
const { monitorEventLoopDelay } = require("node:perf_hooks");

const log = process.env.EVENT_LOOP_PROBE_LOG;
if (log) {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  setInterval(() => {
    appendFileSync(log, `${Date.now()} ${Math.round(delay.max / 1e6)}\n`);
    delay.reset();
  }, 1_000).unref();
}
