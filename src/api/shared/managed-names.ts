import type { Address, Hex } from "viem";
import type { AppConfig } from "../../config";
import { encodeLabelhash, interpretLabel } from "../../lib/labels";
import { namehash } from "../../lib/names";
import type { DatasourceName } from "../../namespaces/types";

/** A name whose direct subnames a base registrar of this namespace registers (eth, base.eth, linea.eth). */
export interface ManagedName {
  name: string;
  node: Hex;
  chainId: number;
  registrar: Address;
}

const REGISTRAR_DATASOURCES: DatasourceName[] = ["ensroot", "basenames", "lineanames"];

/** The namespace's base registrars and their managed names (whether or not a plugin indexes them). */
export function managedNames(config: Pick<AppConfig, "namespace">): ManagedName[] {
  const out: ManagedName[] = [];
  for (const ds of REGISTRAR_DATASOURCES) {
    const source = config.namespace.datasources[ds];
    const registrar = source?.contracts.BaseRegistrar?.address;
    if (!source?.managedName || !registrar) continue;
    out.push({
      name: source.managedName,
      node: namehash(source.managedName),
      chainId: source.chain.id,
      registrar: registrar.toLowerCase() as Address,
    });
  }
  return out;
}

/** What nameOf reads of a registration row (registrar actions, name tokens, name sales). */
export interface RegisteredNameRow {
  domain_name: string | null;
  label: string | null;
  labelhash: Hex;
  parent_node: Hex;
}

/** The domain's name when the subgraph tables have it, else the controller's label, else the encoded labelhash. */
export function nameOf(row: RegisteredNameRow, managedNameByNode: ReadonlyMap<string, string>): string {
  if (row.domain_name) return row.domain_name;
  const parent = managedNameByNode.get(row.parent_node.toLowerCase()) ?? encodeLabelhash(row.parent_node);
  // The indexer's label rule in the normalized mode, as the Omnigraph's revealed labels (`[89cb…]` is not shown).
  return `${interpretLabel(row.label, row.labelhash, "normalized").label}.${parent}`;
}
