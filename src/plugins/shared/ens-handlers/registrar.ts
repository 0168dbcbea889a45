import * as schema from "ponder:schema";
import type { Address, Hex } from "viem";
import type { BaseRegistrarAbi } from "../../../../abis";
import { domainId, registrationId } from "../../../lib/ids";
import { interpretLabel, isShowableLabel, labelhashOf } from "../../../lib/labels";
import { GRACE_PERIOD_SECONDS, makeSubnode, namehash, tokenIdToHex32 } from "../../../lib/names";
import { registrationOrderKeys } from "../../../lib/registration-order";
import { updateDomainOwnership } from "../list-counts";
import { deriveSubnodesOf } from "../row-key-derivations";
import { type EventArgs, handlerSettings, type IndexedEvent, type IndexingContext } from "./context";
import { eventFields, upsertAccount } from "./db";
import { makeRegistryHandlers } from "./registry";

/**
 * A base registrar (ERC-721) of the managed name X (`eth`, `base.eth`, `linea.eth`) and its controllers, with the
 * ENS subgraph's semantics (its ethRegistrar.ts). The token id is the labelhash of the registered label under X.
 */
export interface RegistrarOptions {
  managedName: string;
  /**
   * Registrars that mint names without creating them in the registry (Basenames' and Lineanames' preminted names)
   * get their Domain created at NameRegistered, as the registry's NewOwner would have.
   */
  supportsPremintedNames?: boolean;
}

export type NameRegisteredArgs = EventArgs<typeof BaseRegistrarAbi, "NameRegistered">;
export type NameRenewedArgs = EventArgs<typeof BaseRegistrarAbi, "NameRenewed">;
export type TokenTransferArgs = EventArgs<typeof BaseRegistrarAbi, "Transfer">;
/**
 * A controller event carries the plaintext label, its labelhash and what it cost (base + premium). Controllers that
 * publish no price (Basenames', Lineanames' owner and proof-of-humanity registrations) leave `cost` undefined.
 */
export type ControllerArgs = { label: string; labelhash: Hex; cost?: bigint };

export function makeRegistrarHandlers({ managedName, supportsPremintedNames = false }: RegistrarOptions) {
  const managedNode = namehash(managedName);
  deriveSubnodesOf(managedNode, managedName);
  const registry = makeRegistryHandlers({ registry: "new" });

  function ids(context: IndexingContext, labelhash: Hex) {
    const settings = handlerSettings();
    const node = makeSubnode(managedNode, labelhash);
    const isEthOnRootChain = managedName === "eth" && context.chain.id === settings.ensRootChainId;
    return { node: domainId(node), registration: registrationId(labelhash, node, isEthOnRootChain) };
  }

  async function nameRegistered(context: IndexingContext, event: IndexedEvent<NameRegisteredArgs>): Promise<void> {
    const settings = handlerSettings();
    const { owner, expires } = event.args;
    const labelhash = tokenIdToHex32(event.args.id);
    const id = ids(context, labelhash);

    if (supportsPremintedNames && !(await context.db.find(schema.domain, { id: id.node }))) {
      await registry.newOwner(context, { ...event, args: { node: managedNode, label: labelhash, owner } });
    }
    const registrantId = await upsertAccount(context, owner);

    // Healed on every registration, as the subgraph did: a label learnt since NewOwner names the domain now.
    const literal = await settings.heal(labelhash);
    const { label, labelName } = interpretLabel(literal, labelhash, settings.labelMode);
    const naming = labelName !== null ? { labelName, name: `${label}.${managedName}` } : {};
    await updateDomainOwnership(context, id.node, {
      registrantId,
      expiryDate: expires + GRACE_PERIOD_SECONDS,
      ...registrationOrderKeys(event.block.timestamp, expires),
      ...naming,
    });

    const registration = {
      domainId: id.node,
      registrationDate: event.block.timestamp,
      expiryDate: expires,
      registrantId,
      ...(labelName !== null ? { labelName } : {}),
    };
    await context.db
      .insert(schema.registration)
      .values({ id: id.registration, ...registration })
      .onConflictDoUpdate(registration);

    await context.db.insert(schema.nameRegistered).values({
      ...eventFields(settings, context, event),
      registrationId: id.registration,
      registrantId,
      expiryDate: expires,
    });
  }

  async function nameRenewed(context: IndexingContext, event: IndexedEvent<NameRenewedArgs>): Promise<void> {
    const settings = handlerSettings();
    const { expires } = event.args;
    const id = ids(context, tokenIdToHex32(event.args.id));
    await context.db.update(schema.registration, { id: id.registration }).set({ expiryDate: expires });
    await context.db
      .update(schema.domain, { id: id.node })
      .set({ expiryDate: expires + GRACE_PERIOD_SECONDS, registrationExpiryKey: expires });
    await context.db.insert(schema.nameRenewed).values({
      ...eventFields(settings, context, event),
      registrationId: id.registration,
      expiryDate: expires,
    });
  }

  /** ERC-721 Transfer. The mint of a first registration comes before NameRegistered and is not recorded. */
  async function nameTransferred(context: IndexingContext, event: IndexedEvent<TokenTransferArgs>): Promise<void> {
    const settings = handlerSettings();
    const newOwnerId = await upsertAccount(context, event.args.to);
    const id = ids(context, tokenIdToHex32(event.args.tokenId));
    if (!(await context.db.find(schema.registration, { id: id.registration }))) return;
    await context.db.update(schema.registration, { id: id.registration }).set({ registrantId: newOwnerId });
    await updateDomainOwnership(context, id.node, { registrantId: newOwnerId });
    await context.db.insert(schema.nameTransferred).values({
      ...eventFields(settings, context, event),
      registrationId: id.registration,
      newOwnerId,
    });
  }

  /**
   * A controller's NameRegistered/NameRenewed: the plaintext label names the domain and the registration, and the
   * cost is recorded (the subgraph's `setNamePreimage`; a renewal's cost overwrites the registration's, as there).
   */
  async function controllerEvent(context: IndexingContext, event: IndexedEvent<ControllerArgs>): Promise<void> {
    const settings = handlerSettings();
    const { label, cost } = event.args;
    const labelhash = event.args.labelhash.toLowerCase() as Hex;
    // Controllers derive the labelhash from the label; a mismatch would mean a foreign contract, not a name.
    const verified = labelhashOf(label) === labelhash;
    if (!verified) {
      console.warn(
        `Controller event in tx ${event.transaction.hash}: label ${JSON.stringify(label)} does not hash to ${labelhash}; label ignored`,
      );
    }
    const showable = verified && isShowableLabel(label, settings.labelMode);
    // The subgraph ignores the whole event for a label it cannot show.
    if (!showable && settings.isSubgraphCompatible) return;
    const id = ids(context, labelhash);

    if (showable) {
      const domain = await context.db.find(schema.domain, { id: id.node });
      if (!domain)
        throw new Error(`Controller event for ${label}.${managedName} (${id.node}) before its domain exists`);
      if (domain.labelName !== label) {
        await context.db
          .update(schema.domain, { id: id.node })
          .set({ labelName: label, name: `${label}.${managedName}` });
      }
    }
    if (!(await context.db.find(schema.registration, { id: id.registration }))) return;
    await context.db
      .update(schema.registration, { id: id.registration })
      .set({ ...(cost !== undefined ? { cost } : {}), ...(showable ? { labelName: label } : {}) });
  }

  return {
    nameRegistered,
    nameRenewed,
    nameTransferred,
    controllerNameRegistered: controllerEvent,
    controllerNameRenewed: controllerEvent,
  };
}
