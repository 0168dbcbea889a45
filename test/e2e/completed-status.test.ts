import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IndexingStatusResponse } from "../../src/api/shared/indexing-snapshot";
import { type DevnetWithLabels, startDevnetWithLabels } from "../support/devnet-fixture";
import { getJson, type RunningIndexer, startIndexer, waitFor } from "../support/indexer-harness";

describe("indexing status with END_BLOCK set (PGlite)", () => {
  let env: DevnetWithLabels;
  let indexer: RunningIndexer;
  let endBlocks: Record<string, number>;

  beforeAll(async () => {
    env = await startDevnetWithLabels({ seed: 5, names: 4 });
    endBlocks = (env.devnet.manifest.scenario as { blocks: Record<string, number> }).blocks;
    indexer = await startIndexer({
      manifestPath: env.devnet.manifestPath,
      labelsServiceUrl: env.labelsUrl,
      plugins: ["subgraph", "registrars"],
      database: "pglite",
      extraEnv: Object.fromEntries(
        Object.entries(endBlocks).map(([chainId, block]) => [`END_BLOCK_${chainId}`, String(block)]),
      ),
    });
    await waitFor(async () => (await fetch(`${indexer.url}/ready`)).status === 200, 240_000, "/ready");
  }, 400_000);

  afterAll(async () => {
    await indexer?.stop();
    await env?.stop();
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
