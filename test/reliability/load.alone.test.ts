import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { encodeFunctionData, type Hex, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetWithLabels, rpc, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { type RunningIndexer, startIndexer, waitFor } from "../../harness/indexer-harness";
import { processRssMb } from "../../harness/process-memory";
import { labelhashOf } from "../../labels-service/src/index";
import { type FuzzRequest, keepAliveAgent, send } from "./support/fuzz-inputs";
import { fmt, type IndexedSample, normalQuery, percentiles, sampleIndex } from "./support/graphql-shapes";
import { bySize, report } from "./support/scale";

const RATE = 200; // requests per second, fixed arrival rate
const WARMUP_SECONDS = bySize({ ci: 5, full: 10 });
const SECONDS = bySize({ ci: 20, full: 120 });
const REQUEST_TIMEOUT_MS = 10_000;

interface Target {
  kind: string;
  base: "indexer" | "labels";
  req: FuzzRequest;
  /** A 2xx is not enough for GraphQL: the body must carry data and no errors. */
  graphql?: boolean;
}

/*
 * A bounded mixed load on a live devnet index that keeps indexing (interval mining, plus a registry transaction every
 * two seconds whose event must reach the index): GraphQL queries of the common shapes, REST routes and label heals
 * arrive at a fixed rate (open model: a slow answer does not slow the arrivals). Zero errors, flat indexer memory,
 * percentiles per kind reported.
 */
describe(`mixed load at ${RATE} requests/s for ${SECONDS} s`, () => {
  let env: DevnetWithLabels;
  let indexer: RunningIndexer;
  let sample: IndexedSample;
  let tokenNames: string[];
  let labels: string[];

  beforeAll(async () => {
    env = await startDevnetWithLabels({ seed: 41, names: 12, mineInterval: 1 });
    indexer = await startIndexer({
      manifestPath: env.devnet.manifestPath,
      labelsServiceUrl: env.labelsUrl,
      plugins: ["subgraph", "registrars", "tokenscope"],
      database: "postgres",
    });
    await indexer.process.ready();
    await waitFor(
      async () => (await fetch(`${indexer.url}/api/name-tokens?name=eth`)).status !== 503,
      120_000,
      "name-tokens served",
    );
    sample = await sampleIndex(indexer.url);
    // Only names whose tokens are indexed: a valid request for them must be a 200 (a 404 is right for the others).
    const scenario = env.devnet.manifest.scenario as { labels: string[]; unhealableLabels: string[] };
    const candidates = sample.names.filter((n) => n.split(".").length === 2);
    const found = await Promise.all(
      candidates.map(async (n) =>
        (await fetch(`${indexer.url}/api/name-tokens?name=${encodeURIComponent(n)}`)).status === 200 ? n : undefined,
      ),
    );
    tokenNames = found.filter((n): n is string => n !== undefined);
    const unhealable = new Set(scenario.unhealableLabels);
    labels = scenario.labels.filter((l) => !unhealable.has(l));
    expect(tokenNames.length).toBeGreaterThan(0);
  }, 400_000);

  afterAll(async () => {
    await indexer?.stop();
    await env?.stop();
  });

  function target(i: number): Target {
    // Of every 20 arrivals: 8 GraphQL (the five common shapes in turn), 4 REST, 8 heals (6 single, 2 batches of 20).
    const r = i % 20;
    const get = (kind: string, base: Target["base"], path: string): Target => ({
      kind,
      base,
      req: { route: kind, method: "GET", path, what: path },
    });
    if (r < 8) {
      const { shape, body } = normalQuery(sample, i);
      return {
        kind: `graphql: ${shape}`,
        base: "indexer",
        graphql: true,
        req: {
          route: shape,
          method: "POST",
          path: "/subgraph",
          headers: { "content-type": "application/json" },
          body,
          what: shape,
        },
      };
    }
    if (r === 8) return get("registrar-actions", "indexer", `/api/registrar-actions?limit=10&page=${1 + (i % 3)}`);
    if (r === 9)
      return get(
        "name-tokens",
        "indexer",
        `/api/name-tokens?name=${encodeURIComponent(tokenNames[i % tokenNames.length])}`,
      );
    if (r === 10) return get("indexing-status", "indexer", "/api/indexing-status");
    if (r === 11) return get("config", "indexer", "/api/config");
    if (r < 18) return get("heal", "labels", `/v1/heal/${labelhashOf(labels[i % labels.length])}`);
    const batch = Array.from({ length: 20 }, (_, k) => labelhashOf(labels[(i + k) % labels.length]));
    return {
      kind: "heal batch (20)",
      base: "labels",
      req: {
        route: "heal batch",
        method: "POST",
        path: "/v1/heal",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(batch),
        what: "batch",
      },
    };
  }

  it(
    "serves every request without an error, with flat indexer memory, while the index follows new blocks",
    async () => {
      const agents = { indexer: keepAliveAgent(256), labels: keepAliveAgent(256) };
      const bases = { indexer: indexer.url, labels: env.labelsUrl };
      const pid = indexer.process.child.pid!;
      const rootRpc = env.devnet.manifest.chains["31337"].rpcUrl;
      const blockBefore = await indexedBlock(indexer.url);

      const latencies = new Map<string, number[]>();
      const errors: string[] = [];
      // When the errors happened (seconds into the measured run): a burst points at a stall, a spread at capacity.
      const errorTimes: number[] = [];
      const loadBefore = loadavg()[0];
      const rss: { t: number; mib: number }[] = [];
      let completed = 0;
      let inFlight = 0;
      let maxInFlight = 0;
      const inflight: Promise<void>[] = [];

      // A registry transaction every two seconds (TTL = its sequence number): new events to index during the load.
      const writer = registryWriter(env, rootRpc);
      let lastTtl = 0;

      // The warm-up ramps the rate from 0 to RATE (RATE·W/2 arrivals), as traffic reaches a new server, instead of
      // opening at full rate on cold caches and connection pools; its answers count as errors too, not as latencies.
      const warmupCount = (WARMUP_SECONDS * RATE) / 2;
      const total = warmupCount + SECONDS * RATE;
      const arrivalMs = (i: number) =>
        i < warmupCount
          ? Math.sqrt((2 * WARMUP_SECONDS * i) / RATE) * 1000
          : WARMUP_SECONDS * 1000 + ((i - warmupCount) * 1000) / RATE;
      const start = performance.now();
      const measuredStart = start + WARMUP_SECONDS * 1000;
      let nextTx = start + 2000;
      let nextSample = start;
      for (let i = 0; i < total; ) {
        const now = performance.now();
        if (now >= nextSample && i >= warmupCount) {
          rss.push({ t: (now - measuredStart) / 1000, mib: processRssMb(pid) });
          nextSample = now + 1000;
        }
        if (now >= nextTx) {
          nextTx = now + 2000;
          const ttl = ++lastTtl;
          inflight.push(writer(ttl).catch((e: Error) => void errors.push(`setTTL ${ttl}: ${e.message}`)));
        }
        // Every request whose arrival time has come goes out now, without waiting for earlier ones.
        for (; i < total && start + arrivalMs(i) <= now; i++) {
          const scheduled = start + arrivalMs(i);
          const measured = i >= warmupCount;
          const t = target(i);
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          inflight.push(
            send(bases[t.base], t.req, agents[t.base], REQUEST_TIMEOUT_MS)
              .then((res) => {
                const problem =
                  res.status < 200 || res.status >= 300
                    ? `${res.status} ${res.body.slice(0, 160)}`
                    : t.graphql
                      ? graphqlProblem(res.body)
                      : undefined;
                if (problem) {
                  errors.push(`${t.kind}: ${problem}`);
                  errorTimes.push((scheduled - measuredStart) / 1000);
                }
                // Latency from the scheduled arrival, so a stalled client cannot hide a slow server.
                if (measured) {
                  const list = latencies.get(t.kind) ?? [];
                  list.push(performance.now() - scheduled);
                  latencies.set(t.kind, list);
                }
              })
              .catch((e: Error) => {
                errors.push(`${t.kind}: ${e.message}`);
                errorTimes.push((scheduled - measuredStart) / 1000);
              })
              .finally(() => {
                inFlight--;
                completed++;
              }),
          );
        }
        await new Promise((r) => setTimeout(r, 2));
      }
      const sendSeconds = (performance.now() - measuredStart) / 1000;
      await Promise.all(inflight);
      const measuredCount = total - warmupCount;
      agents.indexer.destroy();
      agents.labels.destroy();

      // The last TTL written must reach the index: indexing kept up through the load.
      const domain = writer.node;
      await waitFor(
        async () => (await ttlOf(indexer.url, domain)) === String(lastTtl),
        60_000,
        `TTL ${lastTtl} indexed`,
      );
      const blockAfter = await indexedBlock(indexer.url);

      const all = [...latencies.values()].flat();
      report(
        "load",
        `${measuredCount} requests at ${RATE}/s scheduled over ${SECONDS} s after a ${WARMUP_SECONDS} s warm-up ramp (${warmupCount} requests); sent in ${sendSeconds.toFixed(1)} s (${(measuredCount / sendSeconds).toFixed(0)}/s achieved), max ${maxInFlight} in flight, ${completed} answered`,
      );
      for (const [kind, ms] of [...latencies.entries()].sort()) report("load", `${kind}: ${fmt(percentiles(ms))}`);
      report("load", `all: ${fmt(percentiles(all))}`);
      const span = errorTimes.length
        ? ` for requests scheduled at ${Math.min(...errorTimes).toFixed(1)}–${Math.max(...errorTimes).toFixed(1)} s`
        : "";
      report("load", `errors: ${errors.length}${span}${errors.length ? ` — ${errors.slice(0, 5).join(" | ")}` : ""}`);
      report(
        "load",
        `machine load average (1 min): ${loadBefore.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after, on ${availableParallelism()} cores`,
      );
      report(
        "load",
        `index followed the chain: block ${blockBefore} → ${blockAfter}, ${lastTtl} registry transactions, the last one indexed`,
      );
      const third = Math.max(1, Math.floor(rss.length / 3));
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      const first = median(rss.slice(0, third).map((s) => s.mib));
      const last = median(rss.slice(-third).map((s) => s.mib));
      report("load", `indexer RSS (MiB, one sample a second): ${rss.map((s) => s.mib.toFixed(0)).join(" ")}`);
      report("load", `indexer RSS median: first third ${first.toFixed(0)} MiB, last third ${last.toFixed(0)} MiB`);

      expect(errors.slice(0, 10)).toEqual([]);
      expect(all.length).toBe(measuredCount);
      // The generator kept the rate (it only sleeps 2 ms between dispatches; a machine this slow would show here).
      expect(measuredCount / sendSeconds).toBeGreaterThan(RATE * 0.9);
      expect(blockAfter).toBeGreaterThan(blockBefore);
      // Flat: growth from the first third to the last within a quarter plus 64 MiB (GC timing alone moves RSS).
      expect(last).toBeLessThanOrEqual(first * 1.25 + 64);
      expect(indexer.process.child.exitCode).toBeNull();
      expect(readFileSync(indexer.logFile, "utf8")).not.toMatch(/Internal Server Error/);
    },
    bySize({ ci: 240_000, full: 600_000 }),
  );
});

function graphqlProblem(text: string): string | undefined {
  const body = JSON.parse(text) as { data?: unknown; errors?: unknown };
  return body.errors || !body.data ? `GraphQL errors: ${text.slice(0, 160)}` : undefined;
}

/** The ENS root chain's block Ponder has indexed (its /status). */
async function indexedBlock(url: string): Promise<number> {
  const status = (await (await fetch(`${url}/status`)).json()) as Record<
    string,
    { id: number; block: { number: number } }
  >;
  return Object.values(status).find((c) => c.id === 31337)?.block.number ?? -1;
}

async function ttlOf(url: string, node: string): Promise<string | undefined> {
  const res = await fetch(`${url}/subgraph`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "query($id: ID!) { domain(id: $id) { ttl } }", variables: { id: node } }),
  });
  return ((await res.json()) as { data?: { domain?: { ttl: string | null } } }).data?.domain?.ttl ?? undefined;
}

/** Sends `setTTL(node, ttl)` on the root registry as the owner of a scenario name (impersonated, funded). */
function registryWriter(env: DevnetWithLabels, rootRpc: string) {
  const manifest = env.devnet.manifest as unknown as {
    datasources: { ensroot: { contracts: { Registry: { address: Hex } } } };
    scenario: { names: { node: Hex; chainId: number; registryOwner?: Hex; deleted?: boolean; labels: string[] }[] };
  };
  const registry = manifest.datasources.ensroot.contracts.Registry.address;
  const name = manifest.scenario.names.find(
    (n) => n.chainId === 31337 && !n.deleted && n.registryOwner && n.labels.length === 2 && n.labels[1] === "eth",
  );
  if (!name?.registryOwner) throw new Error("the scenario has no .eth name with a registry owner");
  const abi = parseAbi(["function setTTL(bytes32 node, uint64 ttl)"]);
  const owner = name.registryOwner;
  let prepared: Promise<unknown> | undefined;
  const write = async (ttl: number) => {
    prepared ??= Promise.all([
      rpc(rootRpc, "anvil_impersonateAccount", [owner]),
      rpc(rootRpc, "anvil_setBalance", [owner, "0x56BC75E2D63100000"]),
    ]);
    await prepared;
    const data = encodeFunctionData({ abi, functionName: "setTTL", args: [name.node, BigInt(ttl)] });
    await rpc(rootRpc, "eth_sendTransaction", [{ from: owner, to: registry, data, gas: "0x100000" }]);
  };
  return Object.assign(write, { node: name.node });
}
