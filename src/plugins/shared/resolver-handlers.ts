import type { IndexingContext } from "./ens-handlers/context";
import * as resolver from "./ens-handlers/resolver";
import { type ContractWithEvent, isIndexed, on } from "./register";

type ResolverContract = Exclude<ContractWithEvent<"AuthorisationChanged">, `protocol-acceleration/${string}`>;

/**
 * Wires a resolver contract's events to the subgraph's resolver logic, if Ponder indexes that contract; both
 * TextChanged variants occur on mainnet. `skipAddress` leaves out one resolver whose events another contract of the
 * same chain already handles.
 */
export function onResolverEvents(contract: ResolverContract, options: { skipAddress?: string } = {}): void {
  if (!isIndexed(contract)) return;
  const skip = options.skipAddress?.toLowerCase();
  // Without a skipped address the handler is registered as it is: no per-event address check on the hot path.
  const unlessSkipped = <E extends { log: { address: string } }>(
    handler: (context: IndexingContext, event: E) => Promise<void>,
  ) =>
    skip === undefined
      ? handler
      : (context: IndexingContext, event: E) =>
          event.log.address.toLowerCase() === skip ? Promise.resolve() : handler(context, event);
  on(`${contract}:AddrChanged`, unlessSkipped(resolver.addrChanged));
  on(`${contract}:AddressChanged`, unlessSkipped(resolver.addressChanged));
  on(`${contract}:NameChanged`, unlessSkipped(resolver.nameChanged));
  on(`${contract}:ABIChanged`, unlessSkipped(resolver.abiChanged));
  on(`${contract}:PubkeyChanged`, unlessSkipped(resolver.pubkeyChanged));
  on(
    `${contract}:TextChanged(bytes32 indexed node, string indexed indexedKey, string key)`,
    unlessSkipped(resolver.textChanged),
  );
  on(
    `${contract}:TextChanged(bytes32 indexed node, string indexed indexedKey, string key, string value)`,
    unlessSkipped(resolver.textChanged),
  );
  on(`${contract}:ContenthashChanged`, unlessSkipped(resolver.contenthashChanged));
  on(`${contract}:InterfaceChanged`, unlessSkipped(resolver.interfaceChanged));
  on(`${contract}:AuthorisationChanged`, unlessSkipped(resolver.authorisationChanged));
  on(`${contract}:VersionChanged`, unlessSkipped(resolver.versionChanged));
}
