import type { Abi, AbiEvent, AbiParameter } from "viem";
import {
  REFERENCE_NAMES,
  type ReferenceNamespace,
  type TheirNamespace,
} from "../../harness/mainnet-chains/reference-datasources";
import type { DatasourceName, Namespace } from "../../src/namespaces/types";
import type { PluginDefinition } from "../../src/plugins/define";

/*
 * Where a namespace file of ours and @ensnode/datasources disagree. Pure: the caller loads both sides and decides
 * which differences are known and explained (rehearsal/test/namespaces-vs-reference.test.ts).
 */

/** A difference: `key` is stable (compared with allow-lists), `detail` says what each side holds. */
export interface Difference {
  key: string;
  detail: string;
}

/**
 * `Name(type indexed,…)` with tuple components spelled out: what decides whether a log decodes (topic 0 is the
 * keccak of the types; the indexed flags decide which values sit in topics). Parameter names do not matter.
 */
export function eventSignature(event: AbiEvent): string {
  const param = (p: AbiParameter): string => {
    const type =
      p.type.startsWith("tuple") && "components" in p
        ? `(${p.components.map(param).join(",")})${p.type.slice(5)}`
        : p.type;
    return "indexed" in p && p.indexed ? `${type} indexed` : type;
  };
  return `${event.name}(${event.inputs.map(param).join(",")})`;
}

const eventsOf = (abi: Abi) => abi.filter((item): item is AbiEvent => item.type === "event");

/** Chain, address and start block of every contract of ours that the reference also lists. */
export function placementDifferences(ours: Namespace, reference: ReferenceNamespace): Difference[] {
  const out: Difference[] = [];
  for (const [ds, datasource] of Object.entries(ours.datasources) as [
    DatasourceName,
    Namespace["datasources"][DatasourceName],
  ][]) {
    const ref = reference[ds];
    if (!datasource || !ref) continue;
    if (datasource.chain.id !== ref.chainId) {
      out.push({
        key: `${ds}: chain`,
        detail: `${ds}: ours on chain ${datasource.chain.id}, the reference's on ${ref.chainId}`,
      });
    }
    for (const [contract, c] of Object.entries(datasource.contracts)) {
      const r = ref.contracts[contract];
      if (!r) continue;
      const at = `${ds}/${contract} (theirs: ${r.source})`;
      const address = c.address?.toLowerCase();
      if (address !== r.address) {
        out.push({
          key: `${ds}/${contract}: address`,
          detail: `${at}: address ours ${address ?? "any"}, theirs ${r.address ?? "any"}`,
        });
      }
      if (c.startBlock !== r.startBlock) {
        out.push({
          key: `${ds}/${contract}: startBlock`,
          detail: `${at}: startBlock ours ${c.startBlock}, theirs ${r.startBlock}`,
        });
      }
    }
  }
  return out;
}

/** Our contracts the reference has no counterpart for, as `<datasource>/<contract>`. */
export function contractsOnlyOurs(ours: Namespace, reference: ReferenceNamespace): string[] {
  return Object.entries(ours.datasources).flatMap(([ds, datasource]) =>
    Object.keys(datasource?.contracts ?? {})
      .filter((contract) => !reference[ds as DatasourceName]?.contracts[contract])
      .map((contract) => `${ds}/${contract}`),
  );
}

/**
 * Every event a plugin's ABI declares for a contract of ours that the reference lists, which the reference's ABI of
 * that contract lacks with the same signature. One entry per contract and event, whichever plugins index it.
 */
export function eventDifferences(
  ours: Namespace,
  reference: ReferenceNamespace,
  plugins: PluginDefinition[],
): Difference[] {
  const found = new Map<string, { detail: string; plugins: string[] }>();
  for (const plugin of plugins) {
    for (const pc of plugin.contracts) {
      const ref = reference[pc.datasource]?.contracts[pc.contract];
      if (!ours.datasources[pc.datasource]?.contracts[pc.contract] || !ref) continue;
      const theirs = eventsOf(ref.abi).map(eventSignature);
      for (const sig of eventsOf(pc.abi).map(eventSignature)) {
        if (theirs.includes(sig)) continue;
        const key = `${pc.datasource}/${pc.contract}: ${sig}`;
        const sameName = theirs.filter((s) => s.startsWith(`${sig.slice(0, sig.indexOf("("))}(`));
        const entry = found.get(key) ?? {
          detail: `${key} is not in the reference's ABI of ${ref.source} (its events of that name: ${sameName.join(" | ") || "none"})`,
          plugins: [],
        };
        entry.plugins.push(`${plugin.name}/${pc.name}`);
        found.set(key, entry);
      }
    }
  }
  return [...found].map(([key, { detail, plugins: by }]) => ({
    key,
    detail: `${detail}; indexed by ${by.join(", ")}`,
  }));
}

/** The reference's contracts that stand for none of ours, as `<their datasource>/<their contract>`. */
export function referenceOmissions(ours: Namespace, theirs: TheirNamespace): string[] {
  const covered = new Set<string>();
  for (const [ds, contracts] of Object.entries(REFERENCE_NAMES) as [DatasourceName, Record<string, string>][]) {
    for (const [contract, source] of Object.entries(contracts)) {
      if (ours.datasources[ds]?.contracts[contract]) covered.add(source);
    }
  }
  return Object.entries(theirs)
    .flatMap(([ds, datasource]) => Object.keys(datasource.contracts).map((contract) => `${ds}/${contract}`))
    .filter((name) => !covered.has(name));
}

/**
 * The datasource of ours whose any-address Resolver sees the reference contract `name`'s logs (same chain, started
 * no later), if one does: a resolver we leave unlisted still has its records indexed.
 */
export function anyAddressResolverFor(
  ours: Namespace,
  theirs: TheirNamespace,
  name: string,
): DatasourceName | undefined {
  const [ds, contract] = name.split("/");
  const datasource = theirs[ds!];
  const c = datasource?.contracts[contract!];
  if (!datasource || !c) return undefined;
  const sees = (d: Namespace["datasources"][DatasourceName]) => {
    const resolver = d?.contracts.Resolver;
    return (
      d?.chain.id === datasource.chain.id &&
      resolver !== undefined &&
      !resolver.address &&
      resolver.startBlock <= c.startBlock
    );
  };
  return (Object.keys(ours.datasources) as DatasourceName[]).find((ds) => sees(ours.datasources[ds]));
}
