import * as schema from "ponder:schema";
import type { Address, Hex } from "viem";
import type { NameWrapperAbi } from "../../../../abis";
import { decodeWrappedName } from "../../../lib/dns-wire";
import { domainId } from "../../../lib/ids";
import { namehash, tokenIdToHex32 } from "../../../lib/names";
import { NO_REGISTRATION_ORDER_KEYS, registrationOrderKeys } from "../../../lib/registration-order";
import { updateDomainOwnership } from "../list-counts";
import { deriveTransferEventIds } from "../row-key-derivations";
import { type EventArgs, handlerSettings, type IndexedEvent, type IndexingContext } from "./context";
import { eventFields, upsertAccount } from "./db";

/**
 * The NameWrapper (ERC-1155) of a managed name (`eth` on ENS, `linea.eth` on Linea), with the ENS subgraph's
 * semantics (its nameWrapper.ts). Token ids are nodes.
 */
export interface NameWrapperOptions {
  managedName: string;
}

const PARENT_CANNOT_CONTROL = 0x10000;

type DomainRow = typeof schema.domain.$inferSelect;

const parentCannotControl = (fuses: number) => (fuses & PARENT_CANNOT_CONTROL) === PARENT_CANNOT_CONTROL;

/** With PARENT_CANNOT_CONTROL burned the wrapper's expiry bounds the name, so the domain's expiry follows it up. */
const raisedExpiry = (row: DomainRow, fuses: number, expiry: bigint) =>
  parentCannotControl(fuses) && (row.expiryDate === null || expiry > row.expiryDate) ? { expiryDate: expiry } : {};

/**
 * A wrapped name's registration is the wrapper's only when no base registrar registered it (the registrar sets the
 * registrant with its registration): then the wrapper's expiry, from the domain's creation, orders it.
 */
const wrapperOrderKeys = (row: DomainRow, expiry: bigint | null) =>
  row.registrantId !== null
    ? {}
    : expiry === null
      ? NO_REGISTRATION_ORDER_KEYS
      : registrationOrderKeys(row.createdAt, expiry);

export function makeNameWrapperHandlers({ managedName }: NameWrapperOptions) {
  const managedNodeId = domainId(namehash(managedName));
  deriveTransferEventIds(handlerSettings);

  async function nameWrapped(
    context: IndexingContext,
    event: IndexedEvent<EventArgs<typeof NameWrapperAbi, "NameWrapped">>,
  ) {
    const settings = handlerSettings();
    const { fuses, expiry } = event.args;
    const id = domainId(event.args.node);
    const ownerId = await upsertAccount(context, event.args.owner);
    const { labelName, name } = decodeWrappedName(event.args.name, settings.labelMode);

    await updateDomainOwnership(context, id, (row) => ({
      wrappedOwnerId: ownerId,
      // The subgraph names the domain from the wrapper only while it has no labelName.
      ...(!row.labelName && labelName ? { labelName, name } : {}),
      ...raisedExpiry(row, fuses, expiry),
      ...wrapperOrderKeys(row, expiry),
    }));

    const wrapped = { domainId: id, expiryDate: expiry, fuses, ownerId, name };
    await context.db
      .insert(schema.wrappedDomain)
      .values({ id, ...wrapped })
      .onConflictDoUpdate(wrapped);
    await context.db.insert(schema.nameWrapped).values({
      ...eventFields(settings, context, event),
      domainId: id,
      name,
      fuses,
      ownerId,
      expiryDate: expiry,
    });
  }

  async function nameUnwrapped(
    context: IndexingContext,
    event: IndexedEvent<EventArgs<typeof NameWrapperAbi, "NameUnwrapped">>,
  ) {
    const settings = handlerSettings();
    const id = domainId(event.args.node);
    const ownerId = await upsertAccount(context, event.args.owner);
    // A wrapper-given expiry goes with the wrapper, except for the registrar's own names, whose expiry is theirs.
    await updateDomainOwnership(context, id, (row) => ({
      wrappedOwnerId: null,
      ...(row.expiryDate !== null && row.parentId !== managedNodeId ? { expiryDate: null } : {}),
      ...wrapperOrderKeys(row, null),
    }));
    await context.db.delete(schema.wrappedDomain, { id });
    await context.db
      .insert(schema.nameUnwrapped)
      .values({ ...eventFields(settings, context, event), domainId: id, ownerId });
  }

  async function fusesSet(context: IndexingContext, event: IndexedEvent<EventArgs<typeof NameWrapperAbi, "FusesSet">>) {
    const settings = handlerSettings();
    const id = domainId(event.args.node);
    const wrapped = await context.db.find(schema.wrappedDomain, { id });
    if (wrapped) {
      await context.db.update(schema.wrappedDomain, { id }).set({ fuses: event.args.fuses });
      if (parentCannotControl(event.args.fuses))
        await context.db
          .update(schema.domain, { id })
          .set((row) => raisedExpiry(row, event.args.fuses, wrapped.expiryDate));
    }
    await context.db
      .insert(schema.fusesSet)
      .values({ ...eventFields(settings, context, event), domainId: id, fuses: event.args.fuses });
  }

  async function expiryExtended(
    context: IndexingContext,
    event: IndexedEvent<EventArgs<typeof NameWrapperAbi, "ExpiryExtended">>,
  ) {
    const settings = handlerSettings();
    const id = domainId(event.args.node);
    const wrapped = await context.db.find(schema.wrappedDomain, { id });
    if (wrapped) {
      await context.db.update(schema.wrappedDomain, { id }).set({ expiryDate: event.args.expiry });
      await context.db.update(schema.domain, { id }).set((row) => ({
        ...raisedExpiry(row, wrapped.fuses, event.args.expiry),
        ...wrapperOrderKeys(row, event.args.expiry),
      }));
    }
    await context.db.insert(schema.expiryExtended).values({
      ...eventFields(settings, context, event),
      domainId: id,
      expiryDate: event.args.expiry,
    });
  }

  /** One ERC-1155 transfer: the mint precedes NameWrapped, so the WrappedDomain starts with placeholders. */
  async function wrappedTransfer(
    context: IndexingContext,
    event: IndexedEvent<unknown>,
    subIndex: number,
    tokenId: bigint,
    to: Address,
  ) {
    const settings = handlerSettings();
    const id = domainId(tokenIdToHex32(tokenId));
    const ownerId = await upsertAccount(context, to);
    const wrapped = await context.db
      .insert(schema.wrappedDomain)
      .values({ id, domainId: id, ownerId, expiryDate: 0n, fuses: 0 })
      .onConflictDoUpdate({ ownerId });
    await updateDomainOwnership(context, id, (row) => ({
      wrappedOwnerId: ownerId,
      ...wrapperOrderKeys(row, wrapped.expiryDate),
    }));
    await context.db.insert(schema.wrappedTransfer).values({
      ...eventFields(settings, context, event, subIndex),
      domainId: id,
      ownerId,
    });
  }

  async function transferSingle(
    context: IndexingContext,
    event: IndexedEvent<EventArgs<typeof NameWrapperAbi, "TransferSingle">>,
  ) {
    await wrappedTransfer(context, event, 0, event.args.id, event.args.to);
  }

  async function transferBatch(
    context: IndexingContext,
    event: IndexedEvent<EventArgs<typeof NameWrapperAbi, "TransferBatch">>,
  ) {
    for (const [i, tokenId] of event.args.ids.entries())
      await wrappedTransfer(context, event, i, tokenId, event.args.to);
  }

  return { nameWrapped, nameUnwrapped, fusesSet, expiryExtended, transferSingle, transferBatch };
}
