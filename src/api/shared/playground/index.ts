import type { Context } from "hono";
import { basePath } from "hono/route";
import { type PlaygroundSpec, playgroundHtml } from "./page";

export { PLAYGROUND_ASSETS_ROUTE, servePlaygroundAsset } from "./assets";
export type { PlaygroundExample, PlaygroundSpec } from "./page";

/**
 * GraphiQL for a GraphQL endpoint (/subgraph, /api/omnigraph): `respond` answers a browser's GET with the page,
 * built once per path the endpoint's app is mounted at (its links to the assets name that path); the endpoint also
 * mounts PLAYGROUND_ASSETS_ROUTE → servePlaygroundAsset.
 */
export function playground(spec: PlaygroundSpec): { respond(c: Context, headers?: Record<string, string>): Response } {
  const pages = new Map<string, string>();
  return {
    respond(c, headers) {
      const path = basePath(c).replace(/\/+$/, "");
      let html = pages.get(path);
      if (html === undefined) pages.set(path, (html = playgroundHtml(spec, path)));
      // no-cache: a new version's page links new asset hashes; the assets themselves are cached for good.
      return new Response(html, {
        headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache", ...headers },
      });
    },
  };
}
