import type { MiddlewareHandler } from "hono";

/**
 * CORS for any origin. Unlike hono/cors, it adds the header before the handler builds its response
 * (c.header), so @hono/node-server keeps its light response path; hono/cors edits c.res.headers and
 * made every /v1 response about twice as costly to send.
 */
export function allowAnyOrigin(): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method === "OPTIONS") {
      return c.body(null, 204, {
        "Access-Control-Allow-Origin": "*",
        "Access-Control-Allow-Methods": "GET,HEAD,POST,OPTIONS",
        "Access-Control-Allow-Headers": c.req.header("Access-Control-Request-Headers") ?? "Content-Type",
        "Access-Control-Max-Age": "86400",
      });
    }
    c.header("Access-Control-Allow-Origin", "*");
    await next();
  };
}
