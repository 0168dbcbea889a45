import { type Queryable, quoteIdent } from "./queryable";

/**
 * Renames a restored index schema to the target's DATABASE_SCHEMA. Ponder's trigger functions name their schema in
 * their bodies, so those are rewritten too.
 */
export async function renameSchema(db: Queryable, from: string, to: string): Promise<void> {
  await db.query(`alter schema ${quoteIdent(from)} rename to ${quoteIdent(to)}`);
  const { rows } = await db.query<{ def: string }>(
    `select pg_get_functiondef(p.oid) as def from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = $1`,
    [to],
  );
  for (const { def } of rows) {
    const rewritten = def.replaceAll(`${quoteIdent(from)}.`, `${quoteIdent(to)}.`);
    if (rewritten !== def) await db.query(rewritten);
  }
}

/** Clears Ponder's lock, which a snapshot of a running indexer holds: the restored index has no writer yet. */
export async function unlockIndex(db: Queryable, schema: string): Promise<void> {
  await db.query(
    `update ${quoteIdent(schema)}."_ponder_meta" set value = jsonb_set(value, '{is_locked}', '0') where key = 'app'`,
  );
}
