import type { IncomingMessage, ServerResponse } from "node:http";
import { type NodeFastPath, ponderCommon } from "../../runtime/ponder-hooks";
import { databaseUnavailableGraphqlError, databaseUnavailableJson } from "../shared/database-unavailable";
import type { SubgraphServer } from "../subgraph";

/*
 * Fast paths for Ponder's server to run before its Hono app (the hook: src/runtime/ponder-hooks.ts). Ponder's app runs
 * a metrics and a cors middleware on every request and hono builds a context and a WHATWG Response for each; for a
 * cached /subgraph answer that was most of the CPU (~0.18 ms a request, of which a third in prom-client and undici),
 * on the one thread that also indexes.
 */

/** What the fast path reports per answer (ponderHttpMetrics' recorder). */
export type AnswerRecorder = (status: number, requestBytes: number, responseBytes: number, ms: number) => void;

/**
 * The fast path for a /subgraph mounted at `mountPath`: its POSTs, with or without a trailing slash and without a
 * query string (anything else, GETs and preflights included, is left to the Hono app).
 */
export function subgraphPostFastPath(
  mountPath: string,
  subgraph: Pick<SubgraphServer, "handleNodePost">,
  record: AnswerRecorder,
): NodeFastPath {
  const withSlash = `${mountPath}/`;
  return (req, res) => {
    if (req.method !== "POST" || (req.url !== mountPath && req.url !== withSlash)) return false;
    const started = performance.now();
    subgraph.handleNodePost(req, res, (status, responseBytes) =>
      record(status, Number(req.headers["content-length"] ?? 0), responseBytes, performance.now() - started),
    );
    return true;
  };
}

/** The first of `paths` that answers a request, answers it. */
export function firstOf(...paths: NodeFastPath[]): NodeFastPath {
  return (req, res) => paths.some((path) => path(req, res));
}

/** The routes that read the database, by the shape of their answers, for `databaseUnavailableFastPath`. */
export interface DatabaseRoutes {
  /** GraphQL endpoints: their POSTs and their GETs with a `query`, not the playground page. */
  graphql: readonly string[];
  /** JSON routes, Ponder's /ready and /status among them: the path and the paths under it. */
  json: readonly string[];
  /** Paths under a JSON route that read no database (the indexer's counter, from its /metrics). */
  except?: readonly string[];
}

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/**
 * While the database is known not to answer (`unavailable()` gives the reason), the routes that read it answer 503 at
 * once, with a code (server/database-health.ts): without this a request waited on a dead connection, ~64 s on Ponder's
 * /ready and /status, which retry, and failed as an internal error elsewhere.
 */
export function databaseUnavailableFastPath(
  unavailable: () => string | undefined,
  routes: DatabaseRoutes,
): NodeFastPath {
  return (req, res) => {
    if (req.method === "OPTIONS" || req.url === undefined || unavailable() === undefined) return false;
    const [path = "", search = ""] = req.url.split("?");
    let body: object;
    if (routes.graphql.some((p) => under(path, p))) {
      if (req.method !== "POST" && !/(^|&)query=/.test(search)) return false;
      body = { errors: [databaseUnavailableGraphqlError()] };
    } else if (routes.json.some((p) => under(path, p)) && !routes.except?.some((p) => under(path, p))) {
      body = databaseUnavailableJson();
    } else return false;
    // A request body nobody reads would hold the connection: drop it.
    req.resume();
    res.writeHead(503, {
      "content-type": "application/json; charset=utf-8",
      "access-control-allow-origin": "*",
      "cache-control": "no-store",
      "retry-after": "1",
    });
    res.end(JSON.stringify(body));
    return true;
  };
}

/**
 * CORS preflights (OPTIONS) of our routes, answered with the methods each route takes. Ponder's app runs hono's cors
 * middleware with its defaults before any of our routes, so without this every preflight advertised PUT, DELETE and
 * PATCH, which answer 404. `routes` maps a path (and the paths under it) to its methods.
 */
export function corsPreflightFastPath(routes: Record<string, readonly string[]>): NodeFastPath {
  const entries = Object.entries(routes);
  return (req, res) => {
    if (req.method !== "OPTIONS" || req.url === undefined) return false;
    const path = req.url.split("?")[0]!;
    const methods = entries.find(
      ([prefix]) => path === prefix || path.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`),
    )?.[1];
    if (!methods) return false;
    const allow = methods.join(", ");
    res.writeHead(204, {
      "access-control-allow-origin": "*",
      "access-control-allow-methods": allow,
      "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "content-type",
      "access-control-max-age": "86400",
      allow,
      vary: "Access-Control-Request-Headers",
    });
    res.end();
    return true;
  };
}

interface Histogram {
  observe(labels: Record<string, string>, value: number): void;
}

/**
 * Records a fast-path answer in Ponder's own HTTP metrics (`ponder_http_server_*`, the ones its middleware keeps for
 * every other route), labelled with `path` as the route: dashboards keep seeing the traffic they saw before.
 */
export function ponderHttpMetrics(method: string, path: string): AnswerRecorder {
  // Looked up at the first answer: Ponder's metrics may be set up after this module is loaded.
  let histograms: [Histogram, Histogram, Histogram] | null | undefined;
  // One labels object per status class: prom-client hashes the object it is given, it does not keep it.
  const labelsByClass = new Map<string, Record<string, string>>();
  return (status, requestBytes, responseBytes, ms) => {
    if (histograms === undefined) {
      const metrics = ponderCommon()?.metrics as Record<string, Histogram | undefined> | undefined;
      const found = [
        metrics?.ponder_http_server_request_duration_ms,
        metrics?.ponder_http_server_request_size_bytes,
        metrics?.ponder_http_server_response_size_bytes,
      ];
      histograms = found.every((h) => h !== undefined) ? (found as [Histogram, Histogram, Histogram]) : null;
    }
    if (histograms === null) return;
    const statusClass = status < 300 ? "2XX" : status < 400 ? "3XX" : status < 500 ? "4XX" : "5XX";
    let labels = labelsByClass.get(statusClass);
    if (!labels) labelsByClass.set(statusClass, (labels = { method, path, status: statusClass }));
    const [duration, requestSize, responseSize] = histograms;
    duration.observe(labels, ms);
    requestSize.observe(labels, requestBytes);
    responseSize.observe(labels, responseBytes);
  };
}
