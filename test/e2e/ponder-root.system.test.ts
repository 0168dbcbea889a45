import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Address, createPublicClient, type Hex, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RegistryAbi } from "../../abis";
import type { NameFacts } from "../../devnet/src/index";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { createDatabase, dropDatabase, projectRoot, waitFor } from "../../harness/indexer-harness";
import { findFreePort } from "../../scripts/lib/ports";

/*
 * What docs/operations.md tells an operator, word for word: in a fresh checkout of the repository (a `git clone` of
 * this checkout's HEAD, node_modules linked from here instead of installed again), `npx ponder start --schema
 * nameindex` in the project root, with no --root, then `npx ponder serve --schema nameindex` beside it on the same
 * PostgreSQL database. Both answer /subgraph and /api/omnigraph with the chain's own facts.
 */

const SCHEMA = "nameindex";

/** A process group we started (`npx` → `sh` → `node …/ponder`): npx does not pass SIGTERM on to Ponder itself. */
interface Started {
  child: ChildProcess;
  url: string;
  logFile: string;
}

function startNpx(cwd: string, args: string[], env: NodeJS.ProcessEnv, port: number, logFile: string): Started {
  const log = openSync(logFile, "a");
  const child = spawn("npx", args, {
    cwd,
    env: { ...env, PORT: String(port) },
    detached: true,
    stdio: ["ignore", log, log],
  });
  return { child, url: `http://127.0.0.1:${port}`, logFile };
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM to the whole group we started, SIGKILL after 20 s; resolves when no process of it is left. */
async function stopGroup(started: Started | undefined): Promise<void> {
  const pgid = started?.child.pid;
  if (pgid === undefined || !groupAlive(pgid)) return;
  process.kill(-pgid, "SIGTERM");
  const deadline = Date.now() + 20_000;
  while (groupAlive(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  if (groupAlive(pgid)) process.kill(-pgid, "SIGKILL");
  while (groupAlive(pgid)) await new Promise((r) => setTimeout(r, 100));
}

async function waitForStatus(started: Started, path: string, timeoutMs: number): Promise<void> {
  let exited = false;
  started.child.once("exit", () => (exited = true));
  await waitFor(
    async () => {
      if (exited) throw new Error(`${path}: the process exited; its log:\n${readFileSync(started.logFile, "utf8")}`);
      return (await fetch(`${started.url}${path}`).catch(() => undefined))?.status === 200;
    },
    timeoutMs,
    `${started.url}${path}`,
  ).catch((error: Error) => {
    throw new Error(`${error.message}\n${readFileSync(started.logFile, "utf8").slice(-4000)}`);
  });
}

async function graphql<T>(url: string, query: string): Promise<T> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data?: T; errors?: unknown };
  expect(body.errors).toBeUndefined();
  return body.data as T;
}

describe("Ponder's root is the project root: npx ponder start and serve in a fresh clone", () => {
  let work: string;
  let clone: string;
  let env: DevnetWithLabels;
  let database: string | undefined;
  let databaseUrl: string;
  let indexer: Started | undefined;
  let replica: Started | undefined;
  let ponderEnv: NodeJS.ProcessEnv;
  let name: NameFacts;
  let chainOwner: Address;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "nameindex-ponder-root-"));
    clone = join(work, "clone");
    const head = execFileSync("git", ["-C", projectRoot, "rev-parse", "HEAD"], { encoding: "utf8" }).trim();
    execFileSync("git", ["clone", "--quiet", projectRoot, clone]);
    execFileSync("git", ["-C", clone, "checkout", "--quiet", "--detach", head]);
    symlinkSync(join(projectRoot, "node_modules"), join(clone, "node_modules"));

    env = await startDevnetWithLabels({ seed: 5, names: 12 });
    // A database of its own: Ponder's RPC cache (ponder_sync) is keyed by chain id, which every devnet reuses.
    database = `nameindex_root_${Date.now().toString(36)}_${process.pid}`;
    databaseUrl = await createDatabase(database);

    // A .eth name registered on the root chain, all labels healable, not wrapped: its owner in the registry now.
    const unhealable = new Set((env.devnet.manifest.scenario as { unhealableLabels: string[] }).unhealableLabels);
    const names = (env.devnet.manifest.scenario as { names: NameFacts[] }).names;
    name = names.find(
      (n) =>
        n.chainId === 31337 &&
        n.labels.length === 2 &&
        n.labels[1] === "eth" &&
        /^[a-z0-9]+$/.test(n.labels[0]!) &&
        !unhealable.has(n.labels[0]!) &&
        n.wrappedOwner === undefined &&
        n.registryOwner !== undefined &&
        BigInt(n.registryOwner) !== 0n,
    )!;
    expect(name, "a plain .eth name in the scenario").toBeDefined();
    const chain = env.devnet.manifest.chains["31337"]!;
    const registry = env.devnet.manifest.datasources.ensroot!.contracts.Registry!.address as Address;
    const client = createPublicClient({ transport: http(chain.rpcUrl) });
    chainOwner = (
      await client.readContract({
        address: registry,
        abi: RegistryAbi,
        functionName: "owner",
        args: [name.node as Hex],
      })
    ).toLowerCase() as Address;

    // The environment docs/operations.md lists, nothing inherited that would choose for it.
    ponderEnv = { ...process.env };
    for (const key of [
      "NAMESPACE",
      "DEVNET_MANIFEST",
      "LABELS_SERVICE_URL",
      "LABELS_DB",
      "DATABASE_URL",
      "DATABASE_SCHEMA",
      "PGLITE_DIRECTORY",
      "PLUGINS",
      "PORT",
      "INDEXER_URL",
    ])
      delete ponderEnv[key];
    Object.assign(ponderEnv, {
      NAMESPACE: "devnet",
      DEVNET_MANIFEST: env.devnet.manifestPath,
      LABELS_SERVICE_URL: env.labelsUrl,
      DATABASE_URL: databaseUrl,
      MALLOC_ARENA_MAX: "2",
      MALLOC_MMAP_THRESHOLD_: "131072",
      PONDER_CACHE_BYTES: "268435456",
      NODE_ENV: "production",
      PONDER_TELEMETRY_DISABLED: "true",
      NO_COLOR: "1",
    });
  }, 300_000);

  afterAll(async () => {
    await stopGroup(replica);
    await stopGroup(indexer);
    if (database) await dropDatabase(database);
    await env?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("the clone has Ponder's files at its root and no ponder/ folder", () => {
    for (const file of ["ponder.config.ts", "ponder.schema.ts", "ponder-env.d.ts", "src/index.ts", "src/api/index.ts"])
      expect(existsSync(join(clone, file)), file).toBe(true);
    expect(existsSync(join(clone, "ponder"))).toBe(false);
  });

  const subgraphQuery = (n: string) => `{ domains(where: { name: "${n}" }) { name owner { id } } }`;
  const omnigraphQuery = (n: string) =>
    `{ domain(by: { name: "${n}" }) { __typename canonical { name { interpreted } } ... on ENSv1Domain { rootRegistryOwner { address } } } }`;
  const countQuery = "{ domains(first: 1000) { id } }";

  async function answers(url: string) {
    const subgraph = await graphql<{ domains: { name: string; owner: { id: string } }[] }>(
      `${url}/subgraph`,
      subgraphQuery(name.name),
    );
    const omnigraph = await graphql<{
      domain: {
        __typename: string;
        canonical: { name: { interpreted: string } };
        rootRegistryOwner: { address: string };
      };
    }>(`${url}/api/omnigraph`, omnigraphQuery(name.name));
    const all = await graphql<{ domains: { id: string }[] }>(`${url}/subgraph`, countQuery);
    return { subgraph, omnigraph, count: all.domains.length };
  }

  it("`npx ponder start --schema nameindex` in the clone's root indexes the devnet and answers /subgraph and /api/omnigraph", async () => {
    indexer = startNpx(
      clone,
      ["ponder", "start", "--schema", SCHEMA, "-H", "127.0.0.1"],
      ponderEnv,
      await findFreePort(),
      join(work, "start.log"),
    );
    await waitForStatus(indexer, "/ready", 240_000);

    const { subgraph, omnigraph, count } = await answers(indexer.url);
    expect(subgraph.domains).toEqual([{ name: name.name, owner: { id: chainOwner } }]);
    expect(omnigraph.domain).toEqual({
      __typename: "ENSv1Domain",
      canonical: { name: { interpreted: name.name } },
      rootRegistryOwner: { address: chainOwner },
    });
    expect(count).toBeGreaterThan(12);
    // Ponder rewrote ponder-env.d.ts with the text the repository holds, and wrote nothing else that git tracks.
    expect(execFileSync("git", ["-C", clone, "status", "--porcelain"], { encoding: "utf8" })).toBe("");
  }, 300_000);

  it("`npx ponder serve --schema nameindex` in the clone's root answers the same from the same database", async () => {
    expect(indexer, "the indexer of the previous test").toBeDefined();
    replica = startNpx(
      clone,
      ["ponder", "serve", "--schema", SCHEMA, "-H", "127.0.0.1"],
      { ...ponderEnv, INDEXER_URL: indexer!.url },
      await findFreePort(),
      join(work, "serve.log"),
    );
    // /serving, as a load balancer probes: /health answers before the replica's first database probe has finished.
    await waitForStatus(replica, "/serving", 120_000);
    const fromReplica = await answers(replica.url);
    expect(fromReplica.subgraph.domains).toEqual([{ name: name.name, owner: { id: chainOwner } }]);
    expect(fromReplica.omnigraph.domain.rootRegistryOwner).toEqual({ address: chainOwner });
    expect(fromReplica).toEqual(await answers(indexer!.url));
    // A replica executes no indexing code: no handler registered, no backfill of its own.
    expect(readFileSync(replica.logFile, "utf8")).not.toMatch(/Started backfill indexing/);
  }, 200_000);

  it("a --schema other than DATABASE_SCHEMA is the schema the app reads (ponder.config.ts follows Ponder's)", async () => {
    const other = startNpx(
      clone,
      ["ponder", "serve", "--schema", SCHEMA, "-H", "127.0.0.1"],
      { ...ponderEnv, DATABASE_SCHEMA: "not_the_index" },
      await findFreePort(),
      join(work, "serve-other.log"),
    );
    try {
      await waitForStatus(other, "/serving", 120_000);
      const config = (await fetch(`${other.url}/api/config`).then((r) => r.json())) as { databaseSchemaName: string };
      expect(config.databaseSchemaName).toBe(SCHEMA);
      expect((await fetch(`${other.url}/api/indexing-status`)).status).toBe(200);
      expect(await answers(other.url)).toEqual(await answers(indexer!.url));
    } finally {
      await stopGroup(other);
    }
  }, 200_000);
});
