import { createConfig } from "ponder";
import { getConfig } from "./src/config";
import { buildRecordId, buildRecordOf } from "./src/indexing/build-record";
import { guardBuildRecord } from "./src/indexing/build-record-store";
import { indexingCodeDigest } from "./src/indexing/code-digest";
import { composeChains, composeContracts } from "./src/plugins/compose";
import { lowerGcHelperPriority } from "./src/runtime/gc-helper-priority";
import { applyPgliteSettings } from "./src/runtime/pglite-settings";
import { seedPgliteDirectory } from "./src/runtime/pglite-template";
import { ponderCommon, ponderDatabaseSchema, setRpcInitialRps } from "./src/runtime/ponder-hooks";
import { tuneProcessMemory } from "./src/runtime/process-memory";

// The schema is Ponder's (`npx ponder start --schema x` with another or no DATABASE_SCHEMA): the build record, the
// status routes and the API read the schema Ponder writes.
const ponderSchema = ponderDatabaseSchema();
if (ponderSchema !== undefined) process.env.DATABASE_SCHEMA = ponderSchema;
const config = getConfig();

tuneProcessMemory(config.database.kind);
// NAMEINDEX_GC_HELPER_NICE, if set: V8's helpers run below the handlers' thread (src/runtime/gc-helper-priority.ts).
lowerGcHelperPriority(config.gcHelperNice);
if (config.rpcRequestsPerSecond !== undefined) setRpcInitialRps(config.rpcRequestsPerSecond);
// A new PGlite directory starts as a copy of a cached fresh one instead of running initdb (src/runtime/pglite-template.ts).
// Then its WAL settings for the host file system, new directory or not (src/runtime/pglite-settings.ts).
if (config.database.kind === "pglite") {
  await seedPgliteDirectory(config.database.directory);
  applyPgliteSettings(config.database.directory);
}

// Every setting that changes indexed rows (src/indexing/build-record.ts): a restart with other values is refused
// with the setting named, and the record's id becomes part of Ponder's build id through the contracts it hashes.
const buildRecord = buildRecordOf(config, indexingCodeDigest());
await guardBuildRecord(config, buildRecord, ponderCommand());

export default createConfig({
  ordering: "omnichain",
  database:
    config.database.kind === "postgres"
      ? { kind: "postgres", connectionString: config.database.connectionString }
      : { kind: "pglite", directory: config.database.directory },
  chains: composeChains(config),
  contracts: composeContracts(config, buildRecordId(buildRecord)),
});

/** `start` or `serve`: Ponder's options are on a global by the time it executes this file. */
function ponderCommand(): string {
  return ponderCommon()?.options?.command ?? "start";
}
