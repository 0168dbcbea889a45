/*
 * The Graph compares and sorts strings byte by byte: graph-node refuses to start on a database whose locale is not C.
 * /subgraph's `orderBy: name`, `orderBy: id`, `name_gt` and the like run in PostgreSQL with the database's default
 * collation, so on a database created with another (`en_US.UTF-8`, or an ICU locale) they answer in a different
 * order than The Graph: `a` before `B`, `é` before `f` (glibc's en_US also ignores punctuation: `1000-1` before
 * `100-2`). PGlite's databases are C. The probe asks the collation's behaviour rather than its name, because an ICU
 * database still reports `datcollate = 'C.UTF-8'`.
 */
const BYTE_ORDER_PROBE = "SELECT ('B' < 'a' AND '100-2' < '1000-1' AND 'f' < 'é') AS byte_order";

/** A warning for the operator when the database orders text other than byte-wise; undefined when it is byte-wise. */
export async function textOrderWarning(
  readSql: (query: string) => Promise<Record<string, unknown>[]>,
): Promise<string | undefined> {
  const [row] = await readSql(BYTE_ORDER_PROBE);
  if (row?.byte_order === true) return undefined;
  return (
    "The database does not order text byte-wise (its default collation is not C): /subgraph's orderBy and _gt/_lt " +
    "on text fields will not answer in The Graph's order. Create the database with LC_COLLATE 'C' (or " +
    "LOCALE 'C' and the libc provider), as graph-node requires."
  );
}
