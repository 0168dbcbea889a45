import { readFileSync } from "node:fs";
import { type RunningIndexer, waitFor } from "../../../harness/indexer-harness";
import type { BlockRef } from "./reorg-scenario";

/* Following the head: what an indexer's API shows of the chain it follows, and the reorgs it reconciled. */

export async function subgraph<T>(url: string, query: string): Promise<T> {
  const res = await fetch(`${url}/subgraph`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query }),
  });
  const body = (await res.json()) as { data?: T; errors?: unknown };
  if (!res.ok || body.errors || !body.data)
    throw new Error(`subgraph query failed (${res.status}): ${JSON.stringify(body.errors)}`);
  return body.data;
}

export async function metaBlock(url: string): Promise<{ number: number; hash: string | null } | null> {
  const data = await subgraph<{ _meta: { block: { number: number; hash: string | null } | null } }>(
    url,
    "{ _meta { block { number hash } } }",
  );
  return data._meta.block;
}

/** Waits until `_meta.block` is exactly the chain's head (number and hash). */
export async function waitForHead(url: string, head: BlockRef, what: string): Promise<number> {
  const started = Date.now();
  let seen: unknown;
  await waitFor(
    async () => {
      const block = (seen = await metaBlock(url));
      return block?.number === head.number && block.hash === head.hash;
    },
    120_000,
    `${what}: the index at block ${head.number} (${head.hash})`,
  ).catch((error: Error) => {
    throw new Error(`${error.message}; _meta.block last showed ${JSON.stringify(seen)}`);
  });
  return Date.now() - started;
}

/**
 * Reorgs Ponder reconciled on the root chain, from its debug log, so a pass cannot come from a reorg Ponder never saw.
 */
export function reorgsLogged(indexer: RunningIndexer): string[] {
  return readFileSync(indexer.logFile, "utf8")
    .split("\n")
    .filter((line) => line.includes("Reconciled reorg in local chain"));
}

/**
 * `ponder_realtime_reorg_total` on the indexer's /metrics, summed over chains (Ponder 0.17.7 declares the counter and
 * never increments it; the ponder patch does, once per reconciled reorg).
 */
export async function reorgMetric(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return text
    .split("\n")
    .filter((line) => line.startsWith("ponder_realtime_reorg_total{"))
    .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);
}
