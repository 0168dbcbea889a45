import * as schema from "ponder:schema";
import type { Hex } from "viem";
import { getConfig } from "../../config";
import { DEFAULT_EVM_COIN_TYPE } from "../../lib/coin-types";
import { domainId } from "../../lib/ids";
import { labelhashOf } from "../../lib/labels";
import { makeSubnode, namehash, ROOT_NODE, ZERO_ADDRESS } from "../../lib/names";
import type { IndexedEvent, IndexingContext } from "./ens-handlers/context";
import { upsertAccount } from "./ens-handlers/db";
import {
  makeRegistryHandlers,
  type NewOwnerArgs,
  type NewResolverArgs,
  type NewTTLArgs,
  setupRootDomain,
  type TransferArgs,
} from "./ens-handlers/registry";
import { settleDomainListCounts } from "./list-counts";
import { on, onSetup } from "./register";

/**
 * An L2 registry (Basenames on Base, Lineanames on Linea) whose nodes share mainnet's namehashes. The ENS root
 * chain owns every row at or above the managed name (`eth`, `base.eth`): the L2 registry's events for those nodes
 * are skipped, except that the managed name's domain is created from L2 when the root chain has no row for it, so
 * the L2 names hang under the root chain's `eth`. The same holds for the reverse namespace's nodes, which an L2
 * registry creates for its own reverse registrar (`reverse`, then `80002105.reverse` on Base, `addr.reverse` on
 * Basenames' testnets) and which mainnet's registry holds too: without this, Base's deployer would show as the owner
 * of mainnet's `reverse`. Reverse records under them (`<address>.80002105.reverse`) are the L2's own. Any other node
 * the L2 registry's owner creates beside that path (`other.eth`, `com`) is skipped too: its namehash is mainnet's,
 * so indexing it would overwrite the root chain's row of that name.
 */
export function managedNameOf(datasource: L2Datasource): string {
  const managedName = getConfig().namespace.datasources[datasource]?.managedName;
  if (!managedName) throw new Error(`The ${datasource} datasource has no managedName`);
  return managedName;
}

type L2Datasource = "basenames" | "lineanames";

/** The nodes of the managed name and of each of its ancestors (root included). */
function nodesAtOrAbove(managedName: string): Set<string> {
  const labels = managedName.split(".");
  const nodes = new Set<string>([domainId(ROOT_NODE)]);
  for (let i = 0; i < labels.length; i++) nodes.add(domainId(namehash(labels.slice(i).join("."))));
  return nodes;
}

/** The reverse namespace's nodes an L2 registry shares with the root chain, by id, with their names. */
function sharedReverseNamespace(chainId: number): Map<string, string> {
  // ENSIP-19: the chain's ENSIP-11 coin type in lowercase hex names its reverse namespace (80002105 for Base).
  const coinTypeLabel = (DEFAULT_EVM_COIN_TYPE | BigInt(chainId)).toString(16);
  return new Map(
    ["reverse", "addr.reverse", `${coinTypeLabel}.reverse`].map((name) => [domainId(namehash(name)), name]),
  );
}

export function wireL2Registry(contract: "basenames/Registry" | "lineanames/Registry", datasource: L2Datasource): void {
  const registry = makeRegistryHandlers({ registry: "new" });
  const managedName = managedNameOf(datasource);
  const reserved = nodesAtOrAbove(managedName);
  const shared = sharedReverseNamespace(getConfig().namespace.datasources[datasource]!.chain.id);
  const managedId = domainId(namehash(managedName));
  const [managedLabel, ...parentLabels] = managedName.split(".");
  const parentName = parentLabels.join(".");
  const parentId = domainId(parentLabels.length ? namehash(parentName) : ROOT_NODE);
  const isReserved = (node: Hex) => reserved.has(domainId(node)) || shared.has(domainId(node));
  // An ancestor of the managed name (root, `eth`): of its children only the path to the managed name is the L2's.
  const isAncestor = (node: Hex) => reserved.has(domainId(node)) && domainId(node) !== managedId;
  const isOwnName = (name: string | null) =>
    name !== null && (name === managedName || name.endsWith(`.${managedName}`) || name.endsWith(".reverse"));
  /** Whether an event about `node` is the L2's to apply: a row it created, in its own part of the namespace. */
  const ownsNode = async (context: IndexingContext, node: Hex) => {
    if (isReserved(node)) return false;
    const row = await context.db.find(schema.domain, { id: domainId(node) });
    return row !== null && isOwnName(row.name);
  };

  onSetup(contract, setupRootDomain);

  on(`${contract}:NewOwner`, async (context: IndexingContext, event: IndexedEvent<NewOwnerArgs>) => {
    const id = domainId(makeSubnode(event.args.node, event.args.label));
    const sharedName = shared.get(id);
    if (sharedName !== undefined) {
      // A reverse namespace node: the root chain's row if it has one; else created from L2, for the records under it.
      if (await context.db.find(schema.domain, { id })) return;
      await registry.newOwner(context, event);
      await context.db.update(schema.domain, { id }).set({ name: sharedName, labelName: sharedName.split(".")[0]! });
      return;
    }
    if (id !== managedId) {
      if (reserved.has(id)) return; // `eth` and the like: the root chain's rows
      if (isAncestor(event.args.node)) return; // a sibling of the path to the managed name: mainnet's namespace
      return registry.newOwner(context, event);
    }
    // The managed name itself: created from L2 only when the root chain has not got it.
    if (await context.db.find(schema.domain, { id })) return;
    if (parentLabels.length && !(await context.db.find(schema.domain, { id: parentId }))) {
      // The root chain has not indexed the parent (e.g. `eth`) yet: a placeholder that its NewOwner will complete.
      await upsertAccount(context, ZERO_ADDRESS);
      const placeholder = await context.db
        .insert(schema.domain)
        .values({
          id: parentId,
          name: parentName,
          labelName: parentLabels[0]!,
          labelhash: labelhashOf(parentLabels[0]!),
          parentId:
            parentLabels.length === 1 ? domainId(ROOT_NODE) : domainId(namehash(parentLabels.slice(1).join("."))),
          createdAt: event.block.timestamp,
          ownerId: ZERO_ADDRESS,
          // Not migrated, so an old ENS registry may still create it.
          isMigrated: false,
        })
        .onConflictDoNothing();
      if (placeholder) await settleDomainListCounts(context, null, placeholder);
    }
    await registry.newOwner(context, event);
    await context.db.update(schema.domain, { id }).set({ name: managedName, labelName: managedLabel! });
  });
  on(`${contract}:Transfer`, async (context: IndexingContext, event: IndexedEvent<TransferArgs>) => {
    if (await ownsNode(context, event.args.node)) await registry.transfer(context, event);
  });
  on(`${contract}:NewResolver`, async (context: IndexingContext, event: IndexedEvent<NewResolverArgs>) => {
    if (await ownsNode(context, event.args.node)) await registry.newResolver(context, event);
  });
  on(`${contract}:NewTTL`, async (context: IndexingContext, event: IndexedEvent<NewTTLArgs>) => {
    if (await ownsNode(context, event.args.node)) await registry.newTTL(context, event);
  });
}
