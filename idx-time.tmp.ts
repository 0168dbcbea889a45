import { startDevnetWithLabels } from "./harness/devnet-fixture";
import { indexerOptionsFor, startIndexer, waitFor } from "./harness/indexer-harness";
const env = await startDevnetWithLabels({ seed: 7, names: 12 });
for (const database of ["postgres", "pglite"] as const) {
  const t = Date.now();
  const indexer = await startIndexer(indexerOptionsFor(env, { plugins: ["subgraph","basenames","lineanames","threedns","protocol-acceleration","registrars","tokenscope"], database }));
  const t1 = Date.now();
  await waitFor(async () => (await fetch(`${indexer.url}/ready`)).status === 200, 120_000, "ready");
  console.log(database, "spawn", (t1 - t) / 1000, "ready", (Date.now() - t) / 1000, "s");
  await indexer.stop();
}
await env.stop();
