import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { discardNodeBody, readNodeBody, unreadNodeRequest } from "../shared/node-body";
import { PLAYGROUND_ASSETS_ROUTE, servePlaygroundAsset } from "../shared/playground";
import { settle } from "../shared/settle-response";
import { executeOmnigraphRequest, type OmnigraphOptions, type OmnigraphResponse } from "./execute";
import { MAX_BODY_BYTES } from "./limits";
import { omnigraphPlayground } from "./playground";

export { executeOmnigraphRequest, type OmnigraphOptions, omnigraphSchema } from "./execute";

/*
 * /api/omnigraph: GraphQL over GET (`?query=&variables=`) and POST (JSON, or `application/graphql`), a playground
 * (GraphiQL, its files served from here) for a browser's GET without a query. ENSv1 of every indexed chain; see
 * docs/api.md for what differs from the peer's.
 * Not GraphQL at all (no query, bad JSON, a body too large, another method) is a 400/413/405; anything else about a
 * request is a GraphQL error with status 200.
 */

const ALLOWED_METHODS = "GET, HEAD, POST, OPTIONS";
/** A refused body is read and thrown away up to this size (the connection stays usable); beyond, it is closed. */
const DISCARD_LIMIT = Math.max(MAX_BODY_BYTES * 4, 4 * 1024 * 1024);

const toResponse = (r: OmnigraphResponse, extra?: Record<string, string>) =>
  new Response(r.encoded ? new Uint8Array(r.encoded) : (r.json ?? JSON.stringify(r.body)), {
    status: r.status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "access-control-allow-origin": "*",
      ...(r.cache ? { "x-omnigraph-cache": r.cache } : {}),
      ...extra,
    },
  });

const errorResponse = (status: number, message: string, extra?: Record<string, string>) =>
  toResponse({ status, body: { errors: [{ message }] }, statements: 0 }, extra);

const TOO_LARGE = `Request body is larger than ${MAX_BODY_BYTES} bytes`;

export function omnigraphRoutes(options: OmnigraphOptions): Hono {
  const app = new Hono();
  // Every answer carries its own CORS header; the middleware answers preflights only (as /subgraph's).
  const preflight = cors({ origin: "*", allowMethods: ["GET", "POST", "OPTIONS"], allowHeaders: ["content-type"] });
  app.use("*", (c, next) => (c.req.method === "OPTIONS" ? preflight(c, next) : next()));
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => errorResponse(413, TOO_LARGE, { connection: "close" }),
  });

  app.get(PLAYGROUND_ASSETS_ROUTE, servePlaygroundAsset);
  app.get("/", async (c: Context) => {
    const query = c.req.query("query");
    if (query === undefined && (c.req.method === "HEAD" || (c.req.header("accept") ?? "").includes("text/html"))) {
      return omnigraphPlayground.respond(c);
    }
    return settle(
      c,
      toResponse(
        await executeOmnigraphRequest(
          { query, variables: c.req.query("variables"), operationName: c.req.query("operationName") },
          options,
        ),
      ),
    );
  });

  app.post("/", async (c: Context) => {
    let text: string;
    const incoming = unreadNodeRequest(c);
    if (incoming) {
      // Under Ponder's Node.js server: counted while it arrives; a refused body is drained (or the connection closed).
      const body = await readNodeBody(incoming, MAX_BODY_BYTES).catch(() => undefined);
      if (body === undefined) {
        if (incoming.destroyed || incoming.complete) return errorResponse(413, TOO_LARGE, { connection: "close" });
        return discardNodeBody(incoming, DISCARD_LIMIT)
          ? errorResponse(413, TOO_LARGE)
          : errorResponse(413, TOO_LARGE, { connection: "close" });
      }
      text = body;
    } else {
      // Other runtimes (and app.request in tests): the WHATWG request, limited by hono's bodyLimit.
      const limited = await limitBody(c, async () => {});
      if (limited) return limited;
      text = await c.req.text();
    }
    if ((c.req.header("content-type") ?? "").includes("application/graphql"))
      return settle(c, toResponse(await executeOmnigraphRequest({ query: text }, options)));
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return errorResponse(400, "Request body is not valid JSON");
    }
    if (body === null || typeof body !== "object" || Array.isArray(body))
      return errorResponse(400, "Request body must be a JSON object with a `query`");
    // settle: the answer as it is, not rebuilt by hono around a stream to merge Ponder's CORS placeholder.
    return settle(c, toResponse(await executeOmnigraphRequest(body as Record<string, unknown>, options)));
  });

  // Any other method on the endpoint: 405 with the methods it takes (an unknown path below it stays a 404).
  app.all("/", () =>
    errorResponse(405, "Method not allowed: /api/omnigraph takes GET and POST", { allow: ALLOWED_METHODS }),
  );
  return app;
}
