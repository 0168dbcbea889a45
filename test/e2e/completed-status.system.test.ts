import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { getJson, type RunningIndexer, startIndexer, waitFor } from "../../harness/indexer-harness";
import { writeManifestCopy } from "../../harness/manifest-copy";
import type { IndexingStatusResponse } from "../../src/api/shared/indexing-snapshot";

describe("indexing status with END_BLOCK set (PGlite)", () => {
  let env: DevnetWithLabels;
  let indexer: RunningIndexer;
  /** The same index, every chain read over a WebSocket (ws:// RPC URLs). */
  let overWebSocket: RunningIndexer;
  let endBlocks: Record<string, number>;

  beforeAll(async () => {
    env = await startDevnetWithLabels({ seed: 5, names: 4 });
    endBlocks = (env.devnet.manifest.scenario as { blocks: Record<string, number> }).blocks;
    // anvil answers WebSocket upgrades on its HTTP port.
    const wsManifestPath = await writeManifestCopy(env.devnet.manifestPath, "manifest-ws", (_, url) =>
      url.replace(/^http:/, "ws:"),
    );
    const options = {
      labelsServiceUrl: env.labelsUrl,
      plugins: ["subgraph", "registrars"],
      database: "pglite" as const,
      extraEnv: Object.fromEntries(
        Object.entries(endBlocks).map(([chainId, block]) => [`END_BLOCK_${chainId}`, String(block)]),
      ),
    };
    [indexer, overWebSocket] = await Promise.all([
      startIndexer({ ...options, manifestPath: env.devnet.manifestPath }),
      startIndexer({ ...options, manifestPath: wsManifestPath }),
    ]);
    for (const i of [indexer, overWebSocket])
      await waitFor(async () => (await fetch(`${i.url}/ready`)).status === 200, 240_000, "/ready");
  }, 400_000);

  afterAll(async () => {
    await indexer?.stop();
    await overWebSocket?.stop();
    await env?.stop();
  });

  it("indexes the same over ws:// RPC URLs as over http://", async () => {
    const query = async (i: RunningIndexer) =>
      (await fetch(`${i.url}/subgraph`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          query:
            "{ domains(first: 1000, orderBy: id) { id name owner { id } } registrations(first: 1000, orderBy: id) { id expiryDate } }",
        }),
      }).then((r) => r.json())) as { data: { domains: unknown[]; registrations: unknown[] } };
    const [overHttp, overWs] = await Promise.all([query(indexer), query(overWebSocket)]);
    expect(overHttp.data.domains.length).toBeGreaterThan(4);
    expect(overWs).toEqual(overHttp);
  });

  it("reports every chain completed at its end block, with a definite config", async () => {
    await waitFor(
      async () =>
        (await getJson<IndexingStatusResponse>(`${indexer.url}/api/indexing-status`)).body.realtimeProjection?.snapshot
          .omnichainSnapshot.omnichainStatus === "omnichain-completed",
      60_000,
      "omnichain-completed",
    );
    const { body } = await getJson<IndexingStatusResponse>(`${indexer.url}/api/indexing-status`);
    const chains = body.realtimeProjection.snapshot.omnichainSnapshot.chains;
    // registrars indexes the .eth registrar on the root chain and the Basenames/Lineanames registrars.
    expect(Object.keys(chains).sort()).toEqual(["31337", "31338", "31339"]);
    for (const [chainId, chain] of Object.entries(chains)) {
      expect(chain).toMatchObject({
        chainStatus: "chain-completed",
        config: { configType: "definite", endBlock: { number: endBlocks[chainId] } },
        latestIndexedBlock: { number: endBlocks[chainId] },
      });
      expect(Object.keys(chain).sort()).toEqual(["chainStatus", "config", "latestIndexedBlock"]);
    }
  });
});
