import { hex32 } from "../../../lib/ensv2-ids";
import { pointV2Domain } from "../../shared/name-references";
import { isIndexed, on } from "../../shared/register";
import { declareParent } from "../lib/canonical";
import { emitter } from "../lib/context";
import { recordEvent } from "../lib/events";
import {
  labelRegisteredOrReserved,
  labelUnregistered,
  resolverValue,
  setOnDomain,
  subregistryUpdated,
  tokenIdValues,
} from "../lib/lifecycle";
import { rolesChanged } from "../lib/permissions";
import { subregistryNamed } from "../lib/transfers";

/**
 * Every ENSv2 registry's own events (PermissionedRegistry, UserRegistry, WrapperRegistry), matched at any address;
 * their ERC-1155 transfers come through RegistryTransfers.ts. Each event updates the tree, then joins ensv2_event.
 * EACRolesChanged arrives here from every access-controlled contract (resolvers and the registrar too): one contract
 * matching the event at any address receives each log once.
 */
export function register(): void {
  const C = "ensv2/Registry";
  if (!isIndexed(C)) return;

  on(`${C}:LabelRegistered`, async (context, event) => {
    const domainId = await labelRegisteredOrReserved(context, event);
    await pointV2Domain(context, domainId); // a (re-)registration resets the resolver
    await recordEvent(context, event, "LabelRegistered", domainId);
  });
  on(`${C}:LabelReserved`, async (context, event) => {
    const domainId = await labelRegisteredOrReserved(context, event);
    await pointV2Domain(context, domainId);
    await recordEvent(context, event, "LabelReserved", domainId);
  });
  on(`${C}:LabelUnregistered`, async (context, event) => {
    await recordEvent(context, event, "LabelUnregistered", await labelUnregistered(context, event));
  });
  on(`${C}:ExpiryUpdated`, async (context, event) => {
    const domainId = await setOnDomain(context, event, event.args.tokenId, { expiry: event.args.newExpiry });
    await recordEvent(context, event, "ExpiryUpdated", domainId);
  });
  on(`${C}:SubregistryUpdated`, async (context, event) => {
    // The named registry's earlier transfers first: they came before the link.
    await subregistryNamed(context, event);
    await recordEvent(context, event, "SubregistryUpdated", await subregistryUpdated(context, event));
  });
  on(`${C}:ResolverUpdated`, async (context, event) => {
    const domainId = await setOnDomain(context, event, event.args.tokenId, resolverValue(event.args.resolver));
    await pointV2Domain(context, domainId);
    await recordEvent(context, event, "ResolverUpdated", domainId);
  });
  on(`${C}:TokenRegenerated`, async (context, event) => {
    const domainId = await setOnDomain(context, event, event.args.newTokenId, tokenIdValues(event.args.newTokenId));
    await recordEvent(context, event, "TokenRegenerated", domainId);
  });
  on(`${C}:TokenResource`, async (context, event) => {
    const domainId = await setOnDomain(context, event, event.args.tokenId, { resource: hex32(event.args.resource) });
    await recordEvent(context, event, "TokenResource", domainId);
  });
  on(`${C}:ParentUpdated`, async (context, event) => {
    await declareParent(context, emitter(event), event.args.parent, event.args.label, event.block.number);
    await recordEvent(context, event, "ParentUpdated");
  });
  on(`${C}:EACRolesChanged`, async (context, event) => {
    await recordEvent(context, event, "EACRolesChanged", await rolesChanged(context, event));
  });
}
