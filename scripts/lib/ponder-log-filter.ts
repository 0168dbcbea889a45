import { Transform, type TransformCallback } from "node:stream";

/**
 * Ponder logs an "Indexed block" and a "Finalized block" line for every block of every chain once it follows the
 * chains: with the devnet's one block a second on three chains, 15,000 lines in 85 idle minutes, which bury
 * everything else. This filter, between Ponder's output and its log file, keeps what an operator needs:
 * - every other line as it is (backfill progress, "Indexed block range", warnings, errors, reorgs);
 * - a block that had events, as Ponder logged it (a change);
 * - for the blocks without events and the finalized blocks, one summary line per chain and interval (a minute by
 *   default), written when the next line arrives after the interval, or when the stream ends.
 */

// Ponder's pretty format: `HH:MM:SS.mmm INFO  Indexed block chain=x number=5 event_count=0 (2ms)`, matched without its
// colours (picocolors colours it whenever FORCE_COLOR is set at all, "0" included).
const BLOCK_LINE =
  /^(\S+)\s+INFO\s+(Indexed|Finalized) block chain=(\S+)(?: chain_id=\d+)? number=(\d+)(?: event_count=(\d+))?/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC starts the ANSI colour codes this strips
const ANSI = /\u001b\[[0-9;]*m/g;

interface ChainActivity {
  indexed: number;
  lastIndexed?: number;
  lastFinalized?: number;
}

export interface FollowingLogSummaryOptions {
  intervalMs?: number;
  now?: () => number;
}

export class FollowingLogSummary extends Transform {
  private readonly intervalMs: number;
  private readonly now: () => number;
  private pending = "";
  private windowStart: number;
  private readonly chains = new Map<string, ChainActivity>();

  constructor(options: FollowingLogSummaryOptions = {}) {
    super();
    this.intervalMs = options.intervalMs ?? 60_000;
    this.now = options.now ?? Date.now;
    this.windowStart = this.now();
  }

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, callback: TransformCallback): void {
    const lines = (this.pending + chunk.toString()).split("\n");
    this.pending = lines.pop() ?? "";
    const out: string[] = [];
    for (const line of lines) this.takeLine(line, out);
    if (out.length > 0) this.push(out.join(""));
    callback();
  }

  override _flush(callback: TransformCallback): void {
    const out: string[] = [];
    if (this.pending !== "") this.takeLine(this.pending, out);
    this.summarize(out);
    if (out.length > 0) this.push(out.join(""));
    callback();
  }

  private takeLine(line: string, out: string[]): void {
    if (this.now() - this.windowStart >= this.intervalMs) this.summarize(out);
    const block = BLOCK_LINE.exec(line.replace(ANSI, ""));
    if (!block) {
      out.push(`${line}\n`);
      return;
    }
    const [, , kind, chain, number, events] = block;
    const activity = this.chains.get(chain) ?? { indexed: 0 };
    this.chains.set(chain, activity);
    if (kind === "Finalized") {
      activity.lastFinalized = Number(number);
      return;
    }
    activity.indexed++;
    activity.lastIndexed = Number(number);
    if (Number(events ?? 0) > 0) out.push(`${line}\n`);
  }

  private summarize(out: string[]): void {
    const seconds = Math.round((this.now() - this.windowStart) / 1000);
    this.windowStart = this.now();
    const parts = [...this.chains]
      .filter(([, a]) => a.indexed > 0 || a.lastFinalized !== undefined)
      .map(([chain, a]) => {
        const at = a.lastIndexed !== undefined ? ` at block ${a.lastIndexed}` : "";
        const finalized = a.lastFinalized !== undefined ? `, finalized ${a.lastFinalized}` : "";
        return `${chain}${at} (${a.indexed} block${a.indexed === 1 ? "" : "s"} indexed${finalized})`;
      });
    this.chains.clear();
    if (parts.length === 0) return;
    out.push(
      `${clock(new Date(this.windowStart))} INFO  Following the chains, last ${seconds} s: ${parts.join("; ")}\n`,
    );
  }
}

function clock(date: Date): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, "0");
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}`;
}
