import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLUGIN_NAMES } from "../../src/plugins/names";
import { startDevnetWithLabels, type DevnetWithLabels } from "../support/devnet-fixture";
import { startIndexer, type RunningIndexer } from "../support/indexer-harness";
import { type CanonicalDump, diffDumps, dumpPostgres, summarizeDump } from "./support/canonical-dump";
import { FAULT_KINDS, type FaultProxy, startFaultProxy } from "./support/fault-proxy";
import { bySize, report } from "./support/scale";

/*
 * Issue #8, RPC faults: the same devnet indexed twice, once straight from anvil and once with every chain behind its
 * own fault proxy (Ponder's sync, and our own viem clients: the healing prefetch reads the root chain's logs through
 * it too). The faulty index must equal the clean one, and Ponder's log must say what it retried.
 */

const SIZE = bySize({
  ci: { names: 10, faultRate: 0.1 },
  full: { names: 60, faultRate: 0.12 },
});
// Ponder 0.16 gives each JSON-RPC request 10 s (src/rpc/http.ts, fixed) and retries 9 times with 125 ms·2^i backoff
// (src/rpc/index.ts); our viem clients use 10 s or less too. A "timeout" must outlast that to count as one.
const CLIENT_TIMEOUT_MS = 10_000;
const TIMEOUT_HOLD_MS = CLIENT_TIMEOUT_MS + 1_500;
const SLOW_MS = 1_500;
const SEED = 808;

function endBlockEnv(env: DevnetWithLabels): Record<string, string> {
  const blocks = (env.devnet.manifest.scenario as { blocks: Record<string, number> }).blocks;
  return Object.fromEntries(Object.entries(blocks).map(([chainId, block]) => [`END_BLOCK_${chainId}`, String(block)]));
}

/** Indexes to the end blocks on a fresh PostgreSQL database, dumps the index, stops. */
async function indexAndDump(options: Parameters<typeof startIndexer>[0]): Promise<{ dump: CanonicalDump; log: string; ms: number }> {
  const started = Date.now();
  let indexer: RunningIndexer | undefined;
  try {
    indexer = await startIndexer(options);
    await indexer.process.ready();
    const dump = await dumpPostgres(indexer.env.DATABASE_URL!, indexer.schema);
    const log = readFileSync(indexer.logFile, "utf8");
    return { dump, log, ms: Date.now() - started };
  } catch (error) {
    if (indexer) console.error(readFileSync(indexer.logFile, "utf8").split("\n").slice(-40).join("\n"));
    throw error;
  } finally {
    await indexer?.stop();
  }
}

describe("indexing through faulty RPC endpoints", () => {
  let env: DevnetWithLabels;
  const proxies: FaultProxy[] = [];
  let clean: Awaited<ReturnType<typeof indexAndDump>>;
  let faulty: Awaited<ReturnType<typeof indexAndDump>>;

  beforeAll(async () => {
    env = await startDevnetWithLabels({ seed: 8, names: SIZE.names });
    const common = {
      labelsServiceUrl: env.labelsUrl,
      plugins: [...PLUGIN_NAMES],
      database: "postgres" as const,
      extraEnv: endBlockEnv(env),
    };

    // The faulty run's manifest: the same devnet, every chain's RPC URL replaced by its own proxy.
    const manifest = JSON.parse(readFileSync(env.devnet.manifestPath, "utf8")) as { chains: Record<string, { rpcUrl: string }> };
    for (const [chainId, chain] of Object.entries(manifest.chains)) {
      const proxy = await startFaultProxy({
        upstream: chain.rpcUrl,
        seed: SEED + Number(chainId),
        faultRate: SIZE.faultRate,
        timeoutHoldMs: TIMEOUT_HOLD_MS,
        slowMs: SLOW_MS,
      });
      proxies.push(proxy);
      chain.rpcUrl = proxy.url;
    }
    const faultyManifestPath = join(dirname(env.devnet.manifestPath), "manifest-faulty.json");
    writeFileSync(faultyManifestPath, JSON.stringify(manifest, null, 2));

    // Both runs side by side: the faulty one mostly waits (timeouts, backoff), so this saves wall time, not CPU.
    [clean, faulty] = await Promise.all([
      indexAndDump({ ...common, manifestPath: env.devnet.manifestPath }),
      indexAndDump({ ...common, manifestPath: faultyManifestPath }),
    ]);
  }, 600_000);

  afterAll(async () => {
    for (const p of proxies) await p.close();
    await env?.stop();
  });

  it("injected every kind of fault on ~10% of calls", () => {
    const requests = proxies.reduce((s, p) => s + p.requests(), 0);
    const counts = Object.fromEntries(FAULT_KINDS.map((k) => [k, proxies.reduce((s, p) => s + p.counts()[k], 0)]));
    const faults = Object.values(counts).reduce((s, n) => s + n, 0);
    const methods: Record<string, number> = {};
    for (const p of proxies) for (const [m, n] of Object.entries(p.faultedMethods())) methods[m] = (methods[m] ?? 0) + n;
    report(
      "rpc-faults",
      `tried: ${SIZE.names}-name devnet, all plugins, fault rate ${SIZE.faultRate}; ${requests} RPC requests through 3 proxies, ` +
        `${faults} faults ${JSON.stringify(counts)} on methods ${JSON.stringify(methods)}; clean run ${Math.round(clean.ms / 1000)} s, ` +
        `faulty run ${Math.round(faulty.ms / 1000)} s`,
    );
    expect(requests).toBeGreaterThan(50);
    expect(faults / requests).toBeGreaterThan(SIZE.faultRate / 3);
    expect(faults / requests).toBeLessThan(SIZE.faultRate * 3);
  });

  it("completes with an index identical to the clean run's", () => {
    const differences = diffDumps(clean.dump, faulty.dump);
    report("rpc-faults", `held: faulty index ${differences.length === 0 ? "equals" : "DIFFERS from"} the clean one (${summarizeDump(clean.dump)})`);
    expect(Object.values(clean.dump).reduce((s, t) => s + t.rows, 0)).toBeGreaterThan(0);
    expect(differences).toEqual([]);
  });

  it("logs what it retried", () => {
    // Ponder logs every retried request: 'Received JSON-RPC error … method=eth_getLogs … retry_count=1 …'.
    const retried = faulty.log.split("\n").filter((l) => /Received JSON-RPC error/.test(l));
    const methods = [...new Set(retried.map((l) => l.match(/method=(\w+)/)?.[1] ?? "?"))].sort();
    report("rpc-faults", `held: ${retried.length} retries logged (methods ${methods.join(", ")}); the clean run logged ${clean.log.split("Received JSON-RPC error").length - 1}`);
    expect(retried.length).toBeGreaterThan(0);
    expect(retried.every((l) => /retry_count=\d+/.test(l))).toBe(true);
  });
});
