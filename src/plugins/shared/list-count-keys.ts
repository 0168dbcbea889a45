import { accountId, domainId } from "../../lib/ids";
import { listCountId } from "../../lib/list-counts";
import { argOf, type DerivationEvent, deriveRowKey, word } from "./row-key-derivations";

/** The address arguments that name a new or old owner in the registries', registrars' and NameWrapper's events. */
const OWNER_ARGS = ["owner", "to", "from"] as const;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * The counts' row keys, told to Ponder's row cache (row-key-derivations.ts): the counts are bumped by every new domain
 * and owner change, and once `domain_list_count` is evicted (mainnet; 50,000 devnet names with all plugins) each
 * unpredicted bump was a database read inside the handler, 17,732 of that run's 33,000 missed lookups. Ponder cannot
 * spell the `<list>:` prefix itself. The ENSv1 owner key is an address argument only when no wrapped owner or
 * registrant takes precedence; a wrong guess costs a wasted read in the batch's prefetch, never a wrong row.
 */
export function deriveListCountKeys(): void {
  deriveRowKey("list count v1-children(args.node)", (event) => {
    const node = word(event, "node");
    return node ? listCountId("v1-children", domainId(node)) : undefined;
  });
  for (const argName of OWNER_ARGS) {
    const address = (event: DerivationEvent) => {
      const value = argOf(event, argName);
      return typeof value === "string" && ADDRESS.test(value) ? accountId(value as `0x${string}`) : undefined;
    };
    deriveRowKey(`list count v1-owner(args.${argName})`, (event) => {
      const owner = address(event);
      return owner ? listCountId("v1-owner", owner) : undefined;
    });
    deriveRowKey(`list count v2-owner(args.${argName})`, (event) => {
      const owner = address(event);
      return owner ? listCountId("v2-owner", owner) : undefined;
    });
  }
}
