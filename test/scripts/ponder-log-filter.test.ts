import { describe, expect, it } from "vitest";
import { FollowingLogSummary } from "../../scripts/lib/ponder-log-filter";

/** Feeds `chunks` through the filter, advancing a fake clock by `stepMs` per chunk, and returns the output lines. */
async function filter(chunks: string[], stepMs: number, intervalMs = 60_000): Promise<string[]> {
  let now = 0;
  const summary = new FollowingLogSummary({ intervalMs, now: () => now });
  let out = "";
  summary.on("data", (d) => (out += d));
  const done = new Promise((resolve) => summary.on("end", resolve));
  for (const chunk of chunks) {
    summary.write(chunk);
    now += stepMs;
  }
  summary.end();
  await done;
  return out.split("\n").filter((l) => l !== "");
}

const indexed = (chain: string, n: number, events = 0) =>
  `12:00:00.000 INFO  Indexed block chain=${chain} chain_id=1 number=${n} event_count=${events} (2ms)\n`;
const finalized = (chain: string, n: number) =>
  `12:00:00.000 INFO  Finalized block chain=${chain} chain_id=1 number=${n} (1ms)\n`;

describe("following-mode log summary", () => {
  it("turns a block a second on three chains into one line per chain a minute, keeping blocks with events and other lines", async () => {
    const chunks: string[] = [];
    for (let s = 1; s <= 180; s++)
      chunks.push(indexed("root", s) + indexed("base", s) + indexed("linea", s) + finalized("root", s + 1000));
    chunks[89] += indexed("base", 1000, 3);
    chunks[100] += "12:01:40.000 WARN  Reorged block chain=base\n";
    const lines = await filter(chunks, 1000);
    expect(lines.filter((l) => l.includes("Following the chains"))).toHaveLength(3);
    expect(lines).toContain(indexed("base", 1000, 3).trim());
    expect(lines).toContain("12:01:40.000 WARN  Reorged block chain=base");
    expect(lines).toHaveLength(5);
    expect(lines[0]).toMatch(
      /Following the chains, last 60 s: root at block 60 \(60 blocks indexed, finalized 1060\); base at block 60 \(60 blocks indexed\); linea at block 60/,
    );
  });

  it("reads Ponder's lines as it prints them: without chain_id, and coloured", async () => {
    const coloured =
      "\u001b[2m17:45:34.281\u001b[22m \u001b[32mINFO \u001b[39m \u001b[0mIndexed block\u001b[0m\u001b[2m chain=devnetBase number=195 event_count=0\u001b[22m \u001b[90m(121ms)\u001b[39m\n";
    const plain = "17:45:56.731 INFO  Finalized block chain=devnetRoot number=167 (402ms)\n";
    const lines = await filter([coloured, plain], 10);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /devnetBase at block 195 \(1 block indexed\); devnetRoot \(0 blocks indexed, finalized 167\)/,
    );
  });

  it("passes backfill lines through unchanged, split across chunks, and summarizes the rest at the end", async () => {
    const backfill =
      "12:00:00.000 INFO  Indexed block range chain=root chain_id=1 event_count=12 block_range=[1,40] (5ms)\n";
    const lines = await filter(
      [backfill.slice(0, 20), backfill.slice(20), indexed("root", 41), "no newline at the end"],
      10,
    );
    expect(lines[0]).toBe(backfill.trim());
    expect(lines[1]).toBe("no newline at the end");
    expect(lines[2]).toMatch(/Following the chains, last 0 s: root at block 41 \(1 block indexed\)/);
  });
});
