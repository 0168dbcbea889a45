import { readdirSync, readFileSync } from "node:fs";

/*
 * What a process costs in CPU, read from Linux's /proc: of one process, or of a process tree and the database's
 * backends. The benches measure through these; resident memory is harness/process-memory.ts's.
 */

/** CPU time (user + system) the process has used so far, in ms, its threads included (clock ticks at USER_HZ = 100). */
export function processCpuMs(pid: number): number {
  const text = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

interface ProcStat {
  ppid: number;
  /** user + system, in clock ticks (100 per second on Linux). */
  ticks: number;
  cmdline: string;
}

function processTable(): Map<number, ProcStat> {
  const stats = new Map<number, ProcStat>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ");
      stats.set(Number(entry), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]), cmdline });
    } catch {
      // Gone meanwhile.
    }
  }
  return stats;
}

/** CPU time (user + system) of a process and its descendants, in ms (Linux /proc). */
export function treeCpuMs(root: number): number {
  return cpuMs(processTable(), root);
}

/**
 * CPU so far of a process tree and of the database's backends, kept per backend: a backend that exits between two
 * readings (Ponder's pools close connections idle for 10 s, e.g. the backfill's after /ready) would otherwise take
 * its whole CPU time out of the difference. Subtract two readings with `cpuSpentMs`.
 */
export interface CpuReading {
  tree: number;
  backends: Map<number, number>;
}

export function cpuReading(root: number, database: string): CpuReading {
  const stats = processTable();
  const backends = new Map<number, number>();
  for (const [pid, s] of stats) if (isBackendOf(s, database)) backends.set(pid, s.ticks * 10);
  return { tree: cpuMs(stats, root), backends };
}

/** CPU spent between two readings: the tree's, and the backends' (those alive at the second reading). */
export function cpuSpentMs(before: CpuReading, after: CpuReading): { tree: number; postgres: number } {
  let postgres = 0;
  for (const [pid, ms] of after.backends) postgres += ms - (before.backends.get(pid) ?? 0);
  return { tree: after.tree - before.tree, postgres };
}

const isBackendOf = (s: ProcStat, database: string) =>
  s.cmdline.startsWith("postgres: ") && s.cmdline.includes(` ${database} `);

function cpuMs(stats: Map<number, ProcStat>, root: number): number {
  let ticks = 0;
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    ticks += stats.get(pid)?.ticks ?? 0;
    for (const [child, s] of stats) if (s.ppid === pid) queue.push(child);
  }
  return ticks * 10;
}

/** A process's threads grouped by name: seconds on a core, and seconds runnable but waiting for one. */
export type ThreadSchedule = Map<string, { runS: number; waitS: number }>;

/**
 * Where a process's threads spent their time so far, by thread name (Linux's /proc/<pid>/task/<tid>/schedstat: ns on
 * a core, ns waiting on a run queue). The wait is the time a thread was ready to run and no core was free: on a machine
 * shared with the database (and the benchmark's RPC node), what the main thread loses to the other processes and to
 * the process's own helper threads.
 */
export function threadSchedule(pid: number): ThreadSchedule {
  const out: ThreadSchedule = new Map();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim();
      const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ").map(Number);
      const t = out.get(name) ?? { runS: 0, waitS: 0 };
      t.runS += run! / 1e9;
      t.waitS += wait! / 1e9;
      out.set(name, t);
    } catch {
      // A thread that ended meanwhile.
    }
  }
  return out;
}

/** "MainThread 130.3 s on a core, 55.3 s waiting for one; V8Worker …", the threads with the most time first. */
export function formatThreadSchedule(schedule: ThreadSchedule): string {
  return [...schedule]
    .filter(([, t]) => t.runS + t.waitS >= 0.5)
    .sort((a, b) => b[1].runS + b[1].waitS - (a[1].runS + a[1].waitS))
    .map(([name, t]) => `${name} ${t.runS.toFixed(1)} s on a core, ${t.waitS.toFixed(1)} s waiting for one`)
    .join("; ");
}
