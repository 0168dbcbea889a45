import { makeNameWrapperHandlers } from "../../../lib/ens-handlers/name-wrapper";
import { isIndexed, on } from "../../shared/register";
import { managedNameOf } from "../../basenames/handlers/l2-registry";

const C = "lineanames/NameWrapper";
if (isIndexed(C)) {
  const wrapper = makeNameWrapperHandlers({ managedName: managedNameOf("lineanames") });
  on(`${C}:NameWrapped`, wrapper.nameWrapped);
  on(`${C}:NameUnwrapped`, wrapper.nameUnwrapped);
  on(`${C}:FusesSet`, wrapper.fusesSet);
  on(`${C}:ExpiryExtended`, wrapper.expiryExtended);
  on(`${C}:TransferSingle`, wrapper.transferSingle);
  on(`${C}:TransferBatch`, wrapper.transferBatch);
}
