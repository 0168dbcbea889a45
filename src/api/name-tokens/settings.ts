import type { Hex } from "viem";
import type { AppConfig } from "../../config";
import { composeContracts } from "../../plugins/compose";
import { managedNames } from "../shared/managed-names";
import type { ChainAccount } from "./ownership";

/** What the registrar-actions and name-tokens routes derive from the configuration, once at startup. */
export function registrarApiSettings(config: AppConfig) {
  const contracts = new Set(Object.keys(composeContracts(config)));
  const managed = managedNames(config);
  const nameWrappers: ChainAccount[] = [];
  for (const ds of ["ensroot", "lineanames"] as const) {
    const source = config.namespace.datasources[ds];
    const address = source?.contracts.NameWrapper?.address;
    if (source && address) nameWrappers.push({ chainId: source.chain.id, address: address.toLowerCase() as Hex });
  }
  const datasourceOf = (name: string) =>
    (["ensroot", "basenames", "lineanames"] as const).find(
      (ds) => config.namespace.datasources[ds]?.managedName === name,
    );
  return {
    managedNameByNode: new Map(managed.map((m) => [m.node.toLowerCase(), m.name])) as ReadonlyMap<string, string>,
    nameWrappers,
    indexedParents: managed
      .map((m) => m.name)
      .filter((n) => contracts.has(`tokenscope/${datasourceOf(n)}/BaseRegistrar`)),
  };
}
