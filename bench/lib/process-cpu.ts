import { readdirSync, readFileSync } from "node:fs";

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
  return cpuMs(processTable(), root, undefined);
}

/**
 * CPU time of a process tree plus the local PostgreSQL server's backends connected to one database (their process
 * title names it), in ms: what answering a query costs on both sides, whatever else the machine is doing.
 */
export function treeAndPostgresCpuMs(root: number, database: string): number {
  const { tree, postgres } = cpuSplitMs(root, database);
  return tree + postgres;
}

/** The same two figures apart: the process tree's CPU and the database's backends' CPU, in ms. */
export function cpuSplitMs(root: number, database: string): { tree: number; postgres: number } {
  const stats = processTable();
  return { tree: cpuMs(stats, root, undefined), postgres: postgresCpuMs(stats, database) };
}

function postgresCpuMs(stats: Map<number, ProcStat>, database: string): number {
  let ticks = 0;
  for (const s of stats.values()) if (s.cmdline.startsWith("postgres: ") && s.cmdline.includes(` ${database} `)) ticks += s.ticks;
  return ticks * 10;
}

function cpuMs(stats: Map<number, ProcStat>, root: number, database: string | undefined): number {
  let ticks = 0;
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    ticks += stats.get(pid)?.ticks ?? 0;
    for (const [child, s] of stats) if (s.ppid === pid) queue.push(child);
  }
  return ticks * 10 + (database ? postgresCpuMs(stats, database) : 0);
}
