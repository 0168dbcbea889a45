import type { Address } from "viem";
import { ETH_COIN_TYPE } from "../../../lib/coin-types";
import { recordKeyId, resolverRecordsId } from "../../../lib/resolution-ids";
import { argOf, type DerivationEvent, deriveRowKey, word } from "../../shared/row-key-derivations";

/*
 * How the resolver handlers' keyed-record rows derive from an event, told to Ponder's row cache (see
 * src/plugins/shared/row-key-derivations.ts). deriveRecordKeys() tells them, from the resolver handlers' register().
 */

/**
 * A keyed record's id at version 0, for the row cache's prefetch: the version is the records row's state, which no
 * event carries, but nearly every node's records never see a VersionChanged. A node whose records did is one
 * wasted read and one direct read per write.
 */
function recordAtVersionZero(keyOf: (event: DerivationEvent) => string | undefined) {
  return (event: DerivationEvent) => {
    const node = word(event, "node");
    const resolver = event.event.log?.address;
    const key = keyOf(event);
    if (node === undefined || resolver === undefined || key === undefined) return undefined;
    return recordKeyId(resolverRecordsId(event.chain.id, resolver as Address, node), 0n, key);
  };
}
const stringArg = (name: string) => (event: DerivationEvent) => {
  const value = argOf(event, name);
  return typeof value === "string" ? value : undefined;
};
/** The resolver handlers' keyed-record row keys at version 0, by the event argument that names the record. */
export function deriveRecordKeys(): void {
  deriveRowKey(
    "resolver record at version 0 (args.coinType)",
    recordAtVersionZero((event) => {
      const coinType = argOf(event, "coinType");
      return typeof coinType === "bigint" ? coinType.toString() : undefined;
    }),
  );
  deriveRowKey(
    "resolver record at version 0 (args.a: coin type 60)",
    recordAtVersionZero((event) => (typeof argOf(event, "a") === "string" ? ETH_COIN_TYPE.toString() : undefined)),
  );
  deriveRowKey("resolver record at version 0 (args.key)", recordAtVersionZero(stringArg("key")));
  deriveRowKey(
    "resolver record at version 0 (args.interfaceID)",
    recordAtVersionZero((event) => stringArg("interfaceID")(event)?.toLowerCase()),
  );
}
