import type { Address, Hex } from "viem";
import { ROOT_NODE, ZERO_ADDRESS } from "../../lib/names";
import type { Namespace } from "../../namespaces/types";
import { routeName } from "../shared/resolution/routing";
import type { DomainRow } from "./domain-sql";

/*
 * The objects the Omnigraph's resolvers pass around for ENSv1, and the ids they answer with (ENSv2's: ensv2/model.ts).
 */

export interface DomainModel {
  __typename: "ENSv1Domain";
  row: DomainRow;
}

export const v1Domain = (row: DomainRow): DomainModel => ({ __typename: "ENSv1Domain", row });

export interface AccountIdModel {
  chainId: number;
  address: Address;
}

/** An ENSv1 registry contract, or the virtual registry of one ENSv1 domain's subnames (`node`). */
export interface RegistryModel {
  __typename: "ENSv1Registry" | "ENSv1VirtualRegistry";
  contract: AccountIdModel;
  /** The domain whose subnames the registry holds: its node (virtual), or the node its names hang under (concrete). */
  node: Hex;
}

export interface AccountModel {
  address: Address;
}

export interface ResolverModel {
  chainId: number;
  address: Address;
}

export const accountOf = (address: string | null | undefined): AccountModel | null =>
  !address || address === ZERO_ADDRESS ? null : { address: address.toLowerCase() as Address };

/** `<chainId>-<address>` of a concrete registry, with `-<node>` for a virtual one. */
export function registryId(r: RegistryModel): string {
  const base = `${r.contract.chainId}-${r.contract.address}`;
  return r.__typename === "ENSv1VirtualRegistry" ? `${base}-${r.node}` : base;
}

export const resolverId = (r: ResolverModel) => `${r.chainId}-${r.address}`;

export const parseAccountId = (id: string): { chainId: number; address: Address; rest: string[] } | undefined => {
  const [chain, address, ...rest] = id.split("-");
  if (!/^\d{1,10}$/.test(chain ?? "") || !/^0x[0-9a-fA-F]{40}$/.test(address ?? "")) return undefined;
  return { chainId: Number(chain), address: address!.toLowerCase() as Address, rest };
};

/** The ENSv1 registries the namespace has (root, Basenames, Lineanames, 3DNS tokens) and the node each one's names hang under. */
export function concreteRegistries(namespace: Namespace): RegistryModel[] {
  const out: RegistryModel[] = [];
  const ds = namespace.datasources;
  const add = (chainId: number | undefined, address: string | undefined, node: Hex) => {
    if (chainId !== undefined && address)
      out.push({ __typename: "ENSv1Registry", contract: { chainId, address: address.toLowerCase() as Address }, node });
  };
  add(ds.ensroot?.chain.id, ds.ensroot?.contracts.Registry?.address, ROOT_NODE);
  for (const l2 of [ds.basenames, ds.lineanames]) {
    if (l2?.managedName) add(l2.chain.id, l2.contracts.Registry?.address, nodeOfManaged(l2.managedName));
  }
  for (const t of [ds.threednsOptimism, ds.threednsBase])
    add(t?.chain.id, t?.contracts.ThreeDNSToken?.address, ROOT_NODE);
  return out;
}

import { namehash } from "../../lib/names";

const nodeOfManaged = (name: string) => namehash(name);

export function rootRegistry(namespace: Namespace): RegistryModel {
  return concreteRegistries(namespace)[0]!;
}

/** The registry contract that holds a name's record (where ENSIP-10 would look it up). */
export function registryContractOf(name: string, namespace: Namespace): AccountIdModel {
  const route = routeName(name, namespace);
  const source =
    route.registry && !name.endsWith(".eth") && route.threedns.length === 1
      ? route.threedns[0]!
      : (route.registry ?? route.threedns[0]);
  if (!source) return rootRegistry(namespace).contract;
  return { chainId: source.chainId, address: source.registry };
}

/** The Registry a domain lives in: the root registry for top-level names, else its parent's virtual registry. */
export function registryOfDomain(row: DomainRow, namespace: Namespace): RegistryModel {
  if (row.id === ROOT_NODE || row.parent_id === null || row.parent_id === ROOT_NODE) return rootRegistry(namespace);
  return {
    __typename: "ENSv1VirtualRegistry",
    contract: registryContractOf(row.name ?? "", namespace),
    node: row.parent_id as Hex,
  };
}

/** The virtual registry of a domain's subnames. */
export function subregistryOfDomain(row: DomainRow, namespace: Namespace): RegistryModel {
  if (row.id === ROOT_NODE) return rootRegistry(namespace);
  const child = `[${"0".repeat(64)}].${row.name ?? ""}`;
  return { __typename: "ENSv1VirtualRegistry", contract: registryContractOf(child, namespace), node: row.id as Hex };
}

/** A resolver id of the subgraph tables (`<address>-<node>[-<chainId>]`) as the resolver contract it names. */
export function resolverOfSubgraphId(id: string | null, rootChainId: number): ResolverModel | null {
  if (!id) return null;
  const [address, , chain] = id.split("-");
  if (!address || address === ZERO_ADDRESS) return null;
  return { chainId: chain ? Number(chain) : rootChainId, address: address as Address };
}

export const rootChainIdOf = (namespace: Namespace) => namespace.datasources.ensroot?.chain.id ?? 1;
