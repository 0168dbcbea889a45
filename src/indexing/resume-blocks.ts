import { sql } from "drizzle-orm";
import { decodeCheckpointBlock } from "../lib/ponder-checkpoint";
import { rowsOf } from "../lib/sql-rows";
import { type PonderDatabaseHandle, ponderDatabase, ponderDatabaseSchema } from "../runtime/ponder-hooks";

/*
 * Where this run of `ponder start` indexes each chain from. A new index starts every chain at its start block; a
 * resumed one (a restart, an upgrade that kept the schema, a restored snapshot) at the block of Ponder's safe
 * checkpoint, the one crash recovery reverts to. Work that stays ahead of the handlers from start-up (the label
 * prefetch) starts there, rather than reading the chains' first blocks again at every start. Found as Ponder's own
 * resume finds it (`runtime/historical.js`): the checkpoint's block when it names the chain's own event; under
 * omnichain ordering it may name another chain's, and the chain then resumes at its last synced block before that
 * timestamp (none: at its start).
 */

const POLL_MS = 50;

/** Ponder's database once it has migrated the schema (set before indexing starts, after the indexing files ran). */
function migratedDatabase(): Promise<PonderDatabaseHandle> {
  return new Promise((resolve) => {
    const found = ponderDatabase();
    if (found) return resolve(found);
    const timer = setInterval(() => {
      const db = ponderDatabase();
      if (!db) return;
      clearInterval(timer);
      resolve(db);
    }, POLL_MS);
    // Waiting must never keep a process alive that has nothing else to do.
    timer.unref();
  });
}

/** Each resumed chain's first block to index; empty for a new index (`_ponder_checkpoint` has no row yet). */
export async function readResumeBlocks(): Promise<Map<number, bigint>> {
  const db = (await migratedDatabase()).readonlyQB.raw;
  const schema = ponderDatabaseSchema();
  const table = schema ? sql`${sql.identifier(schema)}._ponder_checkpoint` : sql`_ponder_checkpoint`;
  const checkpoints = rowsOf<{ chain_id: string; safe_checkpoint: string }>(
    await db.execute(sql`select chain_id::text as chain_id, safe_checkpoint from ${table}`),
  );
  const out = new Map<number, bigint>();
  for (const row of checkpoints) {
    const chainId = Number(row.chain_id);
    const checkpoint = decodeCheckpointBlock(row.safe_checkpoint);
    if (checkpoint.chainId === chainId) {
      out.set(chainId, BigInt(checkpoint.number));
      continue;
    }
    const [synced] = rowsOf<{ number: string }>(
      await db.execute(
        sql`select number::text as number from ponder_sync.blocks where chain_id = ${chainId} and timestamp < ${checkpoint.timestamp} order by number desc limit 1`,
      ),
    );
    if (synced) out.set(chainId, BigInt(synced.number));
  }
  return out;
}
