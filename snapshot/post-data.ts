import { readFileSync } from "node:fs";
import pg from "pg";
import { z } from "zod";
import { SnapshotError } from "./errors";
import type { Queryable } from "./queryable";
import { runTool } from "./tools";

/*
 * What pg_dump calls post-data (primary keys, unique and foreign-key constraints, indexes, triggers), carried as a
 * list of statements and run by restore itself once the rows are in: the payload's data part then streams into one
 * pg_restore from stdin (which needs no seekable file, unlike pg_restore --jobs), and the index builds, nearly all of
 * a restore's CPU, run on two connections at once, the largest table's first so the last to finish is a small one.
 */

export const postDataSchema = z.array(
  z.object({
    /** 1: keys and indexes; 2: what needs them or the rows (foreign keys, triggers). A step starts when the last ended. */
    step: z.union([z.literal(1), z.literal(2)]),
    /** Only these statements' kinds: a list that holds anything else is refused before it runs. */
    sql: z.string().regex(/^(CREATE (UNIQUE )?INDEX |ALTER TABLE ONLY |CREATE (CONSTRAINT )?TRIGGER )/),
    /** The table's heap size at create: the order within a step, largest first. */
    bytes: z.number().nonnegative(),
    /**
     * An index of ponder.schema.ts (the index schema's indexes that back no key, on its tables but `_reorg__*`).
     * Restore builds them last, timed apart (verify's name sample reads through them); `ponder start` keeps them
     * (patch createDatabase-keep-indexes-at-recovery), where unpatched Ponder drops and builds them again.
     */
    ponderSchemaIndex: z.boolean(),
  }),
);
export type PostDataStatement = z.infer<typeof postDataSchema>[number];

/** pg_dump's post-data object types this release carries; create refuses an index that has any other. */
const CARRIED = new Set(["CONSTRAINT", "FK CONSTRAINT", "INDEX", "TRIGGER"]);

/**
 * The post-data statements of `schemas`, read from the catalogs in the caller's transaction (the create's snapshot),
 * with names qualified whatever the search_path.
 */
export async function readPostData(db: Queryable, indexSchema: string): Promise<PostDataStatement[]> {
  await db.query("set local search_path = ''");
  const { rows } = await db.query<{ step: number; sql: string; bytes: string; ponder: boolean }>(
    `select case when c.contype = 'f' then 2 else 1 end as step,
            format('ALTER TABLE ONLY %s ADD CONSTRAINT %I %s', c.conrelid::regclass, c.conname, pg_get_constraintdef(c.oid)) as sql,
            pg_relation_size(c.conrelid)::text as bytes, false as ponder
       from pg_constraint c join pg_namespace n on n.oid = c.connamespace
      where n.nspname = any($1) and c.contype in ('p', 'u', 'x', 'f')
     union all
     select 1, pg_get_indexdef(i.indexrelid), pg_relation_size(i.indrelid)::text,
            n.nspname = $2 and t.relname not like '\\_reorg\\_\\_%'
       from pg_index i join pg_class x on x.oid = i.indexrelid join pg_namespace n on n.oid = x.relnamespace
       join pg_class t on t.oid = i.indrelid
      where n.nspname = any($1) and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid and c.contype in ('p', 'u', 'x'))
     union all
     select 2, pg_get_triggerdef(t.oid), pg_relation_size(t.tgrelid)::text, false
       from pg_trigger t join pg_class r on r.oid = t.tgrelid join pg_namespace n on n.oid = r.relnamespace
      where n.nspname = any($1) and not t.tgisinternal`,
    [[indexSchema, "ponder_sync"], indexSchema],
  );
  await db.query("set local search_path to default");
  return rows
    .map((r) => ({
      step: Number(r.step) as 1 | 2,
      sql: r.sql,
      bytes: Number(r.bytes),
      ponderSchemaIndex: r.ponder === true,
    }))
    .sort((a, b) => a.step - b.step || b.bytes - a.bytes || a.sql.localeCompare(b.sql));
}

/**
 * Refuses a snapshot whose post-data (as pg_dump lists it, in `plainDump`: `pg_dump --section=post-data`) holds
 * objects the statement list does not: restore would leave them out.
 */
export function checkPostDataCovered(plainDump: string, statements: PostDataStatement[]): void {
  const types = [...readFileSync(plainDump, "utf8").matchAll(/^-- Name: .*; Type: ([A-Z ]+); Schema: /gm)].map(
    (m) => m[1]!,
  );
  const other = types.filter((t) => !CARRIED.has(t));
  if (other.length > 0 || types.length !== statements.length) {
    throw new SnapshotError(
      "bad-manifest",
      `the index's post-data has ${types.length} objects (${[...new Set(types)].join(", ")}), of which this release carries ${statements.length}: a snapshot would restore without ${other.length > 0 ? other.join(", ") : "some of them"}`,
    );
  }
}

/** pg_dump's post-data of `schemas` as plain SQL, in the exported `snapshotId`: what `checkPostDataCovered` reads. */
export function dumpPostDataPlain(connectionString: string, snapshotId: string, schemas: string[], file: string) {
  return runTool("pg_dump", [
    `--snapshot=${snapshotId}`,
    "--section=post-data",
    "--no-owner",
    "--no-privileges",
    ...schemas.map((s) => `--schema=${s}`),
    `--file=${file}`,
    `--dbname=${connectionString}`,
  ]);
}

/**
 * Runs the statements on `jobs` connections: each takes the next statement of the current step (largest table first)
 * when its last one ends. Returns the seconds it took.
 */
export async function runPostData(
  connectionString: string,
  statements: PostDataStatement[],
  jobs: number,
): Promise<number> {
  const started = Date.now();
  const clients = await Promise.all(
    Array.from({ length: jobs }, async () => {
      const client = new pg.Client({ connectionString });
      await client.connect();
      // An index build sorts in memory up to this; the default 64 MB spills a large table's keys to disk.
      await client.query("set maintenance_work_mem = '256MB'");
      return client;
    }),
  );
  try {
    for (const step of [1, 2] as const) {
      const queue = statements.filter((s) => s.step === step);
      await Promise.all(
        clients.map(async (client) => {
          for (let next = queue.shift(); next; next = queue.shift()) {
            try {
              // The extended protocol runs one statement: an entry cannot carry a second one after a `;`.
              await client.query({ text: next.sql, queryMode: "extended" } as pg.QueryConfig);
            } catch (error) {
              queue.length = 0;
              throw new SnapshotError(
                "payload",
                `a post-data statement failed (${(error as Error).message}): ${next.sql.slice(0, 200)}`,
              );
            }
          }
        }),
      );
    }
  } finally {
    await Promise.all(clients.map((c) => c.end().catch(() => {})));
  }
  return (Date.now() - started) / 1000;
}
