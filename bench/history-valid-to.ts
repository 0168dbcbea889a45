/*
 * npm run bench:history-valid-to — what a backfill batch's entity history versions cost the database at the flush,
 * two ways, on PostgreSQL: COPY'd with `valid_to` pending, for the trigger to settle row by row (two key probes and
 * an update of the predecessor per version), against settled by the batch (src/plugins/shared/write-behind/
 * history-valid-to.ts: the next version in the batch, and one UPDATE … FROM per table for each id's version from
 * before the batch), which the trigger leaves alone. The same batches go to two copies of `account_history` (the
 * history table's real key and trigger), one transaction per batch as Ponder's backfill commits them, the two ways
 * interleaved batch by batch so that a busy machine slows both alike. The tables end equal; the bench checks it.
 *
 *   BENCH_BATCHES=60  BENCH_ROWS=4000 (versions per batch)  BENCH_IDS=40000 (ids the versions are drawn from)
 *   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres (a database of its own is created and dropped)
 */
import { loadavg } from "node:os";
import pg from "pg";
import * as schema from "../ponder.schema";
import { validToTriggerSql } from "../src/lib/entity-history/valid-to-trigger";
import { VALID_TO_PENDING } from "../src/lib/entity-history/version";
import { copyRows, copyTextIntoPostgres } from "../src/plugins/shared/write-behind/copy";
import { closePreviousVersions, settleValidTo } from "../src/plugins/shared/write-behind/history-valid-to";
import { copyText, type Row } from "../src/plugins/shared/write-behind/rows";
import { median } from "./lib/median";

const BATCHES = Number(process.env.BENCH_BATCHES ?? 60);
const ROWS = Number(process.env.BENCH_ROWS ?? 4000);
const IDS = Number(process.env.BENCH_IDS ?? 40_000);
const ADMIN_URL = process.env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const TRIGGER_TABLE = "account_history_trigger";

/** A deterministic stream of versions: each batch's ids drawn from the pool, versions rising as the backfill's do. */
function batchesOf(): Row[][] {
  let seed = 7;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  let version = 1_000_000n;
  return Array.from({ length: BATCHES }, () =>
    Array.from({ length: ROWS }, () => {
      version += 1n + BigInt(Math.floor(random() * 3));
      return {
        id: `0x${Math.floor(random() * IDS)
          .toString(16)
          .padStart(40, "0")}`,
        version,
        deleted: false,
      };
    }),
  );
}

async function main(): Promise<void> {
  const database = `bench_valid_to_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${database}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    // `account_history` is the table the batch path writes (its drizzle object names it); the other takes the trigger's.
    for (const table of ["account_history", TRIGGER_TABLE]) {
      await client.query(`create table ${table} (id text not null, version numeric(78,0) not null,
        deleted boolean not null default false, valid_to numeric(78,0), primary key (id, version))`);
      for (const statement of validToTriggerSql("public", table)) await client.query(statement);
    }
    const tx = { $dialect: "postgres" as const, $client: client };
    const seconds = { trigger: [] as number[], batch: [] as number[] };
    const total = { trigger: 0, batch: 0 };
    for (const rows of batchesOf()) {
      // Step 1's way: the rows' COPY text with valid_to pending (as rows.ts writes it), the trigger settling each.
      const pendingText = copyText(
        schema.accountHistory,
        rows.map((r) => ({ ...r, validTo: VALID_TO_PENDING })),
      );
      let started = performance.now();
      await client.query("begin");
      await copyTextIntoPostgres(client, TRIGGER_TABLE, pendingText);
      await client.query("commit");
      const triggerS = (performance.now() - started) / 1000;

      // The batch's way, as BatchRows.flush does it.
      started = performance.now();
      await client.query("begin");
      const held = rows.map((r) => ({ ...r, validTo: VALID_TO_PENDING }));
      await closePreviousVersions(tx, schema.accountHistory, settleValidTo(held));
      await copyRows(tx, schema.accountHistory, held);
      await client.query("commit");
      const batchS = (performance.now() - started) / 1000;
      seconds.trigger.push(triggerS);
      seconds.batch.push(batchS);
      total.trigger += triggerS;
      total.batch += batchS;
    }
    const differ = await client.query<{ n: string }>(
      `select count(*)::text as n from (
         (select id, version, valid_to from account_history except select id, version, valid_to from ${TRIGGER_TABLE})
         union all
         (select id, version, valid_to from ${TRIGGER_TABLE} except select id, version, valid_to from account_history)) d`,
    );
    const versions = BATCHES * ROWS;
    const line = (way: keyof typeof total) =>
      `| ${way === "trigger" ? "pending, the trigger settles each" : "settled by the batch, one UPDATE"} | ${total[way].toFixed(2)} | ${(median(seconds[way]) * 1000).toFixed(1)} | ${((total[way] / versions) * 1e6).toFixed(1)} |`;
    console.log(
      `\nbench:history-valid-to: ${BATCHES} batches of ${ROWS} versions over ${IDS} ids (load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")})`,
    );
    console.log("| valid_to | total s | median ms a batch | µs a version |");
    console.log("|---|---|---|---|");
    console.log(line("trigger"));
    console.log(line("batch"));
    console.log(
      `tables equal: ${differ.rows[0]!.n === "0" ? "yes" : `NO, ${differ.rows[0]!.n} rows differ`}; the batch's way takes ${(total.batch / total.trigger).toFixed(2)}× the trigger's time`,
    );
    if (differ.rows[0]!.n !== "0") process.exitCode = 1;
  } finally {
    await client.end();
    await admin.query(`drop database if exists ${database}`);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
