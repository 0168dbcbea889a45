import type { Address } from "viem";
import { domainIdOf, registryId, tokenRowId } from "../../../lib/ensv2-ids";
import type { IdContext } from "../../../lib/ids";
import { listCountId } from "../../../lib/list-counts";
import { argOf, type DerivationEvent, deriveEventIds, deriveRowKey } from "../../shared/row-key-derivations";
import { ensv2Anchors } from "./context";

/*
 * The ENSv2 handlers' row keys, told to Ponder's row cache (src/plugins/shared/row-key-derivations.ts), so that an
 * evicted table's rows are prefetched in bulk rather than read one at a time inside a handler (on PGlite every
 * inserted key is read first). A table evicted before its first rows misses until the cache has sampled its events,
 * whatever the derivations; patch 028 keeps a table whole until it holds rows (docs/benchmarks.md, "Where a second of
 * indexing goes").
 */

/**
 * The registries' and the registrar's token id arguments (a token id, or any id of the label: the version is cleared).
 * `TokenRegenerated` names its domain by `newTokenId`; `EACRolesChanged` a registry's name by its `resource`, whose
 * domain keeps the ids of its roles' entries (permissions.ts).
 */
const TOKEN_ID_ARGS = ["tokenId", "id", "newTokenId", "resource"] as const;

const emitterOf = (event: DerivationEvent): Address | undefined => event.event.log?.address as Address | undefined;

/** `ids` is read per event: the handlers' settings exist only once the config is loaded. */
export function deriveEnsv2RowKeys(ids: () => IdContext): void {
  for (const argName of TOKEN_ID_ARGS) {
    deriveRowKey(`ensv2 domain(log.address, args.${argName})`, (event) => {
      const id = argOf(event, argName);
      const registry = emitterOf(event);
      return typeof id === "bigint" && registry ? domainIdOf(event.chain.id, registry, id) : undefined;
    });
  }
  // Token rows are written only by the ERC-1155 transfers (lifecycle.ts tokenHeld), keyed by `id` with its version.
  deriveRowKey("ensv2 token(log.address, args.id)", (event) => {
    const id = argOf(event, "id");
    const contract = emitterOf(event);
    return typeof id === "bigint" && contract ? tokenRowId(event.chain.id, contract, id) : undefined;
  });
  // The `.eth` registrar's events name a token of the ETH registry, not of the registrar that emits them.
  deriveRowKey("ensv2 domain(ETH registry, args.tokenId)", (event) => {
    const id = argOf(event, "tokenId");
    return typeof id === "bigint" ? domainIdOf(event.chain.id, ensv2Anchors().ethRegistry, id) : undefined;
  });
  // A registry's count of its domains (src/lib/list-counts.ts), bumped by each domain it creates.
  deriveRowKey("list count v2-registry(log.address)", (event) => {
    const registry = emitterOf(event);
    return registry ? listCountId("v2-registry", registryId(event.chain.id, registry)) : undefined;
  });
  // A registry's row and its ensv2_named_subregistry row share the key: the emitter's (a transfer asks whether it was
  // named, transfers.ts) and the one a SubregistryUpdated names.
  deriveRowKey("ensv2 registry(log.address)", (event) => {
    const registry = emitterOf(event);
    return registry ? registryId(event.chain.id, registry) : undefined;
  });
  deriveRowKey("ensv2 registry(args.subregistry)", (event) => {
    const named = argOf(event, "subregistry");
    return typeof named === "string" ? registryId(event.chain.id, named as Address) : undefined;
  });
  // The rows keyed by the log itself (logColumns in events.ts).
  deriveEventIds(ids);
}
