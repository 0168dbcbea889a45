import { chainNameConflicts, fileDatasources, readDatasourcesFile } from "./datasources-file";
import { devnetNamespace } from "./devnet";
import { mainnetNamespace } from "./mainnet";
import { sepoliaNamespace } from "./sepolia";
import type { Namespace, NamespaceName } from "./types";

export interface NamespaceSources {
  devnetManifestPath: string;
  /** NAMESPACE_DATASOURCES_FILE: a replacement for src/namespaces/datasources.json; unset reads the bundled one. */
  datasourcesFile?: string;
}

/** Namespaces with datasources in code; the datasources file adds to or replaces them, and is all sepolia-v2 has. */
const IN_CODE: Partial<Record<NamespaceName, Namespace>> = { mainnet: mainnetNamespace, sepolia: sepoliaNamespace };

export function loadNamespace(name: NamespaceName, sources: NamespaceSources): Namespace {
  if (name === "devnet") return devnetNamespace(sources.devnetManifestPath);
  const fromCode: Namespace = IN_CODE[name] ?? { name, defaultRpcUrls: {}, datasources: {} };
  const datasources = {
    ...fromCode.datasources,
    ...fileDatasources(readDatasourcesFile(sources.datasourcesFile), name),
  };
  const conflicts = chainNameConflicts(datasources);
  if (conflicts.length > 0) throw new Error(`namespace "${name}": ${conflicts.join("; ")}`);
  return { ...fromCode, datasources };
}

export * from "./types";
