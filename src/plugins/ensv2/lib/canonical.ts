import * as schema from "ponder:schema";
import type { Address } from "viem";
import { registryId } from "../../../lib/ensv2-ids";
import { labelhashOf } from "../../../lib/labels";
import { pointV2Domain } from "../../shared/name-references";
import type { IndexingContext } from "./context";
import { type DomainRow, labelInName, naming } from "./domains";
import { ensureRegistry } from "./registries";
import { canonicalLink, joinLabel, MAX_TREE_DEPTH, type RegistryLink, withLink, withoutLink } from "./tree";

/*
 * Keeps every registry's canonical link and name, and its domains' names, current as links change (docs/ensv2.md,
 * "Canonical names"). Every walk is iterative and bounded: upwards by MAX_TREE_DEPTH and a set of seen registries,
 * downwards by a set of visited registries (each visited once), so a cycle of registries ends the walk.
 */

/**
 * Points `domain` at `subregistry` (null: none): the old subregistry loses the link and the new one gains it, and
 * both get their canonical place recomputed.
 */
export async function linkSubregistry(
  context: IndexingContext,
  domain: DomainRow,
  subregistry: Address | null,
  block: bigint,
): Promise<void> {
  const previous = domain.subregistry;
  // The same link again is no new link: it keeps its age.
  if (previous === subregistry) return;
  await context.db.update(schema.ensv2Domain, { id: domain.id }).set({ subregistry, updatedAt: block });
  if (previous) {
    const old = await ensureRegistry(context, previous, block);
    await context.db
      .update(schema.ensv2Registry, { id: old.id })
      .set({ linkedBy: withoutLink(old.linkedBy, domain.id) });
    await refreshRegistry(context, old.id);
  }
  if (subregistry) {
    const next = await ensureRegistry(context, subregistry, block);
    await context.db
      .update(schema.ensv2Registry, { id: next.id })
      .set({ linkedBy: withLink(next.linkedBy, domain.id) });
    await refreshRegistry(context, next.id);
  }
}

/** After the registry's own ParentUpdated: the declared parent may pick another of its links. */
export async function declareParent(
  context: IndexingContext,
  registry: Address,
  parent: Address,
  label: string,
  block: bigint,
): Promise<void> {
  const row = await ensureRegistry(context, registry, block);
  await context.db
    .update(schema.ensv2Registry, { id: row.id })
    .set({ declaredParent: parent.toLowerCase() as Address, declaredLabel: label });
  await refreshRegistry(context, row.id);
}

/** Recomputes a registry's canonical link and name; when either changed, renames everything below it. */
export async function refreshRegistry(context: IndexingContext, id: string): Promise<void> {
  const registry = await context.db.find(schema.ensv2Registry, { id });
  if (!registry || registry.isRoot) return;
  const links: RegistryLink[] = [];
  for (const domainId of registry.linkedBy) {
    const d = await context.db.find(schema.ensv2Domain, { id: domainId });
    if (d) links.push({ domainId: d.id, registry: d.registry, labelhash: d.labelhash });
  }
  const declared =
    registry.declaredParent && registry.declaredLabel !== null
      ? { registry: registry.declaredParent, labelhash: labelhashOf(registry.declaredLabel) }
      : null;
  const canonicalDomainId = canonicalLink(links, declared)?.domainId ?? null;
  const name = await nameThrough(context, registry.id, canonicalDomainId);
  if (canonicalDomainId === registry.canonicalDomainId && name === registry.canonicalName) return;
  await context.db.update(schema.ensv2Registry, { id }).set({ canonicalDomainId });
  await renameBelow(context, id, name);
}

/**
 * The name of the domain `domainId` when following canonical links upwards reaches the root registry; null when the
 * walk meets a dead end, a registry twice (a cycle, `start` included) or MAX_TREE_DEPTH.
 */
async function nameThrough(context: IndexingContext, start: string, domainId: string | null): Promise<string | null> {
  const seen = new Set([start]);
  const labels: string[] = [];
  let current = domainId;
  for (let depth = 0; current !== null && depth < MAX_TREE_DEPTH; depth++) {
    const domain = await context.db.find(schema.ensv2Domain, { id: current });
    if (!domain || seen.has(domain.registryId)) return null;
    seen.add(domain.registryId);
    labels.push(labelInName(domain));
    const registry = await context.db.find(schema.ensv2Registry, { id: domain.registryId });
    if (!registry) return null;
    if (registry.isRoot) return labels.join(".");
    current = registry.canonicalDomainId;
  }
  return null;
}

/** Labels in a name; normalized labels hold no dot, and others are spelled `[labelhash]`. */
const labelCount = (name: string): number => (name === "" ? 0 : name.split(".").length);

/**
 * Gives registry `id` the name `name` and renames its domains, then does the same for each registry whose canonical
 * link is one of those domains: breadth first, each registry once.
 */
async function renameBelow(context: IndexingContext, id: string, name: string | null): Promise<void> {
  const queue: { id: string; name: string | null }[] = [{ id, name }];
  const visited = new Set<string>();
  for (let next = queue.shift(); next; next = queue.shift()) {
    if (visited.has(next.id)) continue;
    visited.add(next.id);
    const registry = await context.db.find(schema.ensv2Registry, { id: next.id });
    if (!registry) continue;
    if (registry.canonicalName !== next.name)
      await context.db.update(schema.ensv2Registry, { id: next.id }).set({ canonicalName: next.name });
    // A name of more than MAX_TREE_DEPTH labels is as unreachable as the walk upwards finds it.
    const tooDeep = next.name !== null && labelCount(next.name) >= MAX_TREE_DEPTH;
    for (let domainId = registry.firstDomainId; domainId; ) {
      const domain = await context.db.find(schema.ensv2Domain, { id: domainId });
      if (!domain) break;
      const domainName = tooDeep ? null : joinLabel(labelInName(domain), next.name);
      if (domain.name !== domainName) {
        await context.db.update(schema.ensv2Domain, { id: domain.id }).set(naming(domainName));
        await pointV2Domain(context, domain.id); // its records are keyed by the new node
      }
      if (domain.subregistry) {
        const child = await context.db.find(schema.ensv2Registry, {
          id: registryId(domain.chainId, domain.subregistry),
        });
        if (child && !child.isRoot && child.canonicalDomainId === domain.id)
          queue.push({ id: child.id, name: domainName });
      }
      domainId = domain.nextInRegistry;
    }
  }
}
