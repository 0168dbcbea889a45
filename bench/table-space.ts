/*
 * npm run bench:table-space — where the index's bytes on disk go, table by table: live rows, free space and dead
 * rows in each table's pages (pgstattuple), and each index's size and leaf density (pgstatindex). bench:scale says
 * how many bytes per event each table holds; this says how much of that is rows and how much is room.
 *
 * Indexes bench:scale's cached devnet (every plugin, RESOLVER_READS=false) into a database of its own on a
 * PostgreSQL server, waits BENCH_SETTLE_S seconds after /ready (autovacuum's turn, where it runs), and reads it. The
 * database is kept for inspection (its name is printed; drop it after).
 *
 *   BENCH_NAMES=10000  BENCH_SERVER=postgresql://postgres@127.0.0.1:5432/test (e.g. a server with autovacuum on)
 *   BENCH_SETTLE_S=8
 */
import pg from "pg";
import { startCachedDevnet } from "../harness/cached-devnet";
import { createDatabase, LOCAL_POSTGRES_URL, startIndexer } from "../harness/indexer-harness";
import { PLUGIN_NAMES } from "../src/plugins/names";

const NAMES = Number(process.env.BENCH_NAMES ?? 10_000);
const SERVER = process.env.BENCH_SERVER ?? LOCAL_POSTGRES_URL;
const SETTLE_S = Number(process.env.BENCH_SETTLE_S ?? 8);
const SCHEMA = "idx";

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const pct = (part: number, whole: number) => (whole > 0 ? `${((100 * part) / whole).toFixed(0)} %` : "");

async function indexInto(databaseUrl: string): Promise<number> {
  const env = await startCachedDevnet(1, NAMES, 2000, (line) => console.log(`devnet ${NAMES}: ${line}`));
  try {
    const started = Date.now();
    const indexer = await startIndexer({
      manifestPath: env.devnet.manifestPath,
      labelsServiceUrl: env.labelsUrl,
      plugins: [...PLUGIN_NAMES],
      database: "postgres",
      schema: SCHEMA,
      reuse: { databaseUrl },
      extraEnv: { RESOLVER_READS: "false" },
    });
    try {
      await indexer.process.ready(undefined, 200);
      const seconds = (Date.now() - started) / 1000;
      await new Promise((resolve) => setTimeout(resolve, SETTLE_S * 1000));
      return seconds;
    } finally {
      await indexer.stop();
    }
  } finally {
    await env.stop();
  }
}

async function report(client: pg.Client): Promise<void> {
  await client.query("CREATE EXTENSION IF NOT EXISTS pgstattuple");
  const settings = await client.query<{ autovacuum: string }>("SELECT current_setting('autovacuum') AS autovacuum");
  console.log(`\nautovacuum ${settings.rows[0]!.autovacuum} on this server`);
  const tables = await client.query<{
    name: string;
    total: string;
    heap: string;
    live: string;
    live_bytes: string;
    dead_bytes: string;
    free_bytes: string;
    vacuums: string;
  }>(
    `SELECT c.relname AS name, pg_total_relation_size(c.oid) AS total, s.table_len AS heap, s.tuple_count AS live,
            s.tuple_len AS live_bytes, s.dead_tuple_len AS dead_bytes, s.free_space AS free_bytes,
            coalesce(u.autovacuum_count + u.vacuum_count, 0) AS vacuums
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_stat_user_tables u ON u.relid = c.oid, LATERAL pgstattuple(c.oid) s
      WHERE n.nspname = $1 AND c.relkind = 'r' ORDER BY pg_total_relation_size(c.oid) DESC LIMIT 12`,
    [SCHEMA],
  );
  console.log(
    "\n| table | MiB with indexes | heap MiB | rows | bytes per row (live) | live | dead | free | vacuums |\n|---|---|---|---|---|---|---|---|---|",
  );
  for (const t of tables.rows) {
    const heap = Number(t.heap);
    console.log(
      `| ${t.name} | ${mib(Number(t.total))} | ${mib(heap)} | ${t.live} | ${Math.round(Number(t.live_bytes) / Math.max(1, Number(t.live)))} | ${pct(Number(t.live_bytes), heap)} | ${pct(Number(t.dead_bytes), heap)} | ${pct(Number(t.free_bytes), heap)} | ${t.vacuums} |`,
    );
  }
  const all = await client.query<{ heap: string; free: string; dead: string; indexes: string }>(
    `SELECT sum(s.table_len) AS heap, sum(s.free_space) AS free, sum(s.dead_tuple_len) AS dead,
            (SELECT sum(pg_relation_size(i.oid)) FROM pg_class i JOIN pg_namespace m ON m.oid = i.relnamespace
              WHERE m.nspname = $1 AND i.relkind = 'i') AS indexes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace, LATERAL pgstattuple(c.oid) s
      WHERE n.nspname = $1 AND c.relkind = 'r'`,
    [SCHEMA],
  );
  const a = all.rows[0]!;
  console.log(
    `\nevery table: heap ${mib(Number(a.heap))} MiB (free ${pct(Number(a.free), Number(a.heap))}, dead ${pct(Number(a.dead), Number(a.heap))}), indexes ${mib(Number(a.indexes))} MiB`,
  );
  const indexes = await client.query<{ name: string; bytes: string; density: number }>(
    `SELECT i.relname AS name, pg_relation_size(i.oid) AS bytes, (pgstatindex(i.oid::regclass)).avg_leaf_density AS density
       FROM pg_class i JOIN pg_namespace n ON n.oid = i.relnamespace JOIN pg_am am ON am.oid = i.relam
      WHERE n.nspname = $1 AND i.relkind = 'i' AND am.amname = 'btree' ORDER BY pg_relation_size(i.oid) DESC LIMIT 12`,
    [SCHEMA],
  );
  console.log("\n| index | MiB | leaf density |\n|---|---|---|");
  for (const i of indexes.rows) console.log(`| ${i.name} | ${mib(Number(i.bytes))} | ${i.density.toFixed(0)} % |`);
}

async function main(): Promise<void> {
  const database = `table_space_${Date.now().toString(36)}`;
  const databaseUrl = await createDatabase(database, SERVER);
  const seconds = await indexInto(databaseUrl);
  console.log(`${NAMES} names indexed in ${seconds.toFixed(1)} s into database ${database} (kept; drop it after)`);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await report(client);
  } finally {
    await client.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
