import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { Address } from "viem";
import {
  type DevnetManifest,
  devnetManifestSchema,
  readDevnetManifest,
  scenarioPathOf,
} from "../../src/namespaces/devnet-manifest";
import type { Chain } from "./chain";
import { MANIFEST_CONTRACT_SOURCES } from "./contracts";
import { manifestContractEvents } from "./events";

export interface ManifestContract {
  address?: Address;
  startBlock: number;
}

export interface ManifestDatasource {
  chain: Chain;
  contracts: Record<string, ManifestContract>;
}

/**
 * Counts, per manifest contract and event, the logs in every receipt the devnet sent. Address-less contracts
 * (resolvers) count the event at any address on their chain, as an indexer matching them would.
 */
export function countEvents(datasources: Record<string, ManifestDatasource>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [ds, { chain, contracts }] of Object.entries(datasources)) {
    for (const [contract, ref] of Object.entries(contracts)) {
      const sources = MANIFEST_CONTRACT_SOURCES[ds]?.[contract];
      if (!sources) throw new Error(`no contract sources for ${ds}/${contract}`);
      for (const ev of manifestContractEvents(sources)) {
        let n = 0;
        for (const [key, count] of chain.logTally) {
          const [address, topic0] = key.split("|");
          if (topic0 === ev.selector && (!ref.address || address === ref.address)) n += count;
        }
        if (n > 0) counts[`${ds}/${contract}:${ev.name}`] = n;
      }
    }
  }
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * Writes the manifest the indexer reads at `path`, and its scenario's facts beside it (`scenarioPathOf`): the facts are
 * for tests, and at 50,000 names they are 65 MB of JSON that every `ponder start` would otherwise parse (a ~600 MiB
 * transient heap at start-up, which was the PGlite process's peak RSS in bench:scale).
 */
export function writeManifest(path: string, manifest: DevnetManifest): void {
  const { scenario, ...indexed } = manifest;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(scenarioPathOf(path), `${JSON.stringify(scenario)}\n`);
  writeFileSync(path, `${JSON.stringify(indexed, null, 2)}\n`);
}

/**
 * A manifest with its scenario's facts, as `writeManifest` wrote them (or inline, as manifests written before the
 * facts had a file of their own carry them).
 */
export function readManifestWithScenario(path: string): DevnetManifest {
  const manifest = readDevnetManifest(path);
  const scenarioPath = scenarioPathOf(path);
  if (!existsSync(scenarioPath)) return manifest;
  const scenario = devnetManifestSchema.shape.scenario.parse(JSON.parse(readFileSync(scenarioPath, "utf8")));
  return { ...manifest, scenario };
}
