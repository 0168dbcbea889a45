import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot, waitFor } from "../../harness/indexer-harness";
import { ingestDemoLabelSet, labelhashOf } from "../../labels-service/src/index";
import { findFreePort } from "../../scripts/lib/ports";
import { badErrorBody, Fuzz, type FuzzRequest, type FuzzResponse } from "./support/fuzz-inputs";
import { headBytes, labelsRequest, NODE_MAX_HEADER_BYTES } from "./support/fuzz-routes";
import { runFuzz } from "./support/fuzz-run";
import { bySize, report } from "./support/scale";

const REQUESTS = bySize({ ci: 2_000, full: 20_000 });
const CONCURRENCY = 16;
const SEED = 20261122;

/*
 * Hostile input against the label service, run as its own process (the CLI's `serve`) so that a crash is a dead
 * server, not a failed assertion inside the test's process: no 5xx, every error in the spec's shape
 * `{ status: "error", error, errorCode = HTTP status }`, 400 where the input is invalid, and still healing afterwards.
 */
describe("label service under hostile input", () => {
  let dir: string;
  let server: ChildProcess;
  let url: string;
  let output = "";

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "nameindex-fuzz-labels-"));
    const db = join(dir, "labels.sqlite");
    await ingestDemoLabelSet({ dbPath: db, extraLabels: ["alice"], excludeLabels: [] });
    const port = await findFreePort();
    server = spawn(
      join(projectRoot, "node_modules/.bin/tsx"),
      ["labels-service/src/cli.ts", "serve", "--db", db, "--port", String(port), "--host", "127.0.0.1"],
      {
        cwd: projectRoot,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    server.stdout?.on("data", (d: Buffer) => (output += d.toString()));
    server.stderr?.on("data", (d: Buffer) => (output += d.toString()));
    url = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await fetch(`${url}/v1/config`)).status === 200, 60_000, "label service /v1/config");
  }, 120_000);

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server.once("exit", r));
      server.kill("SIGTERM");
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(
    `answers ${REQUESTS} generated requests without a 5xx, each error in the spec's shape`,
    async () => {
      const f = new Fuzz(SEED);
      const requests = Array.from({ length: REQUESTS }, () => labelsRequest(f));
      const { problems } = await runFuzz("fuzz-labels", url, requests, { concurrency: CONCURRENCY, seed: SEED, check });
      expect(problems.slice(0, 20)).toEqual([]);
      expect(output).not.toMatch(/unexpected error/);
    },
    bySize({ ci: 180_000, full: 900_000 }),
  );

  it("is alive and still heals afterwards", async () => {
    expect(server.exitCode).toBeNull();
    expect(await (await fetch(`${url}/health`)).json()).toEqual({ status: "ok" });
    const healed = await (await fetch(`${url}/v1/heal/${labelhashOf("alice")}`)).json();
    expect(healed).toEqual({ status: "success", label: "alice" });
    report("fuzz-labels", "afterwards: /health ok, alice healed, process still running");
  });
});

/** Why an answer breaks the rules, or undefined. */
function check(req: FuzzRequest, res: FuzzResponse): string | undefined {
  const { method, expectStatus } = req;
  if (res.status >= 500) return "server error";
  // Node's parser rejects an oversized request head itself, before the app: a transport answer without a body.
  if (res.status === 431)
    return headBytes(req) > NODE_MAX_HEADER_BYTES ? undefined : "431 for a request head under Node's limit";
  if (expectStatus !== undefined && res.status !== expectStatus)
    return `expected ${expectStatus}: ${res.body.slice(0, 200)}`;
  if (res.status >= 400 && method !== "HEAD") {
    const bad = badErrorBody(res, (b) => (b.status === "error" && b.errorCode === res.status ? b.error : undefined));
    if (bad) return bad;
  }
  return undefined;
}
