import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import type { Context } from "hono";

/*
 * The browser builds the playground runs on, as their npm packages ship them (prebuilt UMD bundles: no bundler here),
 * served by our own process: operators run offline, so the page may name no CDN. Read and hashed once, on the first
 * request that needs them; the page links each with its hash (`?v=`), so a browser may keep them for good.
 */

const JS = "text/javascript; charset=utf-8";
const CSS = "text/css; charset=utf-8";

/** By the name the page asks for: the package and the file inside it. Kept in the order the page loads them. */
const SOURCES: Record<string, { pkg: string; file: string; type: string }> = {
  "react.production.min.js": { pkg: "react", file: "umd/react.production.min.js", type: JS },
  "react-dom.production.min.js": { pkg: "react-dom", file: "umd/react-dom.production.min.js", type: JS },
  "graphiql.min.js": { pkg: "graphiql", file: "graphiql.min.js", type: JS },
  "graphiql.min.css": { pkg: "graphiql", file: "graphiql.min.css", type: CSS },
};

interface Asset {
  body: Buffer;
  type: string;
  hash: string;
  gzipped?: Buffer;
}

let assets: Map<string, Asset> | undefined;

function loadAssets(): Map<string, Asset> {
  if (assets) return assets;
  const require = createRequire(import.meta.url);
  const loaded = new Map<string, Asset>();
  for (const [name, { pkg, file, type }] of Object.entries(SOURCES)) {
    // `<pkg>/package.json` is the one path every one of these packages exports; the bundles sit beside it.
    const body = readFileSync(join(dirname(require.resolve(`${pkg}/package.json`)), file));
    loaded.set(name, { body, type, hash: createHash("sha256").update(body).digest("hex").slice(0, 16) });
  }
  assets = loaded;
  return loaded;
}

/** The route the endpoints mount (relative to their own path) for these files. */
export const PLAYGROUND_ASSETS_ROUTE = "/playground/assets/:file";

/** The page's links to the assets under `basePath` (the endpoint's path), in load order. */
export function playgroundAssetLinks(basePath: string): { scripts: string[]; styles: string[] } {
  const links = { scripts: [] as string[], styles: [] as string[] };
  for (const [name, asset] of loadAssets()) {
    const href = `${basePath}${PLAYGROUND_ASSETS_ROUTE.replace(":file", name)}?v=${asset.hash}`;
    (asset.type === CSS ? links.styles : links.scripts).push(href);
  }
  return links;
}

/** GET of PLAYGROUND_ASSETS_ROUTE: the file, gzipped when the browser takes it, 304 when it already has it. */
export function servePlaygroundAsset(c: Context): Response {
  const asset = loadAssets().get(c.req.param("file") ?? "");
  if (!asset) {
    return new Response(JSON.stringify({ message: "Not Found" }), {
      status: 404,
      headers: { "content-type": "application/json; charset=utf-8" },
    });
  }
  const etag = `"${asset.hash}"`;
  const headers: Record<string, string> = {
    "content-type": asset.type,
    etag,
    vary: "accept-encoding",
    // A link with the current hash names these bytes forever; any other URL may be reused for a newer version.
    "cache-control": c.req.query("v") === asset.hash ? "public, max-age=31536000, immutable" : "public, max-age=300",
  };
  if (c.req.header("if-none-match") === etag) return new Response(null, { status: 304, headers });
  if (/\bgzip\b/.test(c.req.header("accept-encoding") ?? "")) {
    // Compressed once, on first demand: ~1.4 MB of bundles become ~0.4 MB on the wire.
    asset.gzipped ??= gzipSync(asset.body);
    return new Response(new Uint8Array(asset.gzipped), { headers: { ...headers, "content-encoding": "gzip" } });
  }
  return new Response(new Uint8Array(asset.body), { headers });
}
