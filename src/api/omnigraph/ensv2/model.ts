import type { Address } from "viem";
import type { AccountIdModel, DomainModel } from "../model";
import type { V2DomainRow, V2RegistryRow } from "./sql";

/** An ENSv2 domain: one label of one registry (`<chainId>-<registry>-<storageId>`, src/plugins/ensv2/lib/ids.ts). */
export interface V2DomainModel {
  __typename: "ENSv2Domain";
  v2: V2DomainRow;
}

/** A domain of either version, as the `Domain` interface's fields return it. */
export type AnyDomainModel = DomainModel | V2DomainModel;

export const v2Domain = (v2: V2DomainRow): V2DomainModel => ({ __typename: "ENSv2Domain", v2 });

/** An ENSv2 registry contract (`<chainId>-<address>`); its indexed row is loaded when a field needs it. */
export interface V2RegistryModel {
  __typename: "ENSv2Registry";
  contract: AccountIdModel;
}

export const v2Registry = (chainId: number, address: string): V2RegistryModel => ({
  __typename: "ENSv2Registry",
  contract: { chainId, address: address.toLowerCase() as Address },
});

export const v2RegistryOfRow = (r: V2RegistryRow) => v2Registry(r.chain_id, r.address);

export const v2RegistryId = (r: V2RegistryModel) => `${r.contract.chainId}-${r.contract.address}`;

const ZERO = /^0x0{40}$/;
export const nonZeroAddress = (a: string | null | undefined): Address | null =>
  a && !ZERO.test(a) ? (a.toLowerCase() as Address) : null;
