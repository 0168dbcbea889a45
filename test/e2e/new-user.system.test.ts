import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { namehash } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readManifestWithScenario } from "../../devnet/src/manifest";
import { projectRoot, waitFor } from "../../harness/indexer-harness";
import { findFreePort } from "../../scripts/lib/ports";
import { cleanEnv, runStart } from "../support/npm-start";

/*
 * What a new user meets on a fresh `npm start` (default mode, every plugin, PGlite), checked over HTTP: the printed
 * URLs and README's endpoint table name routes that answer, PGLITE_DIRECTORY is honoured, the indexer's log is quiet
 * while following and has no warning about contracts without handlers, the status page polls a small counter,
 * validation messages are plain text, the label service's 413 names its size limit, HEAD and CORS preflights of
 * /subgraph, when name tokens have no expiry, and names shown as `[labelhash].eth` are accepted as input.
 */

const stateDir = mkdtempSync(join(tmpdir(), "nameindex-new-user-"));
const pgliteDir = join(stateDir, "my-pglite");
let child: ChildProcess | undefined;
let output: () => string;
let url: string;
let labelsUrl: string;
let manifest: {
  scenario: {
    crossChainPrimary: { address: string; names: Record<string, string> };
    names: { name: string; labels: string[]; node: string; chainId: number }[];
  };
};

const logFile = () => join(stateDir, ".ponder", "indexer.log");
const get = async (path: string, init?: RequestInit) => {
  const res = await fetch(`${url}${path}`, init);
  const text = await res.text();
  return {
    res,
    status: res.status,
    text,
    body: text.startsWith("{") || text.startsWith("[") ? JSON.parse(text) : undefined,
  };
};

beforeAll(async () => {
  const port = await findFreePort();
  const labelsPort = await findFreePort();
  const run = await runStart(
    cleanEnv({
      NAMEINDEX_STATE_DIR: stateDir,
      PGLITE_DIRECTORY: pgliteDir,
      PORT: String(port),
      LABELS_PORT: String(labelsPort),
    }),
  );
  child = run.child;
  output = run.output;
  url = `http://127.0.0.1:${port}`;
  labelsUrl = `http://127.0.0.1:${labelsPort}`;
  manifest = readManifestWithScenario(join(stateDir, ".devnet", "manifest.json")) as unknown as typeof manifest;
  // Name tokens are served once the index follows the chains.
  await waitFor(
    async () =>
      (await get("/api/indexing-status")).body?.realtimeProjection?.snapshot?.omnichainSnapshot?.omnichainStatus ===
      "omnichain-following",
    120_000,
    "following",
  );
}, 600_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill("SIGINT");
    await new Promise((resolve) => child!.once("exit", resolve));
  }
  rmSync(stateDir, { recursive: true, force: true });
});

describe("what npm start shows", () => {
  it("prints every route family's URL, the resolution routes, /openapi.json and the label service's POST /v1/heal", () => {
    for (const path of [
      "/subgraph",
      "/api/config",
      "/api/indexing-status",
      "/api/indexing-status/events",
      "/amirealtime",
      "/api/registrar-actions",
      "/api/name-tokens?name=",
      "/api/resolve/records/",
      "/api/resolve/primary-names/",
      "/api/resolve/primary-name/",
      "/openapi.json",
    ]) {
      expect(output(), path).toContain(`${url}${path}`);
    }
    expect(output()).toContain(`POST ${labelsUrl}/v1/heal`);
    expect(output()).toContain(`${labelsUrl}/v1/heal/<labelhash>`);
  });

  it("keeps the PGlite index in PGLITE_DIRECTORY", () => {
    expect(output()).toContain(`indexing into PGlite at ${pgliteDir}`);
    expect(existsSync(join(pgliteDir, "PG_VERSION"))).toBe(true);
    expect(existsSync(join(stateDir, ".ponder"))).toBe(true);
  });

  it("answers every route of README's endpoint table, and README and docs/api.md's contents name every OpenAPI route", async () => {
    const readme = readFileSync(join(projectRoot, "README.md"), "utf8");
    const table = readme.slice(readme.indexOf("## Endpoints"), readme.indexOf("Label service (default port"));
    const cross = manifest.scenario.crossChainPrimary;
    const concrete = (route: string) =>
      route
        .replace("[/:parentNode]", "")
        .replace(":name", cross.names["31337"]!)
        .replace("name=…", `name=${cross.names["31337"]}`)
        .replace(":address", cross.address)
        .replace(":chainId", "31337");
    const routes = [...table.matchAll(/^\| `([^`]+)`/gm)].map((m) => m[1]!).filter((r) => r.startsWith("/"));
    expect(routes.length).toBeGreaterThan(10);
    for (const route of routes) {
      const { status } = await get(concrete(route));
      // A GET of a GraphQL endpoint without a query is GraphQL's 400; /amirealtime may say 503 on a machine too loaded
      // to follow.
      const answered =
        status < 400 ||
        ((route === "/subgraph" || route === "/api/omnigraph") && status === 400) ||
        (route.startsWith("/amirealtime") && status === 503);
      expect(answered, `${route}: ${status}`).toBe(true);
    }
    const { body: openapi } = await get("/openapi.json");
    const apiDoc = readFileSync(join(projectRoot, "docs/api.md"), "utf8");
    const contents = apiDoc.slice(0, apiDoc.indexOf("\n## "));
    for (const path of Object.keys(openapi.paths as Record<string, unknown>)) {
      const colon = path.replace(/\{(\w+)\}/g, ":$1");
      const forms = [colon, colon.replace(/\/:(\w+)$/, "[/:$1]")];
      expect(
        forms.some((f) => readme.includes(`\`${f}`)),
        `README: ${path}`,
      ).toBe(true);
      expect(contents, `docs/api.md contents: ${path}`).toContain(colon);
    }
    for (const family of ["/subgraph", "/openapi.json", "/api/resolve/"]) expect(contents).toContain(family);
  });
});

describe("the indexer's log", () => {
  it("shows backfill progress, then stays quiet while following (no line per block), with no warning about handlers", async () => {
    const lines = () => readFileSync(logFile(), "utf8").split("\n");
    const before = lines().length;
    const blocks = async () => {
      const status = (await get("/status")).body as Record<string, { block?: { number: number } }>;
      return Object.fromEntries(Object.entries(status).map(([chain, s]) => [chain, s.block?.number ?? 0]));
    };
    const start = await blocks();
    await new Promise((r) => setTimeout(r, 20_000));
    const end = await blocks();
    // A block a second on each of three chains: Ponder alone logged two lines per block (indexed, finalized).
    for (const chain of Object.keys(start)) expect(end[chain]! - start[chain]!, chain).toBeGreaterThanOrEqual(8);
    const added = lines()
      .slice(before - 1)
      .filter((l) => l.trim() !== "");
    expect(added.length, added.join("\n")).toBeLessThanOrEqual(5);
    const all = lines().join("\n");
    expect(all).toMatch(/Indexed block range|Updated backfill indexing progress/);
    expect(all).not.toContain("No registered indexing functions");
  }, 60_000);
});

describe("small things a new user trips on", () => {
  it("the status page computes events/s from the small counter, not from the whole /metrics", async () => {
    const page = (await get("/")).text;
    expect(page).toContain('fetch("/api/indexing-status/events"');
    expect(page).not.toContain('fetch("/metrics"');
    const events = await get("/api/indexing-status/events");
    expect(events.status).toBe(200);
    expect(events.body.completedEvents).toBeGreaterThan(0);
    expect(events.text.length).toBeLessThan(100);
  });

  it("validation messages are plain text (no invisible U+200E)", async () => {
    for (const path of [
      "/api/resolve/records/a..eth",
      "/api/name-tokens?name=a..eth",
      "/api/name-tokens?name=a_b.eth",
    ]) {
      const { status, text, body } = await get(path);
      expect(status, path).toBe(400);
      expect(body.details[0].message, path).toMatch(/^name is not a valid ENS name: Invalid label "(a_b)?": /);
      expect(text, path).not.toMatch(/\u200e|\\u200e/i);
    }
  });

  it("the label service's 413 for a 2 MB batch names its size limit", async () => {
    const body = JSON.stringify(Array.from({ length: 30_000 }, (_, i) => `0x${i.toString(16).padStart(64, "0")}`));
    expect(body.length).toBeGreaterThan(2_000_000);
    const res = await fetch(`${labelsUrl}/v1/heal`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toBe(
      "Request body too large: at most 262144 bytes (256 KiB) and 1000 labelhashes per request",
    );
  });

  it("HEAD /subgraph answers like a GET would, and preflights advertise only the methods that exist", async () => {
    const head = await fetch(`${url}/subgraph`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toMatch(/text\/html/);
    const headQuery = await fetch(`${url}/subgraph?query=${encodeURIComponent("{ _meta { block { number } } }")}`, {
      method: "HEAD",
    });
    expect(headQuery.status).toBe(200);
    expect(headQuery.headers.get("content-type")).toMatch(/application\/json/);
    const preflight = (path: string) =>
      fetch(`${url}${path}`, {
        method: "OPTIONS",
        headers: {
          origin: "https://app.example",
          "access-control-request-method": "POST",
          "access-control-request-headers": "content-type",
        },
      });
    const subgraph = await preflight("/subgraph");
    expect(subgraph.status).toBe(204);
    expect(subgraph.headers.get("access-control-allow-origin")).toBe("*");
    expect(subgraph.headers.get("access-control-allow-methods")).toBe("GET, HEAD, POST, OPTIONS");
    expect(subgraph.headers.get("access-control-allow-headers")).toBe("content-type");
    expect((await preflight("/api/name-tokens")).headers.get("access-control-allow-methods")).toBe(
      "GET, HEAD, OPTIONS",
    );
    // What a preflight does not advertise does not exist.
    for (const method of ["PUT", "DELETE", "PATCH"])
      expect((await fetch(`${url}/subgraph`, { method })).status, method).toBe(404);
  });

  it("name tokens have an integer expiresAt except for names without an expiry (unwrapped subnames)", async () => {
    const managed = new Set(["eth", "base.eth", "linea.eth"].map((n) => namehash(n)));
    let withTokens = 0;
    for (const f of manifest.scenario.names) {
      const { status, body } = await get(`/api/name-tokens?domainId=${f.node}`);
      if (status === 404) continue;
      expect(status, f.name).toBe(200);
      withTokens++;
      const { expiresAt, tokens } = body.registeredNameTokens;
      const parent = namehash(f.labels.slice(1).join("."));
      const registrarName = f.labels.length === (f.chainId === 31337 ? 2 : 3) && managed.has(parent);
      if (registrarName || tokens.some((t: any) => t.token.assetNamespace === "erc1155" && t.mintStatus === "minted")) {
        expect(Number.isInteger(expiresAt), `${f.name} (${f.chainId})`).toBe(true);
      } else if (expiresAt === null) {
        // The wrapper's expiry went with the wrapping: every token is a burned ERC-1155 of a subname.
        expect(
          tokens.every((t: any) => t.token.assetNamespace === "erc1155" && t.mintStatus === "burned"),
          f.name,
        ).toBe(true);
      }
    }
    expect(withTokens).toBeGreaterThan(20);
  });

  it("accepts names shown as [labelhash] by /subgraph wherever a name is accepted", async () => {
    const query = JSON.stringify({ query: '{ domains(first: 100, where: { name_starts_with: "[" }) { id name } }' });
    const { body } = await get("/subgraph", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: query,
    });
    const encoded = (body.data.domains as { id: string; name: string }[]).filter((d) =>
      /^\[[0-9a-f]{64}\]\./.test(d.name),
    );
    expect(encoded.length).toBeGreaterThan(0);
    let tokensFound = 0;
    for (const d of encoded) {
      const byName = await get(`/api/name-tokens?name=${encodeURIComponent(d.name)}`);
      const byId = await get(`/api/name-tokens?domainId=${d.id}`);
      expect(byName.status, d.name).toBe(byId.status);
      if (byName.status === 200) {
        tokensFound++;
        expect(byName.body.registeredNameTokens.domainId).toBe(d.id);
        expect(byName.body.registeredNameTokens.tokens).toEqual(byId.body.registeredNameTokens.tokens);
      }
      const records = await get(`/api/resolve/records/${encodeURIComponent(d.name)}?addresses=60&texts=url`);
      expect(records.status, d.name).toBe(200);
      // The same node as the plaintext name the scenario registered: the same records.
      const plain = manifest.scenario.names.find((f) => f.node === d.id);
      // (A label holding a dot is shown encoded too; its name as a string is another node.)
      if (plain && /^[a-z0-9.-]+$/.test(plain.name) && namehash(plain.name) === plain.node) {
        const direct = await get(`/api/resolve/records/${encodeURIComponent(plain.name)}?addresses=60&texts=url`);
        expect(records.body.records, d.name).toEqual(direct.body.records);
      }
    }
    expect(tokensFound).toBeGreaterThan(0);
    // Uppercase hex is refused with the normalized form, like any unnormalized name.
    const upper = encoded[0]!.name.replace(/^\[([0-9a-f]{64})\]/, (_, h: string) => `[${h.toUpperCase()}]`);
    const refused = await get(`/api/name-tokens?name=${encodeURIComponent(upper)}`);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(`its normalized form is \\"${encoded[0]!.name}\\"`);
  });
});
