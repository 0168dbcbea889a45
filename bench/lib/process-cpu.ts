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
