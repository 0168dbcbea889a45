import * as schema from "ponder:schema";
import type { Address, Hex } from "viem";
import type { StandaloneReverseRegistrarAbi } from "../../../../abis";
import { reverseNameId } from "../../../lib/resolution-ids";
import type { EventArgs, IndexedEvent, IndexingContext } from "../../shared/ens-handlers/context";

/** NameForAddrChanged on a standalone reverse registrar: the address's name under the registrar's coin type. */
export function nameForAddrChanged(coinType: bigint) {
  return async (
    context: IndexingContext,
    event: IndexedEvent<EventArgs<typeof StandaloneReverseRegistrarAbi, "NameForAddrChanged">>,
  ) => {
    const address = event.args.addr.toLowerCase() as Hex;
    const name = event.args.name;
    await context.db
      .insert(schema.reverseName)
      .values({ id: reverseNameId(address, coinType), address, coinType, chainId: context.chain.id, name })
      .onConflictDoUpdate({ name, chainId: context.chain.id });
  };
}
