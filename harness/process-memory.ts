import { readFileSync } from "node:fs";

/*
 * A process's resident memory, read from Linux's /proc (its CPU time: bench/lib/process-cpu.ts). The load test and
 * bench:labels measure through it.
 */

/**
 * Resident memory in MiB, NaN once the process has exited. `RssAnon` leaves out file pages (a memory-mapped
 * database: the OS page cache).
 */
export function processRssMb(pid: number, field: "VmRSS" | "RssAnon" = "VmRSS"): number {
  try {
    const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}
