import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { type RunningIndexer, startIndexer, waitFor } from "../../harness/indexer-harness";
import { badErrorBody, Fuzz, type FuzzRequest, type FuzzResponse } from "./support/fuzz-inputs";
import { headBytes, NODE_MAX_HEADER_BYTES, restRequest } from "./support/fuzz-routes";
import { runFuzz } from "./support/fuzz-run";
import { bySize, report } from "./support/scale";

const REQUESTS = bySize({ ci: 2_000, full: 20_000 });
const CONCURRENCY = 16;
const SEED = 8_2026;
const PLUGINS = ["subgraph", "basenames", "lineanames", "registrars", "tokenscope", "protocol-acceleration"];

/*
 * Hostile input against every REST route of a live indexer (PostgreSQL, a small devnet that keeps mining): no 5xx
 * (except /amirealtime's documented 503), every 4xx JSON in the route's documented shape with a message and no
 * stack trace, 400 where the input breaks a documented rule, and the indexer alive and answering afterwards.
 */
describe("indexer REST routes under hostile input", () => {
  let env: DevnetWithLabels;
  let indexer: RunningIndexer;
  let chainIds: number[];

  beforeAll(async () => {
    env = await startDevnetWithLabels({ seed: 21, names: 8, mineInterval: 1 });
    chainIds = Object.keys(env.devnet.manifest.chains).map(Number).sort();
    indexer = await startIndexer({
      manifestPath: env.devnet.manifestPath,
      labelsServiceUrl: env.labelsUrl,
      plugins: PLUGINS,
      database: "postgres",
    });
    await indexer.process.ready();
    // Name tokens answer once the index follows the chains; before that they are a documented 503.
    await waitFor(
      async () => (await fetch(`${indexer.url}/api/name-tokens?name=eth`)).status !== 503,
      120_000,
      "name-tokens served",
    );
  }, 400_000);

  afterAll(async () => {
    await indexer?.stop();
    await env?.stop();
  });

  it(
    `answers ${REQUESTS} generated requests without a 5xx, each error in its route's shape`,
    async () => {
      const f = new Fuzz(SEED);
      const requests = Array.from({ length: REQUESTS }, () => restRequest(f, chainIds));
      const { problems } = await runFuzz("fuzz-rest", indexer.url, requests, {
        concurrency: CONCURRENCY,
        seed: SEED,
        check,
      });
      expect(problems.slice(0, 20)).toEqual([]);
    },
    bySize({ ci: 240_000, full: 1_200_000 }),
  );

  it("is alive and serving afterwards, with no unexpected error in its log", async () => {
    expect(indexer.process.child.exitCode).toBeNull();
    expect((await fetch(`${indexer.url}/health`)).status).toBe(200);
    expect((await fetch(`${indexer.url}/api/registrar-actions?limit=1`)).status).toBe(200);
    const graphql = await fetch(`${indexer.url}/subgraph`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ domains(first: 1) { id } }" }),
    });
    expect(((await graphql.json()) as { data: { domains: unknown[] } }).data.domains).toHaveLength(1);
    // app.onError logs every 500 it turns into "Internal Server Error"; there must be none.
    const log = readFileSync(indexer.logFile, "utf8");
    expect(log).not.toMatch(/Internal Server Error|UnhandledPromiseRejection|uncaughtException/);
    report("fuzz-rest", "afterwards: /health 200, registrar actions and /subgraph answer, no server error in the log");
  });
});

const invalidInput = (b: Record<string, unknown>) =>
  b.message === "Invalid Input" &&
  Array.isArray(b.details) &&
  b.details.every((d) => typeof d?.field === "string" && typeof d?.message === "string")
    ? b.message
    : undefined;

/** The documented error body of each route family (docs/api.md), as a message extractor. */
function messageOf(req: FuzzRequest, status: number): (b: Record<string, unknown>) => unknown {
  if (req.path.startsWith("/api/name-tokens?") && req.method === "GET") {
    return (b) => {
      const error = b.error as { message?: unknown } | undefined;
      if (b.responseCode !== "error" || typeof b.errorCode !== "string") return undefined;
      return status === 400 ? invalidInput(b) && error?.message : error?.message;
    };
  }
  // GraphQL transport errors are `{ errors: [{ message }] }`; an unknown path under /subgraph is the generic 404.
  if (req.path.startsWith("/subgraph") || req.path.startsWith("/api/omnigraph"))
    return (b) => (b.errors as { message?: unknown }[] | undefined)?.[0]?.message ?? b.message;
  if (status === 400) return invalidInput;
  return (b) => b.message;
}

function check(req: FuzzRequest, res: FuzzResponse): string | undefined {
  if (res.status === 431)
    return headBytes(req) > NODE_MAX_HEADER_BYTES ? undefined : "431 for a request head under Node's limit";
  // /amirealtime's 503 is its answer ("not within the distance"), documented; every other 5xx is a failure.
  const documented503 =
    req.path.startsWith("/amirealtime") &&
    res.status === 503 &&
    (req.method === "HEAD" || /Indexing is not realtime/.test(res.body));
  if (res.status >= 500 && !documented503) return `server error: ${res.body.slice(0, 200)}`;
  if (req.expectStatus !== undefined && res.status !== req.expectStatus)
    return `expected ${req.expectStatus}: ${res.body.slice(0, 200)}`;
  if (res.status >= 400 && req.method !== "HEAD") return badErrorBody(res, messageOf(req, res.status));
  return undefined;
}
