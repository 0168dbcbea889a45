import { makeNameWrapperHandlers } from "./ens-handlers/name-wrapper";
import { type ContractWithEvent, isIndexed, on } from "./register";

/**
 * Registers every NameWrapper event of `contract` (ENS's and Lineanames' wrappers emit the same ones). The managed
 * name is asked for only when the contract is indexed: a namespace without the datasource has none.
 */
export function onNameWrapper(contract: ContractWithEvent<"NameWrapped">, managedName: () => string): void {
  if (!isIndexed(contract)) return;
  const wrapper = makeNameWrapperHandlers({ managedName: managedName() });
  on(`${contract}:NameWrapped`, wrapper.nameWrapped);
  on(`${contract}:NameUnwrapped`, wrapper.nameUnwrapped);
  on(`${contract}:FusesSet`, wrapper.fusesSet);
  on(`${contract}:ExpiryExtended`, wrapper.expiryExtended);
  on(`${contract}:TransferSingle`, wrapper.transferSingle);
  on(`${contract}:TransferBatch`, wrapper.transferBatch);
}
