import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EnhancedAccessControlABI, ETHRegistrarABI, RegistryABI, ResolverABI } from "@ensnode/datasources";
import { type Abi, type AbiEvent, toEventSelector } from "viem";
import { describe, expect, it } from "vitest";
import {
  Ensv2EthRegistrarAbi,
  Ensv2EthRegistrarIndexedReferrerAbi,
  Ensv2RegistryAbi,
  Ensv2RegistryTransfersAbi,
  RootResolverAbi,
} from "../../abis";
import { devnetAbis } from "../src/contracts";
import { repoRoot } from "../src/paths";

/*
 * Every ENSv2 event the indexer handles, as our devnet contracts emit it, against @ensnode/datasources' ENSv2 ABIs
 * (the peer's published list of the deployed contracts' events): the same topic hash and the same `indexed` flags, or
 * the difference is listed with its reason in docs/ensv2.md ("Events against @ensnode/datasources").
 */

const events = (abi: Abi) => abi.filter((x): x is AbiEvent => x.type === "event");
const flags = (e: AbiEvent) => e.inputs.map((i) => (i.indexed ? "indexed" : "-")).join(",");
const signature = (e: AbiEvent) =>
  `${e.name}(${e.inputs.map((i) => `${i.type}${i.indexed ? " indexed" : ""}`).join(",")})`;

/**
 * Our contract → the indexer's ABI that handles its events → the package's ABI for the same contract. The registrar
 * comes in two builds whose price events share their topic hashes; the indexer decodes each in its own layout
 * (src/plugins/ensv2/lib/registrar-events.ts).
 */
const CONTRACTS: { ours: string; indexer: Abi; reference: Abi; referenceName: string }[] = [
  { ours: "PermissionedRegistry", indexer: Ensv2RegistryAbi, reference: RegistryABI as Abi, referenceName: "Registry" },
  { ours: "UserRegistry", indexer: Ensv2RegistryAbi, reference: RegistryABI as Abi, referenceName: "Registry" },
  { ours: "WrapperRegistry", indexer: Ensv2RegistryAbi, reference: RegistryABI as Abi, referenceName: "Registry" },
  // No registry: its transfers must be the registries' very signatures for a test to show they are not fetched.
  {
    ours: "DevnetERC1155Traffic",
    indexer: Ensv2RegistryTransfersAbi,
    reference: RegistryABI as Abi,
    referenceName: "Registry",
  },
  {
    ours: "ETHRegistrar",
    indexer: [...Ensv2EthRegistrarAbi, ...events(Ensv2RegistryAbi).filter((e) => e.name === "EACRolesChanged")],
    reference: [...(ETHRegistrarABI as Abi), ...(EnhancedAccessControlABI as Abi)],
    referenceName: "ETHRegistrar",
  },
  {
    ours: "ETHRegistrarIndexedReferrer",
    indexer: [
      ...Ensv2EthRegistrarIndexedReferrerAbi,
      ...events(Ensv2RegistryAbi).filter((e) => e.name === "EACRolesChanged"),
    ],
    reference: [...(ETHRegistrarABI as Abi), ...(EnhancedAccessControlABI as Abi)],
    referenceName: "ETHRegistrar",
  },
  {
    ours: "PermissionedResolver",
    indexer: [...RootResolverAbi, ...events(Ensv2RegistryAbi).filter((e) => e.name === "EACRolesChanged")],
    reference: [...(ResolverABI as Abi), ...(EnhancedAccessControlABI as Abi)],
    referenceName: "Resolver",
  },
];

/** The rows of docs/ensv2.md's table of known differences: `| Contract | Event | … |`. */
function listedDifferences(): Set<string> {
  const doc = readFileSync(join(repoRoot, "docs", "ensv2.md"), "utf8");
  const section = doc.split("## Events against @ensnode/datasources")[1]?.split("\n## ")[0];
  if (!section) throw new Error('docs/ensv2.md has no section "## Events against @ensnode/datasources"');
  const rows = section
    .split("\n")
    .filter((l) => /^\| `/.test(l))
    .map((l) => l.split("|").map((c) => c.trim().replace(/`/g, "")))
    .map((cells) => `${cells[1]}.${cells[2]}`);
  return new Set(rows);
}

describe("ENSv2 events: our contracts against @ensnode/datasources", () => {
  it("every event the indexer handles has the real topic hash and indexed flags, or is listed in docs/ensv2.md", () => {
    const abis = devnetAbis() as Record<string, Abi>;
    const listed = listedDifferences();
    let equal = 0;
    const differing: string[] = [];
    const seen = new Set<string>();
    for (const c of CONTRACTS) {
      const ours = events(abis[c.ours]!);
      const handled = new Set(events(c.indexer).map(toEventSelector));
      for (const e of ours.filter((x) => handled.has(toEventSelector(x)))) {
        // The indexer decodes with its own ABI: it must match what our contract emits, flags included.
        const indexerEvent = events(c.indexer).find((x) => toEventSelector(x) === toEventSelector(e))!;
        expect(flags(indexerEvent), `${c.ours}.${e.name}: abis/ensv2.ts and the contract`).toBe(flags(e));
        const key = `${c.ours}.${e.name}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const same = events(c.reference).some(
          (r) => toEventSelector(r) === toEventSelector(e) && flags(r) === flags(e),
        );
        if (same) equal++;
        else
          differing.push(
            `${key}: ours ${signature(e)}; ${c.referenceName} has ${
              events(c.reference)
                .filter((r) => r.name === e.name)
                .map(signature)
                .join(" / ") || "none"
            }`,
          );
      }
    }
    const unlisted = differing.filter((d) => !listed.has(d.split(":")[0]!));
    expect(unlisted, "differences docs/ensv2.md does not list").toEqual([]);
    const stale = [...listed].filter((k) => !differing.some((d) => d.startsWith(`${k}:`)));
    expect(stale, "docs/ensv2.md lists differences that no longer differ").toEqual([]);
    // The registries' and registrar's core events must all be there.
    for (const name of ["LabelRegistered", "LabelReserved", "TokenRegenerated", "EACRolesChanged", "TransferBatch"]) {
      expect(seen.has(`PermissionedRegistry.${name}`), name).toBe(true);
    }
    for (const build of ["ETHRegistrar", "ETHRegistrarIndexedReferrer"]) {
      for (const name of ["NameRegistered", "NameRenewed"]) expect(seen.has(`${build}.${name}`), build).toBe(true);
    }
    console.log(`ensv2 events: ${equal} equal to @ensnode/datasources, ${differing.length} listed`);
    for (const d of differing) console.log(`  listed: ${d}`);
  });
});
