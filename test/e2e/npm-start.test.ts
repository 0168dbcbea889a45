import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findFreePort, isPortFree } from "../../scripts/lib/ports";

const projectRoot = resolve(__dirname, "../..");

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
  let output = "";

  afterAll(() => {
    if (child && child.exitCode === null) child.kill("SIGKILL");
    rmSync(stateDir, { recursive: true, force: true });
  });

  it("starts the devnet, the label service and the indexer, reaches /ready, and stops everything on Ctrl-C", async () => {
    const port = await findFreePort();
    const labelsPort = await findFreePort();
    const env: NodeJS.ProcessEnv = { ...process.env, NAMEINDEX_STATE_DIR: stateDir, PORT: String(port), LABELS_PORT: String(labelsPort) };
    for (const key of ["NAMESPACE", "DEVNET_MANIFEST", "LABELS_SERVICE_URL", "DATABASE_URL", "PLUGINS", "LABELS_DB"]) delete env[key];
    // `npm start` is `tsx scripts/start.ts`; spawn it directly so SIGINT reaches the orchestrator as Ctrl-C would.
    child = spawn(join(projectRoot, "node_modules/.bin/tsx"), ["scripts/start.ts"], { cwd: projectRoot, env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout?.on("data", (d) => (output += d));
    child.stderr?.on("data", (d) => (output += d));
    const exited = new Promise<number | null>((r) => child!.once("exit", (code) => r(code)));

    await new Promise<void>((resolveReady, reject) => {
      const timer = setInterval(() => {
        if (output.includes("[start] ready")) {
          clearInterval(timer);
          resolveReady();
        }
      }, 250);
      void exited.then((code) => {
        clearInterval(timer);
        reject(new Error(`npm start exited (${code}) before ready:\n${output}`));
      });
    });

    const ready = await fetch(`http://127.0.0.1:${port}/ready`);
    expect(ready.status).toBe(200);
    expect(await fetch(`http://127.0.0.1:${labelsPort}/health`).then((r) => r.json())).toEqual({ status: "ok" });
    expect(output).toContain(`http://127.0.0.1:${port}/subgraph`);

    const manifest = JSON.parse(readFileSync(join(stateDir, ".devnet", "manifest.json"), "utf8"));
    const chainPids = Object.values(manifest.chains as Record<string, { pid: number }>).map((c) => c.pid);
    expect(chainPids).toHaveLength(3);
    expect(chainPids.every(isAlive)).toBe(true);

    child.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(output).toContain("[start] stopped");
    expect(chainPids.some(isAlive)).toBe(false);
    expect(await isPortFree(port)).toBe(true);
    expect(await isPortFree(labelsPort)).toBe(true);
  }, 400_000);
});
