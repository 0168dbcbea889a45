import { type Address, getAddress, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Chain } from "../../devnet/src/chain";
import { loadDevnetContracts, scenarioOf } from "../../devnet/src/index";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { indexerOptionsFor, type RunningIndexer, startIndexer, waitFor } from "../../harness/indexer-harness";
import type { IndexingStatusResponse } from "../../src/api/shared/indexing-snapshot";

/*
 * /subgraph's query-result cache on the indexer's own PGlite, where its head token is read again only after a write
 * into the shared PGlite instance (src/api/shared/pglite-writes.ts): once a block that changes an answer is indexed, the
 * next request must get the new answer, never the one cached at the previous head. The test learns that the block is
 * indexed from /api/indexing-status (which reads through the API's uncounted reader, so it cannot move the counter
 * itself), then asks /subgraph at once.
 */

const OWNER_QUERY = `query($id: ID!) { domain(id: $id) { id owner { id } } _meta { block { number } } }`;

interface OwnerAnswer {
  domain: { id: string; owner: { id: string } } | null;
  _meta: { block: { number: number } };
}

async function ask(url: string, node: Hex): Promise<{ data: OwnerAnswer; cache: string | null; headers: Headers }> {
  const res = await fetch(`${url}/subgraph`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: OWNER_QUERY, variables: { id: node } }),
  });
  const body = (await res.json()) as { data?: OwnerAnswer; errors?: unknown };
  if (res.status !== 200 || !body.data) throw new Error(`/subgraph ${res.status}: ${JSON.stringify(body.errors)}`);
  return { data: body.data, cache: res.headers.get("x-subgraph-cache"), headers: res.headers };
}

/** The root chain's latest indexed block, as the indexer's status route reports it. */
async function indexedBlock(url: string): Promise<number> {
  const res = await fetch(`${url}/api/indexing-status`);
  if (res.status !== 200) return -1;
  const status = (await res.json()) as IndexingStatusResponse;
  const chain = status.realtimeProjection.snapshot.omnichainSnapshot.chains["31337"];
  return chain && "latestIndexedBlock" in chain ? chain.latestIndexedBlock.number : -1;
}

describe("/subgraph cache on PGlite: a new block is never answered from the previous head's cache", () => {
  let env: DevnetWithLabels;
  let indexer: RunningIndexer;
  let chain: Chain;

  beforeAll(async () => {
    env = await startDevnetWithLabels({ seed: 11, names: 12 });
    chain = await Chain.connect(31337, env.devnet.manifest.chains["31337"]!.rpcUrl);
    indexer = await startIndexer(indexerOptionsFor(env, { plugins: ["subgraph"], database: "pglite" }));
    await indexer.process.ready();
    const head = await chain.blockNumber();
    await waitFor(async () => (await indexedBlock(indexer.url)) >= head, 120_000, `block ${head} indexed`);
  }, 400_000);

  afterAll(async () => {
    await indexer?.stop();
    await env?.stop();
  });

  it("answers each transfer's new owner as soon as its block is indexed, and caches it again", async () => {
    const { real } = loadDevnetContracts();
    const registry = (scenarioOf(env.devnet.manifest).otherContracts as Record<string, Record<string, Address>>)
      .ensroot!.Registry!;
    const abi = real.ENSRegistryWithFallback.abi;
    const name = scenarioOf(env.devnet.manifest).names.find(
      (n) =>
        n.via === "unwrapped-controller" && n.labels.length === 2 && n.registryOwner && !n.deleted && !n.wrappedOwner,
    );
    if (!name) throw new Error("the scenario has no transferable unwrapped .eth name");
    const node = name.node as Hex;
    let owner = getAddress(await chain.read<Address>(registry, abi, "owner", [node]));
    await chain.syncNonces();

    // Three blocks in a row, each cached first: one pass could succeed by luck of a write landing in between.
    for (const to of chain.accounts.filter((a) => getAddress(a) !== owner).slice(0, 3)) {
      const before = await ask(indexer.url, node);
      expect(before.data.domain?.owner.id).toBe(owner.toLowerCase());
      let again = await ask(indexer.url, node);
      for (let i = 0; i < 5 && again.cache !== "hit"; i++) again = await ask(indexer.url, node);
      expect(again.cache).toBe("hit");
      // Under Ponder's server (its cors middleware on every route), hits and misses carry the same headers.
      for (const answer of [before, again]) {
        expect(answer.headers.get("content-type")).toBe("application/json; charset=utf-8");
        expect(answer.headers.get("access-control-allow-origin")).toBe("*");
      }

      const [receipt] = await chain.send([
        Chain.call(owner, registry, abi, "setOwner", [node, to], `transfer ${name.name}`),
      ]);
      const block = Number(receipt!.blockNumber);
      await waitFor(async () => (await indexedBlock(indexer.url)) >= block, 60_000, `block ${block} indexed`);

      const after = await ask(indexer.url, node);
      expect(after.data.domain?.owner.id, `${name.name} after block ${block}`).toBe(to.toLowerCase());
      expect(after.data._meta.block.number).toBeGreaterThanOrEqual(block);
      expect(after.cache).toBe("miss");
      expect((await ask(indexer.url, node)).cache).toBe("hit");
      owner = getAddress(to);
    }
  }, 240_000);
});
