import { type AppConfig, getConfig } from "../config";
import { prefetchFirstLabels, warmUpHealing } from "../lib/healing";
import { register as basenames } from "../plugins/basenames/register";
import { register as ensv2 } from "../plugins/ensv2/register";
import { register as lineanames } from "../plugins/lineanames/register";
import type { PluginName } from "../plugins/names";
import { register as protocolAcceleration } from "../plugins/protocol-acceleration/register";
import { register as registrars } from "../plugins/registrars/register";
import { deriveListCountKeys } from "../plugins/shared/list-count-keys";
import { isIndexed } from "../plugins/shared/register";
import { deriveNewOwnerSubnodes, deriveOtherRootRegistry } from "../plugins/shared/row-key-derivations";
import { register as subgraph } from "../plugins/subgraph/register";
import { register as threedns } from "../plugins/threedns/register";
import { register as tokenscope } from "../plugins/tokenscope/register";
import { startFinalityWatch } from "./finality-watch";
import { readResumeBlocks } from "./resume-blocks";

const PLUGIN_REGISTRATIONS: Record<PluginName, () => void> = {
  subgraph,
  basenames,
  lineanames,
  threedns,
  "protocol-acceleration": protocolAcceleration,
  registrars,
  tokenscope,
  ensv2,
};

/** The registries whose labels healing fetches ahead of their events, by the datasource they belong to. */
const PREFETCHED_REGISTRIES = [
  { contract: "subgraph/Registry", datasource: "ensroot" },
  { contract: "basenames/Registry", datasource: "basenames" },
  { contract: "lineanames/Registry", datasource: "lineanames" },
] as const;

/**
 * What `ponder start` runs for the active configuration: each active plugin's handlers, then the work beside indexing.
 * src/index.ts, Ponder's indexing entry, calls this. Ponder executes every other file under src/ outside src/api/ too,
 * and none of them registers anything by itself (test/indexing/registration-entry.test.ts).
 */
export function registerIndexing(config: AppConfig = getConfig()): void {
  // The row cache's derivations every registry's handlers share; a plugin's own ones come with its register().
  deriveNewOwnerSubnodes();
  deriveOtherRootRegistry();
  deriveListCountKeys();
  for (const plugin of config.plugins) PLUGIN_REGISTRATIONS[plugin]();
  startBackgroundWork(config);
}

/**
 * - The finality guard: stops the indexer if a chain reorganizes below Ponder's finality (finality-watch.ts).
 * - Healing's warm-up and the label prefetch of each indexed registry from where this start indexes it (its start
 *   block, or the resume block of a resumed index), so the first registry events find their labels cached instead of
 *   waiting for them inside Ponder's indexing transaction.
 */
function startBackgroundWork(config: AppConfig): void {
  startFinalityWatch(config);
  const registries = PREFETCHED_REGISTRIES.filter((r) => isIndexed(r.contract));
  if (registries.length > 0) warmUpHealing();
  // Read once for every registry, and only by a prefetch that runs (over HTTP, with an RPC URL).
  let resume: Promise<Map<number, bigint>> | undefined;
  const resumeBlocks = () => (resume ??= readResumeBlocks());
  for (const { datasource } of registries) prefetchFirstLabels(datasource, resumeBlocks);
}
