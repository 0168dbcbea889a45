import { existsSync, rmSync } from "node:fs";
import { ingestDemoLabelSet } from "../ingest/demo-label-set.js";
import { type InputFormat, ingestFile, inputNameOf, STDIN } from "../ingest/ingest-file.js";
import { startLabelsServer } from "../server/start-server.js";
import { LabelStore } from "../store/label-store.js";
import { validateStore } from "../store/validate-store.js";
import { createProgressReporter } from "./progress-reporter.js";

export async function ingestCommand(o: {
  db: string;
  file: string;
  format?: InputFormat;
  labelSetId?: string;
}): Promise<number> {
  if (o.file !== STDIN && !existsSync(o.file)) {
    console.error(`Input file not found: ${o.file}`);
    return 1;
  }
  const progress = createProgressReporter();
  // Ctrl-C or a stop request ends the ingest at the next chunk and rolls it back.
  const abort = new AbortController();
  const onSignal = () => abort.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    const result = await ingestFile({
      dbPath: o.db,
      file: o.file,
      format: o.format,
      labelSetId: o.labelSetId,
      signal: abort.signal,
      onProgress: (p) => progress.update(p),
    });
    progress.done();
    console.log(
      `Ingested ${inputNameOf(o.file)} into ${o.db} as label set "${result.labelSetId}" version ${result.labelSetVersion}: ` +
        `${result.added} added, ${result.skipped} already present; ${result.recordsCount} labels in total.`,
    );
    return 0;
  } catch (error) {
    progress.done();
    console.error(`Ingest failed: ${(error as Error).message}`);
    console.error(`The database is unchanged (still at its previous version).`);
    return 1;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

export async function ingestDemoCommand(o: { db: string }): Promise<number> {
  const result = await ingestDemoLabelSet({ dbPath: o.db });
  if (result.created)
    console.log(
      `Created demo label set "${result.labelSetId}" version ${result.labelSetVersion}: ${result.added} labels.`,
    );
  else console.log(`Skipped: ${result.reason}.`);
  return 0;
}

export async function serveCommand(o: { db: string; port: number; host: string }): Promise<number> {
  const server = await startLabelsServer({ dbPath: o.db, port: o.port, host: o.host });
  console.log(`labels-service listening on ${server.url} (database ${o.db})`);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      console.log(`${signal}: shutting down`);
      void server.close().then(resolve);
    };
    process.once("SIGINT", () => stop("SIGINT"));
    process.once("SIGTERM", () => stop("SIGTERM"));
  });
  return 0;
}

export function countCommand(o: { db: string }): number {
  if (!existsSync(o.db)) {
    console.error(`No database at ${o.db}`);
    return 1;
  }
  const store = new LabelStore(o.db);
  try {
    const readiness = store.readiness();
    if (!readiness.ready) {
      console.error(readiness.reason);
      return 1;
    }
    console.log(
      `${readiness.recordsCount} labels (label set "${readiness.labelSetId}", highest version ${readiness.highestVersion})`,
    );
    return 0;
  } finally {
    store.close();
  }
}

export function validateCommand(o: { db: string }): number {
  if (!existsSync(o.db)) {
    console.error(`No database at ${o.db}`);
    return 1;
  }
  const report = validateStore(o.db, (n) => console.error(`validate: ${n.toLocaleString("en-US")} records checked`));
  if (report.ok) {
    console.log(
      `OK: ${report.records} records; every labelhash is keccak256 of its label and the stored count matches.`,
    );
    return 0;
  }
  console.error(`Validation failed (${report.records} records read):`);
  for (const problem of report.problems) console.error(`  ${problem}`);
  return 1;
}

export function purgeCommand(o: { db: string }): number {
  const removed = [o.db, `${o.db}-wal`, `${o.db}-shm`].filter((p) => existsSync(p));
  for (const path of removed) rmSync(path);
  console.log(removed.length > 0 ? `Removed ${removed.join(", ")}` : `Nothing to remove at ${o.db}`);
  return 0;
}
