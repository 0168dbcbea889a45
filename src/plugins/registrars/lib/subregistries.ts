import type { Address, Hex } from "viem";
import { getConfig } from "../../../config";
import { namehash } from "../../../lib/names";
import type { DatasourceName } from "../../../namespaces/types";
import { deriveSubnodesOf } from "../../shared/row-key-derivations";

/** A base registrar and the name whose direct subnames it registers. */
export interface SubregistryRef {
  /** `<chainId>-<address>`. */
  id: string;
  chainId: number;
  address: Address;
  managedName: string;
  /** namehash(managedName). */
  node: Hex;
}

export function subregistryId(chainId: number, address: Address): string {
  return `${chainId}-${address.toLowerCase()}`;
}

/** The subregistry of a datasource's BaseRegistrar, from the namespace (every registrar datasource names its managed name). */
export function subregistryOf(datasource: DatasourceName): SubregistryRef {
  const ds = getConfig().namespace.datasources[datasource];
  const address = ds?.contracts.BaseRegistrar?.address;
  if (!ds || !address || !ds.managedName) {
    throw new Error(
      `registrars: datasource "${datasource}" has no BaseRegistrar address or managed name in this namespace`,
    );
  }
  const lower = address.toLowerCase() as Address;
  const node = namehash(ds.managedName);
  deriveSubnodesOf(node, ds.managedName);
  return {
    id: subregistryId(ds.chain.id, lower),
    chainId: ds.chain.id,
    address: lower,
    managedName: ds.managedName,
    node,
  };
}
