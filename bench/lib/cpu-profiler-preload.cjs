/*
 * Loaded with `node --require` (NODE_OPTIONS accepts it; Node 20 refuses --cpu-prof there): a V8 CPU profile of the
 * process, written as <NAMEINDEX_CPU_PROF_DIR>/cpu-<pid>-<time>.cpuprofile (open in Chrome DevTools or speedscope).
 * It profiles from the start; with NAMEINDEX_CPU_PROF_MODE=signal each SIGUSR2 writes the profile so far and stops,
 * or starts a new one (start → 1st signal: the backfill; 2nd → 3rd: the queries), and at exit the one running.
 */
const inspector = require("node:inspector");
const { writeFileSync, mkdirSync } = require("node:fs");
const { join } = require("node:path");

const dir = process.env.NAMEINDEX_CPU_PROF_DIR;
if (dir) {
  const session = new inspector.Session();
  session.connect();
  session.post("Profiler.enable");
  session.post("Profiler.setSamplingInterval", { interval: 200 });
  let running = false;
  const start = () => {
    session.post("Profiler.start");
    running = true;
  };
  // In-process inspector messages are dispatched synchronously, so this also works inside an 'exit' handler.
  const stop = () => {
    if (!running) return;
    running = false;
    session.post("Profiler.stop", (error, result) => {
      if (error) return;
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `cpu-${process.pid}-${Date.now()}.cpuprofile`), JSON.stringify(result.profile));
    });
  };
  start();
  if (process.env.NAMEINDEX_CPU_PROF_MODE === "signal") process.on("SIGUSR2", () => (running ? stop() : start()));
  process.on("exit", stop);
}
