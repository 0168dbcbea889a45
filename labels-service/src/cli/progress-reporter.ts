import type { IngestProgress } from "../ingest/run-ingest.js";

const BAR_WIDTH = 30;
// Without a terminal (CI logs, files) one line per interval is readable; a redrawn bar is not.
const PLAIN_INTERVAL_MS = 5000;

const thousands = (n: number) => Math.round(n).toLocaleString("en-US");

function duration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return "?";
  const s = Math.round(seconds);
  return s >= 3600
    ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`
    : s >= 60
      ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`
      : `${s}s`;
}

/** A progress bar with rate and ETA on a terminal; plain periodic lines otherwise. */
export function createProgressReporter(stream: NodeJS.WriteStream = process.stderr) {
  const tty = stream.isTTY === true;
  let lastPlain = 0;
  return {
    update(p: IngestProgress) {
      const fraction = p.totalBytes ? Math.min(1, p.bytesRead / p.totalBytes) : null;
      const summary = `${thousands(p.records)} labels  ${thousands(p.recordsPerSecond)}/s  elapsed ${duration(p.elapsedSeconds)}  ETA ${duration(p.etaSeconds)}`;
      if (tty) {
        const filled = fraction === null ? 0 : Math.round(fraction * BAR_WIDTH);
        const bar = `[${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}] ${fraction === null ? "  ?" : `${Math.floor(fraction * 100)}`.padStart(3)}%`;
        stream.write(`\r${bar}  ${summary}\x1b[K`);
      } else if (p.elapsedSeconds * 1000 - lastPlain >= PLAIN_INTERVAL_MS) {
        lastPlain = p.elapsedSeconds * 1000;
        stream.write(`ingest: ${fraction === null ? "" : `${Math.floor(fraction * 100)}% `}${summary}\n`);
      }
    },
    done() {
      if (tty) stream.write("\n");
    },
  };
}
