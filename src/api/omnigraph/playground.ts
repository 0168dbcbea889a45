import { PLAYGROUND_HTML } from "../subgraph/playground";

const EXAMPLE = `{
  domain(by: { name: "eth" }) {
    canonical { name { interpreted } }
    subdomains(first: 10, order: { by: REGISTRATION_TIMESTAMP, dir: DESC }) {
      totalCount
      edges { node { canonical { name { interpreted beautified } } owner { address } registration { expiry } } }
    }
  }
}`;

/** /subgraph's playground (it posts to its own path) with the Omnigraph's title and an Omnigraph example. */
export const OMNIGRAPH_PLAYGROUND_HTML = PLAYGROUND_HTML.replace(/nameindex \/subgraph/g, "nameindex /api/omnigraph")
  .replace("nameindex · subgraph", "nameindex · omnigraph")
  .replace(
    /(<textarea id="query" spellcheck="false">)[\s\S]*?(<\/textarea>)/,
    (_, open: string, close: string) => `${open}${EXAMPLE}${close}`,
  );
