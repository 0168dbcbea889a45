import { VALID_TO_PENDING } from "./version";

/*
 * Each history version's `valid_to`: the version of the id's next one, NULL while it is the last (ponder.schema.ts,
 * "History of the subgraph's mutable entities"). A query at a block then tests each version by its own columns
 * (`version <= block < valid_to`), as graph-node's block ranges do, instead of probing the (id, version) key for a
 * newer version of every row it walks (src/api/subgraph/history.ts).
 *
 * The writer cannot know the next version, nor, without reading it, the previous one: it inserts `valid_to =
 * VALID_TO_PENDING`, and a trigger of the database fills it in as the row is inserted (its successor, if one is
 * there already) and closes the previous version's. So it happens in the flush's own statement, in the block's
 * transaction, and Ponder's reorg handling records the previous version's update as it records any, and reverts it.
 * A row that arrives with another `valid_to` (Ponder putting back a reverted or pruned row) is left as it is; an
 * update that carries the pending value (Ponder writing a cached row again) keeps the table's.
 *
 * During the backfill the write-behind store settles the versions it holds itself (the next version in its batch, and
 * one UPDATE per table for each id's earlier one: src/plugins/shared/write-behind/history-valid-to.ts) and hands them
 * over with `valid_to` set, which the trigger leaves alone.
 *
 * install-trigger.ts installs it when `ponder start` starts, before indexing does (CREATE OR REPLACE: a resumed or
 * restored index gets it again), so no version is ever committed pending and readers never meet the value.
 */

const PENDING = VALID_TO_PENDING.toString();
const FILLFACTOR = 80;

/** The statements that install the trigger on `<schemaName>.<table>`. */
export function validToTriggerSql(schemaName: string, table: string): string[] {
  const t = `"${schemaName}"."${table}"`;
  const fn = `"${schemaName}"."nameindex_valid_to_${table}"`;
  return [
    // Room on each page for the update that closes a version (most are closed once): an update that stays on its
    // page (HOT) writes none of the table's indexes, and domain_history has nine.
    `ALTER TABLE ${t} SET (fillfactor = ${FILLFACTOR})`,
    `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF NEW.valid_to = ${PENDING} THEN NEW.valid_to := OLD.valid_to; END IF;
    RETURN NEW;
  END IF;
  IF NEW.valid_to IS DISTINCT FROM ${PENDING} THEN RETURN NEW; END IF;
  SELECT min(n.version) INTO NEW.valid_to FROM ${t} n WHERE n.id = NEW.id AND n.version > NEW.version;
  UPDATE ${t} p SET valid_to = NEW.version
   WHERE p.id = NEW.id AND p.version = (SELECT max(m.version) FROM ${t} m WHERE m.id = NEW.id AND m.version < NEW.version)
     AND p.valid_to IS DISTINCT FROM NEW.version;
  RETURN NEW;
END $$`,
    // Only a pending version calls the function: a settled one (the write-behind store's, a row Ponder puts back) is
    // left as it is, and the WHEN test costs a fraction of a PL/pgSQL call per row of the backfill's COPY.
    `CREATE OR REPLACE TRIGGER "nameindex_valid_to" BEFORE INSERT OR UPDATE ON ${t} FOR EACH ROW WHEN (NEW.valid_to = ${PENDING}) EXECUTE FUNCTION ${fn}()`,
  ];
}
