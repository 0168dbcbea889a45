import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { onchainTable } from "ponder";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createDatabase, dropDatabase } from "../../harness/indexer-harness";
import { CHARS_PER_BUFFER, copyRows, ROWS_PER_PIECE } from "../../src/plugins/shared/write-behind/copy";
import { copyText } from "../../src/plugins/shared/write-behind/rows";
import { writeTable } from "../../src/plugins/shared/write-behind/writes";
import type { PonderBatchTransaction } from "../../src/runtime/ponder-hooks";

/*
 * The write-behind store writes a table's rows of a batch in pieces of ROWS_PER_PIECE (copy.ts,
 * writes.ts), its COPY text in buffers of CHARS_PER_BUFFER characters, so a batch's whole text is never held at once.
 * Past two pieces and dozens of buffers, every row arrives once and as written, values COPY must escape and
 * characters of several bytes included, on the seams between pieces and buffers too.
 */

const piece = onchainTable("wb_piece", (t) => ({
  id: t.text().primaryKey(),
  n: t.bigint().notNull(),
  note: t.text(),
  tags: t.text().array(),
}));

const DATABASE = `wb_pieces_${Date.now().toString(36)}`;
const ROWS = 2 * ROWS_PER_PIECE + 1234;
let client: pg.Client;
const tx = (): PonderBatchTransaction => ({ $dialect: "postgres", $client: client });

/**
 * A value COPY must escape (tab, newline, backslash) on every row next to a piece's seam; elsewhere text of one to four
 * UTF-8 bytes a character, so that the buffers' seams (CHARS_PER_BUFFER characters, not bytes) fall after every kind.
 */
const noteOf = (i: number, tag: string) =>
  i % ROWS_PER_PIECE <= 1 || i % ROWS_PER_PIECE >= ROWS_PER_PIECE - 2
    ? `${tag}\t${i}\n\\x${i}`
    : `${tag} ${i} ${["", "é", "名前", "🦄"][i % 4]}`;
const rowsOf = (tag: string, n: (i: number) => bigint) =>
  Array.from({ length: ROWS }, (_, i) => ({
    id: `id-${String(i).padStart(6, "0")}`,
    n: n(i),
    note: i % 997 === 0 ? null : noteOf(i, tag),
    tags: [tag, `{${i}}`, 'quote"d'],
  }));

const stored = async () =>
  (
    await client.query<{ id: string; n: string; note: string | null; tags: string[] }>(
      "SELECT id, n::text AS n, note, tags FROM wb_piece ORDER BY id",
    )
  ).rows;
const asStored = (rows: ReturnType<typeof rowsOf>) => rows.map((r) => ({ ...r, n: r.n.toString() }));

beforeAll(async () => {
  client = new pg.Client({ connectionString: await createDatabase(DATABASE) });
  await client.connect();
  await client.query("CREATE TABLE wb_piece (id text PRIMARY KEY, n numeric(78,0) NOT NULL, note text, tags text[])");
});

afterAll(async () => {
  await client?.end();
  await dropDatabase(DATABASE);
});

it(`COPYs ${ROWS} rows in pieces of ${ROWS_PER_PIECE}, then updates them all in pieces, each row once and as written`, async () => {
  const inserted = rowsOf("new", (i) => BigInt(i) * 10n ** 40n);
  // The rows' text spans dozens of buffers, so the seams below are crossed many times.
  expect(copyText(piece, inserted).length).toBeGreaterThan(20 * CHARS_PER_BUFFER);
  await client.query("BEGIN");
  await copyRows(tx(), piece, inserted);
  await client.query("COMMIT");
  expect(await stored()).toEqual(asStored(inserted));

  const updated = rowsOf("changed", (i) => BigInt(i) + 1n);
  await client.query("BEGIN");
  await writeTable(tx(), piece, { inserts: [], updates: updated, deletes: [] });
  await client.query("COMMIT");
  expect(await stored()).toEqual(asStored(updated));
});

it(`COPYs ${ROWS} rows into PGlite as one COPY per piece of ${ROWS_PER_PIECE}, each row once and as written`, async () => {
  const pglite = new PGlite();
  try {
    await pglite.exec("CREATE TABLE wb_piece (id text PRIMARY KEY, n numeric(78,0) NOT NULL, note text, tags text[])");
    const inserted = rowsOf("new", (i) => BigInt(i) * 10n ** 40n);
    await pglite.transaction(async (t) => copyRows({ $dialect: "pglite", $client: t }, piece, inserted));
    const rows = await pglite.query<{ id: string; n: string; note: string | null; tags: string[] }>(
      "SELECT id, n::text AS n, note, tags FROM wb_piece ORDER BY id",
    );
    expect(rows.rows).toEqual(asStored(inserted));
  } finally {
    await pglite.close();
  }
});
