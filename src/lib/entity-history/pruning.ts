import type { Context } from "ponder:registry";
import { sql } from "drizzle-orm";
import { getConfig } from "../../config";
import { HISTORY_TABLES } from "./tables";
import { lastVersionOf } from "./version";

/*
 * SUBGRAPH_HISTORY_BLOCKS=N: the entity history below the last N blocks of the ENS root chain is pruned, as
 * graph-node prunes a deployment's history. At a boundary block B, each id keeps its last version at or below B (the
 * state at B, which queries in the window start from) and everything after; versions it superseded at or below B, and
 * a deletion at or below B that is its last, go. /subgraph refuses a block before the window whether or not its
 * versions are gone yet (src/api/subgraph/at-block.ts), so pruning is garbage collection: when it runs changes no
 * answer.
 *
 * It runs inside a root-chain event's handler, so it is part of that block's transaction (a reorg of the block puts
 * the rows back, to be pruned again). A delete through Ponder's `db.sql` flushes and empties the row cache, so it runs
 * at most once per NAMEINDEX_HISTORY_PRUNE_SECONDS (default 600) and only once the head has moved N/10 blocks (at
 * least one) past the last boundary.
 */

let lastRun = 0;
let lastBoundary = -1n;
/** The first block whose boundary is positive and a step past the last one (0: not known yet). */
let nextDueBlock = 0n;

/**
 * Prunes when due, else returns undefined at once: it is asked at every root-chain event, and below the next due
 * block that costs one comparison and allocates nothing.
 */
export function pruneEntityHistory(
  context: Pick<Context, "db" | "client" | "chain">,
  block: { number: bigint },
): Promise<void> | undefined {
  if (block.number < nextDueBlock) return undefined;
  const config = getConfig();
  const retained = config.subgraphHistoryBlocks;
  if (retained === null || retained === 0) return undefined;
  if (context.chain.id !== config.namespace.datasources.ensroot?.chain.id) return undefined;
  if (nextDueBlock === 0n) nextDueBlock = dueBlock(retained);
  if (block.number < nextDueBlock) return undefined;
  const now = Date.now();
  if (now - lastRun < config.historyPruneSeconds * 1000) return undefined;
  lastRun = now;
  lastBoundary = block.number - BigInt(retained);
  nextDueBlock = dueBlock(retained);
  return prune(context, lastBoundary);
}

/** The boundary (the block N blocks below the event's) must be positive and N/10 blocks (at least one) past the last. */
function dueBlock(retained: number): bigint {
  const next = lastBoundary + BigInt(Math.max(1, Math.floor(retained / 10)));
  return BigInt(retained) + (next > 0n ? next : 1n);
}

async function prune(context: Pick<Context, "db" | "client" | "chain">, boundary: bigint): Promise<void> {
  const { timestamp } = await context.client.getBlock({ blockNumber: boundary });
  const upTo = lastVersionOf({ timestamp, chainId: context.chain.id, blockNumber: boundary });
  const bound = sql`${upTo.toString()}::numeric`;
  for (const table of HISTORY_TABLES) {
    await context.db.sql.execute(
      // Superseded at or below B: its `valid_to` (settled when the version was committed) says so.
      sql`DELETE FROM ${table} AS "h" WHERE "h"."version" <= ${bound} AND ("h"."deleted" OR "h"."valid_to" <= ${bound})`,
    );
  }
}
