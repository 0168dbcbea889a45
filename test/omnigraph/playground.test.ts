import { gunzipSync } from "node:zlib";
import { type OperationDefinitionNode, parse, validate } from "graphql";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { type OmnigraphOptions, omnigraphRoutes, omnigraphSchema } from "../../src/api/omnigraph";
import { OMNIGRAPH_EXAMPLES } from "../../src/api/omnigraph/examples";

/*
 * The Omnigraph's playground page and the GraphiQL files it links, answered by the endpoint's own routes (no socket,
 * no database: neither is touched), and its examples against the schema. The browser's view of them is in
 * playground-browser.system.test.ts.
 */

const app = new Hono();
// The page and its files never reach the database or the resolvers.
app.route("/api/omnigraph", omnigraphRoutes({} as OmnigraphOptions));
const page = () => app.request("/api/omnigraph", { headers: { accept: "text/html,application/xhtml+xml" } });

describe("/api/omnigraph playground", () => {
  it("answers a browser with GraphiQL's page, every file it loads from under /api/omnigraph/ and no other host", async () => {
    const res = await page();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    const html = await res.text();
    expect(html).toContain("<title>nameindex /api/omnigraph</title>");
    const links = [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);
    expect(links.filter((l) => !l.startsWith("data:"))).toHaveLength(4);
    for (const link of links)
      expect(link).toMatch(/^(\/api\/omnigraph\/playground\/assets\/[\w.-]+\?v=[0-9a-f]+|data:,)$/);
    // No host anywhere in the page: the examples, the boot script, the markup.
    expect(html).not.toMatch(/\b(https?:)?\/\/[a-z0-9-]+\.[a-z]/i);
  });

  it("serves each linked file with its content type, for good (immutable) under its hash, gzipped when asked", async () => {
    const html = await (await page()).text();
    const links = [...html.matchAll(/(?:src|href)="(\/[^"]*)"/g)].map((m) => m[1]!);
    for (const link of links) {
      const res = await app.request(link);
      expect(res.status, link).toBe(200);
      expect(res.headers.get("content-type"), link).toBe(
        link.includes(".css?") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8",
      );
      expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      const body = Buffer.from(await res.arrayBuffer());
      expect(body.length).toBeGreaterThan(5_000);

      const gzipped = await app.request(link, { headers: { "accept-encoding": "gzip, deflate, br" } });
      expect(gzipped.headers.get("content-encoding")).toBe("gzip");
      expect(gunzipSync(Buffer.from(await gzipped.arrayBuffer())).equals(body)).toBe(true);

      const again = await app.request(link, { headers: { "if-none-match": res.headers.get("etag")! } });
      expect(again.status).toBe(304);
    }
    // Another URL of the same file (no hash, an old one) may change: a short cache.
    const unhashed = await app.request("/api/omnigraph/playground/assets/graphiql.min.js");
    expect(unhashed.headers.get("cache-control")).toBe("public, max-age=300");
    expect((await app.request("/api/omnigraph/playground/assets/package.json")).status).toBe(404);
    expect((await app.request("/api/omnigraph/playground/assets/..%2Fpackage.json")).status).toBe(404);
  });

  it("HEAD without a query still gets the page's headers", async () => {
    const res = await app.request("/api/omnigraph", { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
  });
});

describe("/api/omnigraph playground examples", () => {
  const schema = omnigraphSchema();

  it("each validates against the schema, and its variables are exactly the ones it declares", () => {
    expect(OMNIGRAPH_EXAMPLES.length).toBeGreaterThanOrEqual(6);
    for (const example of OMNIGRAPH_EXAMPLES) {
      const document = parse(example.query);
      expect(
        validate(schema, document).map((e) => e.message),
        example.title,
      ).toEqual([]);
      const operation = document.definitions.find((d) => d.kind === "OperationDefinition") as OperationDefinitionNode;
      const required = (operation.variableDefinitions ?? [])
        .filter((v) => v.type.kind === "NonNullType")
        .map((v) => v.variable.name.value);
      const declared = (operation.variableDefinitions ?? []).map((v) => v.variable.name.value);
      for (const name of required) expect(example.variables ?? {}, example.title).toHaveProperty(name);
      for (const name of Object.keys(example.variables ?? {})) expect(declared, example.title).toContain(name);
    }
  });

  it("the first, in the editor on a first visit, needs no variables", () => {
    expect(OMNIGRAPH_EXAMPLES[0]!.variables).toBeUndefined();
    expect(parse(OMNIGRAPH_EXAMPLES[0]!.query).definitions[0]).toMatchObject({ variableDefinitions: [] });
  });
});
