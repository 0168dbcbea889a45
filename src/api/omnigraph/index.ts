import { type Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { executeOmnigraphRequest, type OmnigraphOptions, type OmnigraphResponse } from "./execute";
import { OMNIGRAPH_PLAYGROUND_HTML } from "./playground";

export { executeOmnigraphRequest, type OmnigraphOptions, omnigraphSchema } from "./execute";

/*
 * /api/omnigraph: GraphQL over GET (`?query=&variables=`) and POST (JSON, or `application/graphql`), a playground for
 * a browser's GET without a query. ENSv1 of every indexed chain; see docs/api.md for what differs from the peer's.
 */

const MAX_BODY_BYTES = 256 * 1024;

const toResponse = (r: OmnigraphResponse) =>
  new Response(r.encoded ? new Uint8Array(r.encoded) : (r.json ?? JSON.stringify(r.body)), {
    status: r.status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "access-control-allow-origin": "*",
      ...(r.cache ? { "x-omnigraph-cache": r.cache } : {}),
    },
  });

const errorResponse = (status: number, message: string) =>
  toResponse({ status, body: { errors: [{ message }] }, statements: 0 });

export function omnigraphRoutes(options: OmnigraphOptions): Hono {
  const app = new Hono();
  app.use("*", cors({ origin: "*", allowMethods: ["GET", "POST", "OPTIONS"], allowHeaders: ["content-type"] }));

  app.get("/", async (c: Context) => {
    const query = c.req.query("query");
    if (query === undefined && (c.req.method === "HEAD" || (c.req.header("accept") ?? "").includes("text/html"))) {
      return c.html(OMNIGRAPH_PLAYGROUND_HTML);
    }
    return toResponse(
      await executeOmnigraphRequest(
        { query, variables: c.req.query("variables"), operationName: c.req.query("operationName") },
        options,
      ),
    );
  });

  app.post(
    "/",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => errorResponse(413, `Request body is larger than ${MAX_BODY_BYTES} bytes`),
    }),
    async (c: Context) => {
      const text = await c.req.text();
      if ((c.req.header("content-type") ?? "").includes("application/graphql"))
        return toResponse(await executeOmnigraphRequest({ query: text }, options));
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return errorResponse(400, "Request body is not valid JSON");
      }
      if (body === null || typeof body !== "object" || Array.isArray(body))
        return errorResponse(400, "Request body must be a JSON object with a `query`");
      return toResponse(await executeOmnigraphRequest(body as Record<string, unknown>, options));
    },
  );
  return app;
}
