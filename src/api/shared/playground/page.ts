import { playgroundAssetLinks } from "./assets";
import { PLAYGROUND_BOOT_SCRIPT } from "./boot-script";

/** A query offered in the playground's Examples panel. */
export interface PlaygroundExample {
  title: string;
  /** One line: what the query asks. */
  description: string;
  query: string;
  variables?: Record<string, unknown>;
}

/** What differs between the endpoints' playgrounds. */
export interface PlaygroundSpec {
  /** The page's title and the name shown in GraphiQL's corner, e.g. "nameindex /api/omnigraph". */
  title: string;
  /** The first is in the editor on a first visit; all are in the Examples panel. */
  examples: readonly PlaygroundExample[];
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch] as string);

/**
 * GraphiQL's page for the endpoint at `basePath`: its assets from our own routes under that path (never a CDN), the
 * spec as JSON for the boot script (`<` escaped, so no string in it can close the script element).
 */
export function playgroundHtml(spec: PlaygroundSpec, basePath: string): string {
  const { scripts, styles } = playgroundAssetLinks(basePath);
  const data = JSON.stringify({ ...spec, path: basePath }).replace(/</g, "\\u003c");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(spec.title)}</title>
<link rel="icon" href="data:,"><!-- no icon: not a request for /favicon.ico that answers 404 -->
${styles.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`).join("\n")}
<style>
  html, body, #graphiql { height: 100%; margin: 0; }
  .playground-examples { display: flex; flex-direction: column; gap: 4px; }
  .playground-example { text-align: left; padding: 8px; border: 0; border-radius: 6px; background: none; color: inherit; cursor: pointer; font: inherit; }
  .playground-example:hover { background: hsla(var(--color-neutral), var(--alpha-background-light)); }
  .playground-example span { display: block; opacity: 0.7; font-size: 0.9em; }
</style>
</head>
<body>
<div id="graphiql">Loading the playground…</div>
<script id="playground-spec" type="application/json">${data}</script>
${scripts.map((src) => `<script src="${escapeHtml(src)}"></script>`).join("\n")}
<script>${PLAYGROUND_BOOT_SCRIPT}</script>
</body>
</html>
`;
}
