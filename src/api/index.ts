import { db as ponderDb } from "ponder:api";
import type { PGlite } from "@electric-sql/pglite";
import { getTableName } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/pglite";
import { Hono } from "hono";
import { cors } from "hono/cors";
import { trimTrailingSlash } from "hono/trailing-slash";
import { sql } from "ponder";
import * as tables from "../../ponder.schema";
import { getConfig } from "../config";
import { installHistoryTriggers } from "../lib/entity-history/install-trigger";
import { HISTORY_TABLE_NAMES } from "../lib/entity-history/tables";
import { NAMEINDEX_VERSION } from "../lib/versions";
import { exposeOnPonderMetrics } from "../runtime/metrics";
import { ponderCommon, withNodeFastPath } from "../runtime/ponder-hooks";
import { configRoutes } from "./config/route";
import { completedEventsReader, completedEventsRoutes } from "./indexing-status/completed-events";
import { IndexingFactsGatherer, isUndefinedTable } from "./indexing-status/gather";
import { amIRealtimeRoutes, indexingStatusRoutes } from "./indexing-status/route";
import { IndexingStatusService } from "./indexing-status/service";
import { syncGaugeReader } from "./indexing-status/sync-gauges";
import { nameSalesRoutes } from "./name-sales/route";
import { nameTokensRoutes } from "./name-tokens/route";
import { registrarApiSettings } from "./name-tokens/settings";
import { omnigraphRoutes } from "./omnigraph";
import { openApiDocument } from "./openapi/document";
import { registrarActionsRoutes } from "./registrar-actions/route";
import { resolutionRoutes } from "./resolution/route";
import { resolutionSettings } from "./resolution/settings";
import { autovacuumWarning } from "./server/autovacuum-check";
import { recordFinishedBackfill, schemaStateProbe } from "./server/backfill-record";
import { DatabaseHealth, whenBackfillFinished } from "./server/database-health";
import {
  corsPreflightFastPath,
  databaseUnavailableFastPath,
  firstOf,
  ponderHttpMetrics,
  subgraphPostFastPath,
} from "./server/node-fast-path";
import { qualifyTables } from "./server/pglite-safe-db";
import { keepTablesAnalyzed } from "./server/table-statistics";
import { servingRoutes } from "./serving/route";
import {
  databaseUnavailableGraphqlError,
  databaseUnavailableJson,
  isDatabaseUnavailable,
} from "./shared/database-unavailable";
import { trackPgliteWrites } from "./shared/pglite-writes";
import { ResolutionService } from "./shared/resolution/service";
import { STATUS_PAGE_HTML } from "./status-page/page.html";
import { createSubgraphServer, ponderHeadToken, QueryCache, untilNextWrite } from "./subgraph";
import { textOrderWarning } from "./subgraph/text-order";

const config = getConfig();
exposeOnPonderMetrics();

const tableNames = Object.values(tables).map((table) => getTableName(table as PgTable));
// On PGlite the indexer writes through this same instance: count its writes (pglite-writes.ts); our reads don't count.
const pgliteWrites =
  config.database.kind === "pglite"
    ? trackPgliteWrites((ponderDb as unknown as { $client: PGlite }).$client)
    : undefined;
const db = pgliteWrites
  ? qualifyTables(drizzle(pgliteWrites.reader, { casing: "snake_case" }), config.databaseSchema, tableNames)
  : ponderDb;

const readSql = async (query: string) => {
  const result = (await db.execute(sql.raw(query))) as unknown as { rows?: Record<string, unknown>[] };
  return result.rows ?? (result as unknown as Record<string, unknown>[]);
};
const indexingStatus = new IndexingStatusService(
  new IndexingFactsGatherer(config, readSql, syncGaugeReader(new URL("/metrics", config.indexerUrl).toString())),
);
// Warm and keep fresh from startup, so no poller waits for a gather; stopped when Ponder reloads or stops the API.
const stopRefreshingStatus = indexingStatus.start();
ponderCommon()?.apiShutdown?.add(stopRefreshingStatus);
// `ponder serve` writes nothing: a replica on a PostgreSQL standby is refused any write, ANALYZE included, and the
// indexer's ANALYZE on the primary reaches every standby with the rest of the database.
const isReplica = ponderCommon()?.options?.command === "serve";

// Whether this process can serve the index (GET /serving) and whether the routes that read the database may try.
// On PGlite the database is this process: probed without a deadline (a read waits for the indexer's transaction).
const health = new DatabaseHealth({
  probe: schemaStateProbe(readSql, config.databaseSchema),
  ...(config.database.kind === "pglite" ? { deadlineMs: null, intervalMs: 2_000 } : {}),
  onChange: (state) =>
    state.database === "unavailable"
      ? console.warn(`Serving 503 on the routes that read the database: ${state.reason}`)
      : console.log("The database answers again"),
});
ponderCommon()?.apiShutdown?.add(health.start());
if (!isReplica) {
  // The indexer records its first finished backfill, which replicas read while a restart sets `is_ready` to 0.
  const stopRecording = whenBackfillFinished(health, () =>
    recordFinishedBackfill({ database: config.database, apiDb: ponderDb, schema: config.databaseSchema }),
  );
  ponderCommon()?.apiShutdown?.add(stopRecording);
}

// `NAMEINDEX_ANALYZE=false` (diagnostics: `BENCH_ANALYZE=both npm run bench:graphql`) leaves them unanalyzed.
if (config.analyzeTables && !isReplica) {
  // Planner statistics for the API's queries once the backfill is done, kept fresh where no autovacuum runs (see the module).
  const label = config.database.kind === "pglite" ? "PGlite" : "PostgreSQL";
  const stopAnalyzing = keepTablesAnalyzed({
    db: ponderDb,
    database: config.database.kind,
    schema: config.databaseSchema,
    tables: tableNames,
    onAnalyze: (analyzed, ms) => console.log(`${label}: analyzed ${analyzed.join(", ")} in ${Math.round(ms)} ms`),
    onError: (error) => {
      if (!isUndefinedTable(error)) console.warn(`${label}: ANALYZE failed, retrying: ${(error as Error).message}`);
    },
  });
  ponderCommon()?.apiShutdown?.add(stopAnalyzing);
}

// The indexer's own process only (a `ponder serve` replica writes nothing). Awaited: Ponder starts indexing once the
// API files have run, and no version may be written without the trigger (src/lib/entity-history/README.md).
if (!isReplica && config.subgraphHistoryBlocks !== 0) {
  await installHistoryTriggers({
    database: config.database,
    apiDb: ponderDb,
    schema: config.databaseSchema,
    tables: HISTORY_TABLE_NAMES,
  }).catch((error: Error) => {
    throw new Error(
      `Could not install the entity history's valid_to trigger, so indexing does not start: ${error.message} (docs/operations.md, "Entity history")`,
    );
  });
}

if (config.database.kind === "postgres") {
  textOrderWarning(readSql).then(
    (warning) => warning && console.warn(warning),
    (error: Error) => console.warn(`Could not check the database's text order: ${error.message}`),
  );
  // The indexer's process writes the rows; its replicas would only repeat the warning.
  if (!isReplica)
    autovacuumWarning(readSql).then(
      (warning) => warning && console.warn(warning),
      (error: Error) => console.warn(`Could not check the server's autovacuum: ${error.message}`),
    );
}

const app = new Hono();
const GRAPHQL_ROUTES = ["/subgraph", "/api/omnigraph"];

// `/api/config/` is `/api/config`: a GET that found nothing is redirected to the path without the slash.
app.use(trimTrailingSlash());

// Browser dApps and dashboards read these from other origins (docs/api.md, "Limits and errors of every route": CORS);
// the Omnigraph sets its own (it takes POST).
app.use("/api/*", async (c, next) =>
  c.req.path.startsWith("/api/omnigraph")
    ? next()
    : cors({ origin: "*", allowMethods: ["GET", "HEAD", "OPTIONS"] })(c, next),
);
app.use("/amirealtime", cors({ origin: "*", allowMethods: ["GET", "HEAD", "OPTIONS"] }));

// Ponder keeps /status for itself (per-chain checkpoints), so the page for people lives at /.
app.get("/", (c) => c.html(STATUS_PAGE_HTML));
const openApi = openApiDocument({
  version: NAMEINDEX_VERSION,
  indexedChainIds: [...config.rpcUrls.keys()].sort((a, b) => a - b),
});
app.get("/openapi.json", (c) => c.json(openApi));
app.route("/serving", servingRoutes(health));
app.route("/api/config", configRoutes());
// On PGlite the head token is read again only after a write (see shared/query-cache.ts); on PostgreSQL every turn.
const subgraphHead = pgliteWrites ? untilNextWrite(ponderHeadToken(db), pgliteWrites.writes) : ponderHeadToken(db);
const subgraphCache =
  config.subgraphQueryCacheBytes > 0
    ? new QueryCache({ maxBytes: config.subgraphQueryCacheBytes, head: subgraphHead })
    : undefined;
const ensRoot = config.namespace.datasources.ensroot?.chain;
if (!ensRoot) throw new Error("the namespace has no ENS root datasource");
const subgraph = createSubgraphServer({
  db,
  rootChain: {
    id: ensRoot.id,
    rpcUrl: config.rpcUrls.get(ensRoot.id),
    historyBlocks: config.subgraphHistoryBlocks,
    liveTables: config.historyLiveTables,
  },
  cache: subgraphCache,
  writes: pgliteWrites?.writes,
});
app.route("/subgraph", subgraph.app);
app.route("/api/indexing-status", indexingStatusRoutes(indexingStatus));
app.route(
  "/api/indexing-status/events",
  completedEventsRoutes(completedEventsReader(new URL("/metrics", config.indexerUrl).toString())),
);
app.route("/amirealtime", amIRealtimeRoutes(indexingStatus));
app.route("/api/registrar-actions", registrarActionsRoutes({ db, indexingStatus, ...registrarApiSettings(config) }));
app.route("/api/name-tokens", nameTokensRoutes({ db, indexingStatus, ...registrarApiSettings(config) }));
app.route("/api/name-sales", nameSalesRoutes({ db, indexingStatus, ...registrarApiSettings(config) }));
// One resolution policy (index when realtime, else the chains) for the REST routes and the Omnigraph.
const resolution = new ResolutionService({ indexingStatus, ...resolutionSettings(config) });
app.route("/api/resolve", resolutionRoutes({ db, indexingStatus, service: resolution, ...resolutionSettings(config) }));
app.route("/api/omnigraph", omnigraphRoutes({ db, namespace: config.namespace, resolution, cache: subgraphCache }));

// Ponder mounts this app under its own, and Hono only calls the top app's notFound (Ponder's plain-text one): a
// catch-all route, registered last, is what makes an unknown path or method here a JSON 404 like every other error.
app.all("*", (c) => c.json({ message: "Not Found" }, 404));
app.notFound((c) => c.json({ message: "Not Found" }, 404));
app.onError((error, c) => {
  if (isDatabaseUnavailable(error)) {
    c.header("retry-after", "1");
    return GRAPHQL_ROUTES.some((path) => c.req.path.startsWith(path))
      ? c.json({ errors: [databaseUnavailableGraphqlError()] }, 503)
      : c.json(databaseUnavailableJson(), 503);
  }
  console.error(error);
  return c.json({ message: "Internal Server Error" }, 500);
});

// POSTs to /subgraph, the API's hottest route, and our routes' CORS preflights are answered before Ponder's Hono app
// (see node-fast-path.ts); every other request, /subgraph's GETs included, takes the routes above.
export default withNodeFastPath(
  app,
  firstOf(
    databaseUnavailableFastPath(() => health.unavailable(), {
      graphql: GRAPHQL_ROUTES,
      // Ponder's /ready and /status too: they retry a dead connection for ~64 s.
      json: [
        "/ready",
        "/status",
        "/amirealtime",
        "/api/indexing-status",
        "/api/registrar-actions",
        "/api/name-tokens",
        "/api/name-sales",
        "/api/resolve",
      ],
      except: ["/api/indexing-status/events"],
    }),
    subgraphPostFastPath("/subgraph", subgraph, ponderHttpMetrics("POST", "/subgraph")),
    corsPreflightFastPath({
      "/subgraph": ["GET", "HEAD", "POST", "OPTIONS"],
      "/api/omnigraph": ["GET", "HEAD", "POST", "OPTIONS"],
      "/api/": ["GET", "HEAD", "OPTIONS"],
      "/amirealtime": ["GET", "HEAD", "OPTIONS"],
    }),
  ),
);
