import type { IncomingMessage, ServerResponse } from "node:http";
import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { databaseUnavailableGraphqlError, isDatabaseUnavailable } from "../shared/database-unavailable";
import { discardNodeBody, readNodeBody, unreadNodeRequest } from "../shared/node-body";
import { PLAYGROUND_ASSETS_ROUTE, servePlaygroundAsset } from "../shared/playground";
import { settle } from "../shared/settle-response";
import { DEFAULT_LIMITS, discardableBodyBytes } from "./limits";
import {
  executeSubgraphRequest,
  type ResolvedOptions,
  resolveOptions,
  type SubgraphOptions,
  type SubgraphRequest,
  type SubgraphResponse,
} from "./pipeline";
import { subgraphPlayground } from "./playground";

/*
 * /subgraph over HTTP: GET and POST on a Hono sub-app, and the same POST on a bare Node.js request (Ponder's server
 * runs it before Hono, src/api/server/node-fast-path.ts). It reads the body within its limit, hands the request to
 * the pipeline (pipeline.ts) and writes the answer; it knows nothing of GraphQL.
 */

/**
 * Headers of every /subgraph answer. Browser apps (the ENS manager app, ensjs in a page) query subgraphs
 * cross-origin; hono's cors middleware runs only for preflights, because on other requests it makes hono build the
 * response twice (a default one for its header, then a merged copy), which costs more than a cached answer.
 */
const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "application/json; charset=utf-8",
  "access-control-allow-origin": "*",
});

/** An answer of /subgraph, independent of the HTTP server that sends it. */
export interface SubgraphAnswer {
  status: number;
  /** JSON text, or its UTF-8 bytes (a cached answer). */
  body: string | Buffer;
  headers: Readonly<Record<string, string>>;
}

/** JSON_HEADERS plus how the query-result cache answered: one shared object per outcome, not one per request. */
const headersByCacheOutcome = new Map<string, Readonly<Record<string, string>>>();
function answerHeaders(cache: SubgraphResponse["cache"]): Readonly<Record<string, string>> {
  if (cache === undefined) return JSON_HEADERS;
  let headers = headersByCacheOutcome.get(cache);
  if (!headers)
    headersByCacheOutcome.set(cache, (headers = Object.freeze({ ...JSON_HEADERS, "x-subgraph-cache": cache })));
  return headers;
}

const errorAnswer = (status: number, message: string, extra?: Record<string, string>): SubgraphAnswer => ({
  status,
  body: JSON.stringify({ errors: [{ message }] }),
  headers: extra ? { ...JSON_HEADERS, ...extra } : JSON_HEADERS,
});

/** What a request the app itself failed on answers (as Ponder's and our API's onError do). */
const INTERNAL_ERROR: SubgraphAnswer = {
  status: 500,
  body: JSON.stringify({ message: "Internal Server Error" }),
  headers: JSON_HEADERS,
};

/** The database went away before a field was read (the head, the history window): a 503 a client can act on. */
const DATABASE_UNAVAILABLE_ANSWER: SubgraphAnswer = {
  status: 503,
  body: JSON.stringify({ errors: [databaseUnavailableGraphqlError()] }),
  headers: { ...JSON_HEADERS, "retry-after": "1" },
};

async function answerRequest(request: SubgraphRequest, options: ResolvedOptions): Promise<SubgraphAnswer> {
  try {
    const r = await executeSubgraphRequest(request, options);
    return { status: r.status, body: r.encoded ?? r.json ?? JSON.stringify(r.body), headers: answerHeaders(r.cache) };
  } catch (error) {
    if (isDatabaseUnavailable(error)) return DATABASE_UNAVAILABLE_ANSWER;
    throw error;
  }
}

/** The answer to a POST body: JSON with a `query`, or (`application/graphql`) the query itself. */
function answerPostBody(
  text: string,
  contentType: string,
  options: ResolvedOptions,
): Promise<SubgraphAnswer> | SubgraphAnswer {
  if (contentType.includes("application/graphql")) return answerRequest({ query: text }, options);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return errorAnswer(400, "Request body is not valid JSON");
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return errorAnswer(400, "Request body must be a JSON object with a `query`");
  }
  return answerRequest(body as SubgraphRequest, options);
}

// A copy of the headers: @hono/node-server adds Content-Length to the object a Response was made with.
const toResponse = (answer: SubgraphAnswer) =>
  new Response(typeof answer.body === "string" ? answer.body : new Uint8Array(answer.body), {
    status: answer.status,
    headers: { ...answer.headers },
  });

/** /subgraph's Hono sub-app, and the same POST answered on a bare Node.js request (see `handleNodePost`). */
export interface SubgraphServer {
  app: Hono;
  /**
   * Answers a POST from Node.js's own request and response objects: the body read from the stream, the answer
   * written with one writeHead and end, no Hono context or WHATWG Request/Response built. Ponder's server runs it
   * for /subgraph before its Hono app (src/api/server/node-fast-path.ts). Never throws: a failure answers 500, a client that
   * went away gets nothing. `onAnswered` gets the status and the response's size in bytes.
   */
  handleNodePost(
    req: IncomingMessage,
    res: ServerResponse,
    onAnswered?: (status: number, responseBytes: number) => void,
  ): void;
}

/** The Hono sub-app: GET `?query=` and POST JSON; a browser without a query gets the playground. */
export function createSubgraphApp(options: SubgraphOptions): Hono {
  return createSubgraphServer(options).app;
}

export function createSubgraphServer(options: SubgraphOptions): SubgraphServer {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const resolved = resolveOptions(options);
  const app = new Hono();
  const preflight = cors({ origin: "*", allowMethods: ["GET", "POST", "OPTIONS"], allowHeaders: ["content-type"] });
  app.use("*", (c, next) => (c.req.method === "OPTIONS" ? preflight(c, next) : next()));

  const get = async (c: Context) => {
    const query = c.req.query("query");
    // A HEAD without a query (`curl -I`, link checkers, uptime probes) asks whether the endpoint is there: it gets the
    // playground's headers, as a browser's GET would, not the 400 of a GET that forgot its query.
    if (query === undefined && (c.req.method === "HEAD" || (c.req.header("accept") ?? "").includes("text/html"))) {
      return subgraphPlayground.respond(c, { "access-control-allow-origin": "*" });
    }
    const request = { query, variables: c.req.query("variables"), operationName: c.req.query("operationName") };
    return settle(c, toResponse(await answerRequest(request, resolved)));
  };

  // Checked while the body arrives (Content-Length first), not after buffering it: a client cannot make us hold a
  // body of any size in memory just to be told it is too large. The rest of the body is never read, so this
  // connection cannot carry another request.
  const tooLargeMessage = `Request body is larger than ${limits.maxBodyBytes} bytes`;
  const tooLarge = errorAnswer(413, tooLargeMessage, { connection: "close" });
  const limitBody = bodyLimit({ maxSize: limits.maxBodyBytes, onError: () => toResponse(tooLarge) });

  const post = async (c: Context) => {
    const incoming = unreadNodeRequest(c);
    let text: string;
    if (incoming) {
      const body = await readNodeBody(incoming, limits.maxBodyBytes);
      if (body === undefined) return toResponse(tooLarge);
      text = body;
    } else {
      // Other runtimes (and app.request in tests): the WHATWG request, limited by hono's bodyLimit.
      const limited = await limitBody(c, async () => {});
      if (limited) return limited;
      text = await c.req.text();
    }
    return settle(c, toResponse(await answerPostBody(text, c.req.header("content-type") ?? "", resolved)));
  };

  // GraphiQL's files, before the catch-all below that refuses anything deeper.
  app.get(PLAYGROUND_ASSETS_ROUTE, servePlaygroundAsset);
  app.get("/", get);
  app.post("/", post);
  // Clients are configured with and without a trailing slash: serve `/subgraph/` too, nothing deeper.
  const slashOnly = (handler: (c: Context) => Promise<Response>) => (c: Context) =>
    // Not c.notFound(): mounted under Ponder, that is Ponder's plain-text 404; every error here is JSON.
    c.req.path.endsWith("/")
      ? handler(c)
      : new Response(JSON.stringify({ message: "Not Found" }), { status: 404, headers: JSON_HEADERS });
  app.get("/*", slashOnly(get));
  app.post("/*", slashOnly(post));

  // Over the limit, but small enough to read to its end and throw away: then the connection stays usable, and a
  // client still writing its body reads the 413 instead of a reset (closing at once, as Node does after
  // `connection: close`, makes its next write fail with EPIPE before it ever sees the answer).
  const discardLimit = discardableBodyBytes(limits.maxBodyBytes);
  const tooLargeKeepAlive = errorAnswer(413, tooLargeMessage);
  const refuseBody = (req: IncomingMessage): SubgraphAnswer =>
    discardNodeBody(req, discardLimit) ? tooLargeKeepAlive : tooLarge;

  const handleNodePost: SubgraphServer["handleNodePost"] = (req, res, onAnswered) => {
    const send = (answer: SubgraphAnswer) => {
      const bytes = typeof answer.body === "string" ? Buffer.byteLength(answer.body) : answer.body.length;
      res.writeHead(answer.status, { ...answer.headers, "content-length": String(bytes) });
      res.end(answer.body);
      onAnswered?.(answer.status, bytes);
    };
    readNodeBody(req, limits.maxBodyBytes)
      .then((text) =>
        text === undefined ? refuseBody(req) : answerPostBody(text, req.headers["content-type"] ?? "", resolved),
      )
      .then(send, (error: unknown) => {
        // The client went away mid-body: nobody to answer.
        if (req.destroyed || res.destroyed || !req.complete) return void res.destroy();
        (options.onError ?? ((err) => console.error("[subgraph]", err)))(error);
        send(INTERNAL_ERROR);
      })
      .catch((error: unknown) => {
        console.error("[subgraph] writing an answer failed:", error);
        res.destroy();
      });
  };

  return { app, handleNodePost };
}
