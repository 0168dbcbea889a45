import { readdirSync, readFileSync } from "node:fs";
import { setPriority } from "node:os";

/*
 * V8's helper threads (Node names them `V8Worker`: parallel scavenges, concurrent marking and sweeping, background
 * compiles) at a lower scheduling priority than the indexer's main thread. The main thread runs every handler and is
 * the backfill's critical path; on a machine whose cores it shares with its database (and, in the benchmarks, with the
 * RPC node), the helpers took whole cores from it: at 50,000 names on 2 cores the main thread spent 74 s of a 243 s
 * backfill runnable but waiting for a core, while the helpers ran 46 s (`/proc/<pid>/task/<tid>/schedstat`;
 * docs/benchmarks.md, "Who waits for a core"). Niced, they run when a core is otherwise idle, and where V8 needs
 * their work done (a scavenge's pause) the main thread does it itself: whether that wins depends on the machine (on
 * the same 2 cores it won ~8 % one day and lost ~10 % another), so it is off unless an operator sets it. On a machine
 * with idle cores nothing changes.
 */

/** Linux's thread name for V8's platform workers in Node.js. */
const V8_HELPER = "V8Worker";

/**
 * Sets the nice value of this process's V8 helper threads to `nice` (1–19: lower priority; 0 leaves them alone).
 * Linux only (the threads are read from /proc); elsewhere, or where a thread cannot be changed, nothing happens:
 * it is a scheduling preference, never a condition to run. Returns how many threads it changed.
 */
export function lowerGcHelperPriority(nice: number): number {
  if (nice === 0 || process.platform !== "linux") return 0;
  let changed = 0;
  let tids: string[];
  try {
    tids = readdirSync("/proc/self/task");
  } catch {
    return 0;
  }
  for (const tid of tids) {
    try {
      if (readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim() !== V8_HELPER) continue;
      // setpriority(PRIO_PROCESS, tid) on Linux sets that one thread's nice value; raising it needs no privilege.
      setPriority(Number(tid), nice);
      changed += 1;
    } catch {
      // A thread that ended meanwhile, or a sandbox that refuses: the priority stays as it was.
    }
  }
  return changed;
}
