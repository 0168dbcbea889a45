/*
 * The pure rules of the ENSv2 tree (docs/ensv2.md, "Canonical names"): which link of a registry is canonical and
 * how a name is joined. The store-walking code that applies them is in canonical.ts.
 */

/** The longest chain of registries followed upwards from one registry to the root; deeper counts as unreachable. */
export const MAX_TREE_DEPTH = 256;

/** A domain that currently links a registry as its subregistry. */
export interface RegistryLink {
  domainId: string;
  /** Address of the registry that holds the linking domain (lowercase). */
  registry: string;
  labelhash: string;
}

/** What the registry itself says about its parent (ParentUpdated): the parent registry and the label's hash there. */
export interface DeclaredParent {
  registry: string;
  labelhash: string;
}

/**
 * The canonical link of a registry: the link its own ParentUpdated names, when that domain does link it; else the
 * oldest current link (links are kept in the order they were made, by block and log index); none when unlinked.
 */
export function canonicalLink(
  links: readonly RegistryLink[],
  declared: DeclaredParent | null,
): RegistryLink | undefined {
  const named = declared
    ? links.find(
        (l) => l.registry === declared.registry.toLowerCase() && l.labelhash === declared.labelhash.toLowerCase(),
      )
    : undefined;
  return named ?? links[0];
}

/** The name of a label in a registry whose names hang under `registryName` ("" for the root registry). */
export function joinLabel(label: string, registryName: string | null): string | null {
  if (registryName === null) return null;
  return registryName === "" ? label : `${label}.${registryName}`;
}

/** `links` with `domainId` last (linked now); without it (`unlinked`). */
export function withLink(links: readonly string[], domainId: string): string[] {
  return [...withoutLink(links, domainId), domainId];
}

export function withoutLink(links: readonly string[], domainId: string): string[] {
  return links.filter((id) => id !== domainId);
}
