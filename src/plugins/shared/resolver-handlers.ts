import type { IndexedEvent, IndexingContext } from "../../lib/ens-handlers/context";
import * as resolver from "../../lib/ens-handlers/resolver";
import { isIndexed, on } from "./register";

type Handler = (context: IndexingContext, event: IndexedEvent<never>) => Promise<void>;

/** Every resolver event and the shared logic it feeds; both TextChanged variants occur on mainnet. */
const RESOLVER_EVENTS: [string, Handler][] = [
  ["AddrChanged", resolver.addrChanged],
  ["AddressChanged", resolver.addressChanged],
  ["NameChanged", resolver.nameChanged],
  ["ABIChanged", resolver.abiChanged],
  ["PubkeyChanged", resolver.pubkeyChanged],
  ["TextChanged(bytes32 indexed node, string indexed indexedKey, string key)", resolver.textChanged],
  ["TextChanged(bytes32 indexed node, string indexed indexedKey, string key, string value)", resolver.textChanged],
  ["ContenthashChanged", resolver.contenthashChanged],
  ["InterfaceChanged", resolver.interfaceChanged],
  ["AuthorisationChanged", resolver.authorisationChanged],
  ["VersionChanged", resolver.versionChanged],
];

/**
 * Wires a resolver contract's events to the subgraph's resolver logic, if Ponder indexes that contract. `skipAddress`
 * leaves out one resolver whose events another contract of the same chain already handles.
 */
export function onResolverEvents(contract: string, options: { skipAddress?: string } = {}): void {
  if (!isIndexed(contract)) return;
  const skip = options.skipAddress?.toLowerCase();
  for (const [event, handler] of RESOLVER_EVENTS) {
    on<never>(
      `${contract}:${event}`,
      skip === undefined
        ? handler
        : (context, e) => (e.log.address.toLowerCase() === skip ? Promise.resolve() : handler(context, e)),
    );
  }
}
