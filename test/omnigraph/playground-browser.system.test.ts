import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFixture, FIXTURE_HEAD, type Rows } from "../../harness/subgraph-fixture/fixture";
import type { TestDatabase } from "../../harness/subgraph-fixture/pg";
import {
  executeOmnigraphRequest,
  type OmnigraphOptions,
  omnigraphRoutes,
  omnigraphSchema,
} from "../../src/api/omnigraph";
import { OMNIGRAPH_EXAMPLES } from "../../src/api/omnigraph/examples";
import { createSubgraphApp } from "../../src/api/subgraph";
import { CHROMIUM_ARGS, ensureChromium } from "../support/chromium";
import { seededOmnigraph } from "./seeded-omnigraph";

/*
 * Both playgrounds in a real browser (headless Chromium, as the status page's test) against a server on a seeded
 * index: GraphiQL loads from our own routes, an example picked in its Examples panel runs, and the result pane shows
 * the index's data. Every request the page makes stays on 127.0.0.1: nothing from a CDN.
 */

let t: TestDatabase;
let rows: Rows;
let internalErrors: unknown[];
let server: ReturnType<typeof serve>;
let origin: string;
let browser: Browser;
let options: OmnigraphOptions;

beforeAll(async () => {
  rows = buildFixture({ secondLevel: 30, accounts: 4 });
  ({ t, options, internalErrors } = await seededOmnigraph("og_playground", rows));
  const app = new Hono();
  app.route("/api/omnigraph", omnigraphRoutes(options));
  const getMeta = async () => ({ block: FIXTURE_HEAD, deployment: "playground-test", hasIndexingErrors: false });
  app.route("/subgraph", createSubgraphApp({ db: t.db, getMeta, onError: (e) => internalErrors.push(e) }));
  server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 });
  await new Promise((resolve) => server.once("listening", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: ensureChromium(), args: CHROMIUM_ARGS });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  await t?.drop();
});

/** A fresh page on `path` with GraphiQL up; what it requested and what went wrong on its console. */
async function openPlayground(
  path: string,
  context?: BrowserContext,
): Promise<{ page: Page; requested: string[]; errors: string[] }> {
  const page = await (context ?? (await browser.newContext())).newPage();
  const requested: string[] = [];
  const errors: string[] = [];
  page.on("request", (r) => requested.push(r.url()));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${origin}${path}`);
  await page.waitForSelector(".graphiql-container .graphiql-execute-button");
  return { page, requested, errors };
}

/** Runs the editor's query with the run button and reads the result pane (GraphiQL's CodeMirror) as JSON. */
async function runAndRead(page: Page): Promise<any> {
  await page.click(".graphiql-execute-button");
  const read = () =>
    (
      document.querySelector(".result-window .CodeMirror") as unknown as { CodeMirror: { getValue(): string } }
    )?.CodeMirror.getValue() ?? "";
  await page.waitForFunction(() => {
    const text =
      (
        document.querySelector(".result-window .CodeMirror") as unknown as { CodeMirror?: { getValue(): string } }
      )?.CodeMirror?.getValue() ?? "";
    return text.includes('"data"') || text.includes('"errors"');
  });
  return JSON.parse(await page.evaluate(read));
}

const local = (url: string) => url.startsWith(`${origin}/`) || url.startsWith("data:");

describe("the Omnigraph playground's examples on a seeded index", () => {
  it("each answers without errors", async () => {
    for (const example of OMNIGRAPH_EXAMPLES) {
      const r = await executeOmnigraphRequest({ query: example.query, variables: example.variables }, options);
      expect(r.body.errors, example.title).toBeUndefined();
    }
    expect(internalErrors).toEqual([]);
  });
});

describe("the GraphiQL playgrounds in Chromium", () => {
  it("/api/omnigraph: an example picked from the Examples panel runs and shows the index's subdomains of eth", async () => {
    const { page, requested, errors } = await openPlayground("/api/omnigraph");
    expect(await page.title()).toBe("nameindex /api/omnigraph");
    await page.click('button[aria-label="Show Examples"]');
    await page.click('button[data-example="Subdomains, newest first, paged"]');
    const result = await runAndRead(page);
    expect(result.errors).toBeUndefined();
    const eth = rows.domain!.find((d) => d.name === "eth")!.id;
    const children = rows.domain!.filter((d) => d.parentId === eth);
    const page1 = result.data.domain.subdomains;
    expect(page1.totalCount).toBe(children.length);
    expect(page1.edges).toHaveLength(10);
    // Names with a known label are the fixture's own (an unknown label shows as its encoded hash).
    const shown: string[] = page1.edges.map((e: any) => e.node.canonical.name.interpreted);
    const known = shown.filter((name) => !name.startsWith("["));
    expect(known.length).toBeGreaterThan(0);
    for (const name of known) expect(children.map((d) => d.name)).toContain(name);

    // The docs explorer shows the schema's own descriptions, introspected from our server.
    await page.click('button[aria-label="Show Documentation Explorer"]');
    await page.click('.graphiql-doc-explorer a:has-text("Query")');
    await page.waitForSelector(".graphiql-doc-explorer-title:has-text('Query')");
    const docs = (await page.textContent(".graphiql-doc-explorer-content")) ?? "";
    const query = omnigraphSchema().getQueryType()!;
    expect(docs).toContain(query.description);
    expect(docs).toContain(query.getFields().domain!.description);

    // The page's own fetches: the assets from under /api/omnigraph/, the queries (introspection and ours) to it.
    expect(requested.filter((u) => !local(u))).toEqual([]);
    expect(requested.some((u) => u.startsWith(`${origin}/api/omnigraph/playground/assets/graphiql.min.js?v=`))).toBe(
      true,
    );
    expect(errors).toEqual([]);
    expect(internalErrors).toEqual([]);
  }, 120_000);

  it("/subgraph: the first example, in the editor on a first visit, runs and shows _meta and domains", async () => {
    const { page, requested, errors } = await openPlayground("/subgraph");
    expect(await page.title()).toBe("nameindex /subgraph");
    const result = await runAndRead(page);
    expect(result.errors).toBeUndefined();
    expect(result.data._meta.deployment).toBe("playground-test");
    expect(result.data.domains).toHaveLength(10);
    expect(requested.filter((u) => !local(u))).toEqual([]);
    expect(errors).toEqual([]);
    expect(internalErrors).toEqual([]);
  }, 120_000);

  it("keeps each endpoint's editor to itself: an Omnigraph query does not come back in /subgraph's", async () => {
    const context = await browser.newContext();
    const editorText = (page: Page) =>
      page.evaluate(() =>
        (
          document.querySelector(".graphiql-query-editor .CodeMirror") as unknown as {
            CodeMirror: { getValue(): string };
          }
        ).CodeMirror.getValue(),
      );
    const omnigraph = (await openPlayground("/api/omnigraph", context)).page;
    await omnigraph.click('button[aria-label="Show Examples"]');
    await omnigraph.click('button[data-example="Find names by prefix"]');
    // GraphiQL saves the tab after a pause in editing.
    await omnigraph.waitForFunction(() => Object.values(localStorage).some((v) => v.includes("FindNames")));
    const subgraph = (await openPlayground("/subgraph", context)).page;
    expect(await editorText(subgraph)).toMatch(/^# Newest domains/);
    await omnigraph.reload();
    await omnigraph.waitForSelector(".graphiql-query-editor .CodeMirror");
    expect(await editorText(omnigraph)).toContain("query FindNames");
    await context.close();
  }, 120_000);
});
