import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startDevnetWithLabels } from "../../harness/devnet-fixture";
import { findFreePort, isPortFree } from "../../scripts/lib/ports";
import { cleanEnv, runStart } from "../support/npm-start";

/** The environment of the running `ponder start` listening on this port, read from /proc (Linux). */
function ponderEnvironment(port: number): Map<string, string> {
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    } catch {
      continue; // exited meanwhile
    }
    const isIndexer =
      argv.some((arg) => arg.endsWith("/ponder")) &&
      argv.includes("start") &&
      argv[argv.indexOf("-p") + 1] === String(port);
    if (!isIndexer) continue;
    const entries = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean);
    return new Map(entries.map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]));
  }
  throw new Error(`no ponder start process listening on port ${port}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("npm start", () => {
  const stateDir = mkdtempSync(join(tmpdir(), "nameindex-start-"));
  let child: ChildProcess | undefined;

  afterAll(() => {
    if (child && child.exitCode === null) child.kill("SIGKILL");
    rmSync(stateDir, { recursive: true, force: true });
  });

  it("starts the devnet, the label service and the indexer, reaches /ready, and stops everything on Ctrl-C", async () => {
    const port = await findFreePort();
    const labelsPort = await findFreePort();
    const run = await runStart(
      cleanEnv({ NAMEINDEX_STATE_DIR: stateDir, PORT: String(port), LABELS_PORT: String(labelsPort) }),
    );
    child = run.child;
    const { exited } = run;
    const output = run.output;

    const ready = await fetch(`http://127.0.0.1:${port}/ready`);
    expect(ready.status).toBe(200);
    expect(await fetch(`http://127.0.0.1:${labelsPort}/health`).then((r) => r.json())).toEqual({ status: "ok" });
    expect(output()).toContain(`http://127.0.0.1:${port}/subgraph`);
    // glibc reads its malloc tunables only at process start, so npm start passes them (scripts/lib/ponder-memory-env.ts).
    const indexerEnv = ponderEnvironment(port);
    expect(indexerEnv.get("MALLOC_ARENA_MAX")).toBe("2");
    expect(indexerEnv.get("MALLOC_MMAP_THRESHOLD_")).toBe("131072");
    // graphql-js runs in development mode unless NODE_ENV is production (scripts/lib/production-node-env.ts).
    expect(indexerEnv.get("NODE_ENV")).toBe("production");
    // Ponder's row cache reads its bound once at start-up too: 256 MiB unless the operator sets one.
    expect(indexerEnv.get("PONDER_CACHE_BYTES")).toBe(String(256 * 1024 * 1024));

    const manifest = JSON.parse(readFileSync(join(stateDir, ".devnet", "manifest.json"), "utf8"));
    const chainPids = Object.values(manifest.chains as Record<string, { pid: number }>).map((c) => c.pid);
    expect(chainPids).toHaveLength(3);
    expect(chainPids.every(isAlive)).toBe(true);

    child.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(output()).toContain("[start] stopped");
    expect(chainPids.some(isAlive)).toBe(false);
    expect(await isPortFree(port)).toBe(true);
    expect(await isPortFree(labelsPort)).toBe(true);
  }, 400_000);

  it("indexes chains someone else runs (DEVNET_MANIFEST) with their label service (LABELS_SERVICE_URL), leaving both running", async () => {
    const external = await startDevnetWithLabels({ seed: 2, names: 4 });
    try {
      const port = await findFreePort();
      const run = await runStart(
        cleanEnv({
          NAMEINDEX_STATE_DIR: stateDir,
          PORT: String(port),
          LABELS_PORT: String(await findFreePort()),
          DEVNET_MANIFEST: external.devnet.manifestPath,
          LABELS_SERVICE_URL: external.labelsUrl,
          MALLOC_ARENA_MAX: "4",
          PONDER_CACHE_BYTES: String(64 * 1024 * 1024),
        }),
      );
      child = run.child;
      expect(run.output()).toContain(
        `indexing the devnet described by ${external.devnet.manifestPath} (not starting chains)`,
      );
      expect(run.output()).toContain(`using the label service at ${external.labelsUrl}`);
      expect(run.output()).not.toContain("starting the devnet");
      const config = (await fetch(`http://127.0.0.1:${port}/api/config`).then((r) => r.json())) as {
        labelsServiceUrl: string;
      };
      expect(config.labelsServiceUrl).toBe(external.labelsUrl);
      // An operator's own malloc and cache settings reach the indexer unchanged; the others keep their defaults.
      const indexerEnv = ponderEnvironment(port);
      expect(indexerEnv.get("MALLOC_ARENA_MAX")).toBe("4");
      expect(indexerEnv.get("MALLOC_MMAP_THRESHOLD_")).toBe("131072");
      // graphql-js runs in development mode unless NODE_ENV is production (scripts/lib/production-node-env.ts).
      expect(indexerEnv.get("NODE_ENV")).toBe("production");
      expect(indexerEnv.get("PONDER_CACHE_BYTES")).toBe(String(64 * 1024 * 1024));
      child.kill("SIGINT");
      expect(await run.exited).toBe(0);
      // Not ours to stop: the external chains and label service keep running.
      const chainPids = Object.values(external.devnet.manifest.chains).map((c) => c.pid!);
      expect(chainPids.every(isAlive)).toBe(true);
      expect((await fetch(`${external.labelsUrl}/health`)).status).toBe(200);
    } finally {
      await external.stop();
    }
  }, 400_000);
});
