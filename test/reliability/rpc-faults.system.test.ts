import { readFileSync } from "node:fs";
import { namehash, normalize } from "viem/ens";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scenarioOf } from "../../devnet/src/index";
import { type CanonicalDump, diffDumps, dumpPostgres, summarizeDump } from "../../harness/canonical-dump";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { type RunningIndexer, startIndexer, waitFor } from "../../harness/indexer-harness";
import { writeManifestCopy } from "../../harness/manifest-copy";
import { DEFAULT_PLUGIN_NAMES } from "../../src/plugins/names";
import { FAULT_KINDS, type FaultKind, type FaultProxy, startFaultProxy } from "./support/fault-proxy";
import { bySize, report } from "./support/scale";

/*
 * Issue #8, RPC faults: the same devnet indexed twice, once straight from anvil and once with every chain behind its
 * own fault proxy (Ponder's sync, and our own viem clients: the healing prefetch reads the root chain's logs through
 * it, and onchain resolution reads every chain through it). The faulty index must equal the clean one, Ponder's log
 * must say what it retried, and resolution through the faults must answer like the clean run or say 503, never
 * pass a failed read off as an unset record.
 */

const SIZE = bySize({
  ci: { names: 10, faultRate: 0.1, resolvedNames: 12 },
  // Full: a bigger devnet and twice the fault rate (the sync makes about as many requests: blocks, not names, drive it).
  full: { names: 60, faultRate: 0.2, resolvedNames: 60 },
});
// Ponder 0.16 gives each JSON-RPC request 10 s (the timeout it hands the transport in src/rpc/index.ts) and retries 9
// times with 125 ms·2^i backoff; our viem clients use 10 s or less too. A "timeout" must outlast that to count as one.
const CLIENT_TIMEOUT_MS = 10_000;
const TIMEOUT_HOLD_MS = CLIENT_TIMEOUT_MS + 1_500;
const SLOW_MS = 1_500;
const SEED = 808;
const TEXT_KEYS = ["avatar", "description", "url", "com.twitter"];

/** How each injected fault shows in Ponder's log (the error it retried). */
const LOGGED_AS: Record<Exclude<FaultKind, "slow">, RegExp> = {
  http500: /Details: fault proxy: internal server error/,
  rpcError: /Details: fault proxy: upstream backend unavailable/,
  rateLimit: /Details: fault proxy: too many requests/,
  timeout: /TimeoutError: The request took too long to respond/,
  truncated: /caused by: TypeError: terminated/,
  reset: /caused by: Error: read ECONNRESET/,
};

function isNormalized(name: string): boolean {
  try {
    return normalize(name) === name;
  } catch {
    return false;
  }
}

function endBlockEnv(env: DevnetWithLabels): Record<string, string> {
  const blocks = (env.devnet.manifest.scenario as { blocks: Record<string, number> }).blocks;
  return Object.fromEntries(Object.entries(blocks).map(([chainId, block]) => [`END_BLOCK_${chainId}`, String(block)]));
}

interface IndexRun {
  indexer: RunningIndexer;
  dump: CanonicalDump;
  ms: number;
}

/** Indexes to the end blocks on a fresh PostgreSQL database and dumps the index; the indexer keeps serving. */
async function indexAndDump(options: Parameters<typeof startIndexer>[0], started: RunningIndexer[]): Promise<IndexRun> {
  const t0 = Date.now();
  const indexer = await startIndexer(options);
  started.push(indexer);
  try {
    await indexer.process.ready();
  } catch (error) {
    console.error(readFileSync(indexer.logFile, "utf8").split("\n").slice(-40).join("\n"));
    throw error;
  }
  return { indexer, dump: await dumpPostgres(indexer.env.DATABASE_URL!, indexer.schema), ms: Date.now() - t0 };
}

async function getRecords(indexer: RunningIndexer, name: string): Promise<{ status: number; body: unknown }> {
  const path = `/api/resolve/records/${encodeURIComponent(name)}?addresses=60&texts=${TEXT_KEYS.join(",")}&name=true&accelerate=false`;
  const res = await fetch(`${indexer.url}${path}`);
  return { status: res.status, body: await res.json() };
}

describe("indexing through faulty RPC endpoints", () => {
  let env: DevnetWithLabels;
  const proxies = new Map<string, FaultProxy>();
  const indexers: RunningIndexer[] = [];
  let clean: IndexRun;
  let faulty: IndexRun;

  beforeAll(async () => {
    env = await startDevnetWithLabels({ seed: 8, names: SIZE.names });
    const common = {
      labelsServiceUrl: env.labelsUrl,
      plugins: [...DEFAULT_PLUGIN_NAMES],
      database: "postgres" as const,
      extraEnv: endBlockEnv(env),
    };

    // The faulty run's manifest: the same devnet, every chain's RPC URL replaced by its own proxy.
    const faultyManifestPath = await writeManifestCopy(
      env.devnet.manifestPath,
      "manifest-faulty",
      async (chainId, url) => {
        const proxy = await startFaultProxy({
          upstream: url,
          seed: SEED + Number(chainId),
          faultRate: SIZE.faultRate,
          timeoutHoldMs: TIMEOUT_HOLD_MS,
          slowMs: SLOW_MS,
        });
        proxies.set(chainId, proxy);
        return proxy.url;
      },
    );

    // Both runs side by side: the faulty one mostly waits (timeouts, backoff), so this saves wall time, not CPU.
    [clean, faulty] = await Promise.all([
      indexAndDump({ ...common, manifestPath: env.devnet.manifestPath }, indexers),
      indexAndDump({ ...common, manifestPath: faultyManifestPath }, indexers),
    ]);
  }, 600_000);

  afterAll(async () => {
    for (const indexer of indexers) await indexer.stop();
    for (const p of proxies.values()) await p.close();
    await env?.stop();
  });

  const totals = () => {
    const all = [...proxies.values()];
    const counts = Object.fromEntries(
      FAULT_KINDS.map((k) => [k, all.reduce((s, p) => s + p.counts()[k], 0)]),
    ) as Record<FaultKind, number>;
    const methods: Record<string, number> = {};
    for (const p of all) for (const [m, n] of Object.entries(p.faultedMethods())) methods[m] = (methods[m] ?? 0) + n;
    // nameindex names each client in its User-Agent: "nameindex/<version> (indexing)" is Ponder's sync and reads.
    const byAgent: Record<string, Record<FaultKind, number>> = {};
    for (const p of all)
      for (const [agent, c] of Object.entries(p.countsByAgent())) {
        byAgent[agent] ??= Object.fromEntries(FAULT_KINDS.map((k) => [k, 0])) as Record<FaultKind, number>;
        for (const k of FAULT_KINDS) byAgent[agent][k] += c[k];
      }
    const ponders = Object.fromEntries(
      FAULT_KINDS.map((k) => [
        k,
        Object.entries(byAgent)
          .filter(([agent]) => agent.endsWith("(indexing)"))
          .reduce((s, [, c]) => s + c[k], 0),
      ]),
    ) as Record<FaultKind, number>;
    return {
      requests: all.reduce((s, p) => s + p.requests(), 0),
      counts,
      byAgent,
      ponders,
      methods,
      faults: Object.values(counts).reduce((s, n) => s + n, 0),
    };
  };

  it("injected every kind of fault on ~10% of the indexer's calls", () => {
    const { requests, counts, methods, faults } = totals();
    report(
      "rpc-faults",
      `tried: ${SIZE.names}-name devnet, all plugins, fault rate ${SIZE.faultRate}; ${requests} RPC requests through 3 proxies, ` +
        `${faults} faults ${JSON.stringify(counts)} on methods ${JSON.stringify(methods)}; clean run ${Math.round(clean.ms / 1000)} s, ` +
        `faulty run ${Math.round(faulty.ms / 1000)} s`,
    );
    expect(requests).toBeGreaterThan(50);
    // Every faulted request named its sender: Ponder's sync through our transport, and our own clients.
    const agents = Object.keys(totals().byAgent);
    expect(
      agents.every((a) => /^nameindex\/\S+ \((indexing|label-prefetch|indexing-status|resolution)\)$/.test(a)),
      agents.join(", "),
    ).toBe(true);
    expect(faults / requests).toBeGreaterThan(SIZE.faultRate / 3);
    expect(faults / requests).toBeLessThan(SIZE.faultRate * 3);
  });

  it("completes with an index identical to the clean run's", () => {
    const differences = diffDumps(clean.dump, faulty.dump);
    report(
      "rpc-faults",
      `held: faulty index ${differences.length === 0 ? "equals" : "DIFFERS from"} the clean one (${summarizeDump(clean.dump)})`,
    );
    expect(Object.values(clean.dump).reduce((s, t) => s + t.rows, 0)).toBeGreaterThan(100);
    expect(differences).toEqual([]);
  });

  it("logs what it retried", async () => {
    // Ponder logs each retried request: 'Received JSON-RPC error … method=eth_getLogs … retry_count=1 retry_delay=125',
    // followed by the error it got. The indexer keeps polling the chains through the proxies: a "timeout" injected in
    // the last CLIENT_TIMEOUT_MS is logged only once the client gives up on it, so the log is read again until it
    // names every fault counted so far, for at most that long and a margin.
    const { ponders } = totals();
    const loggedOf = (log: string) =>
      Object.fromEntries(
        Object.entries(LOGGED_AS).map(([kind, pattern]) => [
          kind,
          log.split("\n").filter((l) => pattern.test(l)).length,
        ]),
      );
    const readLog = () => readFileSync(faulty.indexer.logFile, "utf8");
    const namesEveryFault = async () =>
      Object.entries(loggedOf(readLog())).every(([kind, n]) => n >= ponders[kind as FaultKind]);
    // A wait that ends unmet is not the failure: the assertions below name the fault kind that is missing.
    await waitFor(namesEveryFault, CLIENT_TIMEOUT_MS + 5_000, "the log to name every fault", 500).catch(() => {});
    const log = readLog();
    const retried = log.split("\n").filter((l) => /Received JSON-RPC error/.test(l));
    const methods = [...new Set(retried.map((l) => l.match(/method=(\w+)/)?.[1] ?? "?"))].sort();
    const seen = loggedOf(log);
    report(
      "rpc-faults",
      `held: ${retried.length} retries logged (methods ${methods.join(", ")}), errors named in the log ${JSON.stringify(seen)}; ` +
        `faults on Ponder's requests ${JSON.stringify(ponders)}`,
    );
    expect(retried.length).toBeGreaterThan(0);
    expect(retried.every((l) => /retry_count=\d+/.test(l))).toBe(true);
    expect(readFileSync(clean.indexer.logFile, "utf8")).not.toMatch(/Received JSON-RPC error/);
    // Ponder logs only its own retries (the User-Agent tells its requests from our clients'), each fault in 1+ lines.
    for (const [kind, n] of Object.entries(seen)) expect(n, kind).toBeGreaterThanOrEqual(ponders[kind as FaultKind]);
    expect(Object.values(ponders).reduce((s, n) => s + n, 0)).toBeGreaterThan(5);
  });

  it("resolves onchain through the faults like the clean run, or says 503", async () => {
    const scenario = scenarioOf(env.devnet.manifest);
    const names = scenario.names
      .filter((n) => !n.deleted && n.resolver && isNormalized(n.name) && namehash(n.name) === n.node)
      .slice(0, SIZE.resolvedNames)
      .map((n) => n.name);
    expect(names.length).toBeGreaterThan(5);
    const before = totals().faults;
    let same = 0;
    let unavailable = 0;
    // Four names at a time: a timeout fault costs 10 s, and the names do not depend on each other.
    const queue = [...names];
    const worker = async () => {
      for (let name = queue.shift(); name !== undefined; name = queue.shift()) await compare(name);
    };
    const compare = async (name: string) => {
      const [expected, actual] = await Promise.all([getRecords(clean.indexer, name), getRecords(faulty.indexer, name)]);
      expect(expected.status, name).toBe(200);
      if (actual.status === 503) {
        expect((actual.body as { message: string }).message).toMatch(/^Onchain resolution failed/);
        unavailable++;
      } else {
        expect(actual, name).toEqual(expected);
        same++;
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    report(
      "rpc-faults",
      `held: onchain resolution of ${names.length} names through ${totals().faults - before} faults: ${same} identical, ${unavailable} honest 503s`,
    );
    expect(same).toBeGreaterThan(names.length / 2);
  }, 300_000);

  it("answers 503, not empty records, when the RPC only returns errors", async () => {
    const root = proxies.get(String(env.devnet.manifest.datasources.ensroot!.chainId))!;
    const name = scenarioOf(env.devnet.manifest).names.find(
      (n) => n.chainId === 31337 && !n.deleted && n.resolver && isNormalized(n.name) && namehash(n.name) === n.node,
    )!.name;
    const tried: string[] = [];
    try {
      for (const kind of ["rpcError", "http500", "rateLimit"] as const) {
        root.setFaults(1, { [kind]: 1 });
        const { status, body } = await getRecords(faulty.indexer, name);
        tried.push(`${kind}→${status}`);
        expect(status, `${name} with every call answered by ${kind}`).toBe(503);
        expect((body as { message: string }).message).toMatch(/^Onchain resolution failed/);
      }
    } finally {
      root.setFaults(SIZE.faultRate, Object.fromEntries(FAULT_KINDS.map((k) => [k, 1])));
    }
    report("rpc-faults", `held: ${name} with the root chain's RPC failing every call: ${tried.join(", ")}`);
  }, 120_000);
});
