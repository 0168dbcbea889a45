import { readFileSync } from "node:fs";
import { type Address, namehash } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NameFacts } from "../../devnet/src/index";
import { labelhashOf } from "../../src/lib/labels";
import { startDevnetWithLabels, type DevnetWithLabels } from "../support/devnet-fixture";
import { startIndexer, waitFor, type RunningIndexer } from "../support/indexer-harness";

/*
 * The subgraph, basenames, lineanames and threedns plugins together on the devnet (PGlite): Basenames (chain 31338),
 * Lineanames (31339) and 3DNS (31338) names land in the same domain table as ENS, under the root chain's rows, with
 * the owners the scenario left onchain; the root chain's `eth` keeps its owner.
 */

const BASE = 31338;
const LINEA = 31339;
const ZERO = "0x0000000000000000000000000000000000000000";

type Domain = { id: string; name: string | null; labelName: string | null; owner: { id: string }; parent: { id: string } | null };

let env: DevnetWithLabels;
let indexer: RunningIndexer;
let names: NameFacts[];
let unhealable: Set<string>;
let ensRootBaseRegistrar: string;

async function subgraph<T>(query: string): Promise<T> {
  const res = await fetch(`${indexer.url}/subgraph`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query }),
  });
  const body = (await res.json()) as { data?: T; errors?: unknown };
  if (!res.ok || body.errors) throw new Error(`subgraph query failed (${res.status}): ${JSON.stringify(body.errors)}`);
  return body.data!;
}

const FIELDS = "id name labelName owner { id } parent { id }";

/** The index's name for a scenario name: each label plaintext, or `[labelhash]` when the label service lacks it. */
function acceptedNames(f: NameFacts): string[] {
  const encoded = f.labels.map((l) => (unhealable.has(l) ? `[${labelhashOf(l).slice(2)}]` : l)).join(".");
  return [...new Set([f.name, encoded])];
}

function expectMatches(domains: Domain[], expected: NameFacts[]) {
  expect(expected.length).toBeGreaterThan(0);
  const byId = new Map(domains.map((d) => [d.id, d]));
  for (const f of expected) {
    const d = byId.get(f.node.toLowerCase());
    expect(d, `${f.name} (${f.via}) is indexed`).toBeDefined();
    expect(acceptedNames(f), `${f.name} (${f.via}) name`).toContain(d!.name);
    expect(d!.owner.id, `${f.name} (${f.via}) owner`).toBe((f.registryOwner ?? ZERO).toLowerCase());
  }
  // Nothing else under the suffix: the query returns exactly the scenario's names.
  expect(domains.map((d) => d.id).sort()).toEqual(expected.map((f) => f.node.toLowerCase()).sort());
}

beforeAll(async () => {
  env = await startDevnetWithLabels({ seed: 11, names: 24 });
  const manifest = env.devnet.manifest;
  const scenario = manifest.scenario as { names: NameFacts[]; unhealableLabels: string[] };
  names = scenario.names;
  unhealable = new Set(scenario.unhealableLabels);
  ensRootBaseRegistrar = (manifest.datasources.ensroot!.contracts.BaseRegistrar!.address as Address).toLowerCase();
  indexer = await startIndexer({
    manifestPath: env.devnet.manifestPath,
    labelsServiceUrl: env.labelsUrl,
    plugins: ["subgraph", "basenames", "lineanames", "threedns"],
    // PGlite, the default: its API shares the indexer's one session, where Ponder's flush leaves temp tables named
    // like ours (src/api/pglite-safe-db.ts); this run proves /subgraph still reads the index there.
    database: "pglite",
  });
  try {
    await waitFor(async () => (await fetch(`${indexer.url}/ready`).catch(() => undefined))?.status === 200, 240_000, "/ready");
  } catch (error) {
    console.error(readFileSync(indexer.logFile, "utf8").split("\n").slice(-60).join("\n"));
    throw error;
  }
}, 400_000);

afterAll(async () => {
  await indexer?.stop();
  await env?.stop();
});

describe("basenames, lineanames and threedns in the subgraph tables", () => {
  it("indexes every Basenames name under base.eth with its owner", async () => {
    const { domains } = await subgraph<{ domains: Domain[] }>(
      `{ domains(first: 1000, where: { name_ends_with: ".base.eth" }) { ${FIELDS} } }`,
    );
    const expected = names.filter((f) => f.chainId === BASE && f.via !== "3dns" && f.name.endsWith(".base.eth"));
    expect(expected.some((f) => f.via === "basenames-premint")).toBe(true);
    expectMatches(domains, expected);
    // Preminted names are named too (healed at NameRegistered).
    for (const f of expected.filter((n) => n.via === "basenames-premint")) {
      expect(domains.find((d) => d.id === f.node.toLowerCase())!.labelName).toBe(f.labels[0]);
    }
  });

  it("indexes every Lineanames name under linea.eth with its owner", async () => {
    const { domains } = await subgraph<{ domains: Domain[] }>(
      `{ domains(first: 1000, where: { name_ends_with: ".linea.eth" }) { ${FIELDS} } }`,
    );
    expectMatches(domains, names.filter((f) => f.chainId === LINEA && f.name.endsWith(".linea.eth")));
  });

  it("indexes every 3DNS name under its TLD with its owner", async () => {
    const expected = names.filter((f) => f.via === "3dns");
    const tlds = [...new Set(expected.map((f) => f.labels[f.labels.length - 1]!))];
    const { domains } = await subgraph<{ domains: Domain[] }>(
      `{ domains(first: 1000, where: { parent_in: ${JSON.stringify(tlds.map((t) => namehash(t)))} }) { ${FIELDS} } }`,
    );
    expectMatches(domains, expected);
    const { tldDomains } = await subgraph<{ tldDomains: Domain[] }>(
      `{ tldDomains: domains(where: { id_in: ${JSON.stringify(tlds.map((t) => namehash(t)))} }) { ${FIELDS} } }`,
    );
    expect(tldDomains.map((d) => d.name).sort()).toEqual([...tlds].sort());
    for (const d of tldDomains) expect(d.parent?.id).toBe(namehash(""));
  });

  it("keeps the root chain's eth and hangs base.eth and linea.eth under it", async () => {
    const ids = ["eth", "base.eth", "linea.eth"].map((n) => namehash(n));
    const { domains } = await subgraph<{ domains: Domain[] }>(`{ domains(where: { id_in: ${JSON.stringify(ids)} }) { ${FIELDS} } }`);
    const byName = new Map(domains.map((d) => [d.name, d]));
    expect(byName.get("eth")?.owner.id).toBe(ensRootBaseRegistrar);
    expect(byName.get("base.eth")?.parent?.id).toBe(namehash("eth"));
    expect(byName.get("linea.eth")?.parent?.id).toBe(namehash("eth"));
  });

  it("answers one query with domains of all four sources", async () => {
    const pick = (p: (f: NameFacts) => boolean) => names.find((f) => p(f) && !f.deleted)!;
    const sample = [
      pick((f) => f.chainId !== BASE && f.chainId !== LINEA && f.name.endsWith(".eth") && f.labels.length === 2),
      pick((f) => f.chainId === BASE && f.via !== "3dns" && f.name.endsWith(".base.eth")),
      pick((f) => f.chainId === LINEA && f.name.endsWith(".linea.eth")),
      pick((f) => f.via === "3dns"),
    ];
    const { domains } = await subgraph<{ domains: Domain[] }>(
      `{ domains(where: { id_in: ${JSON.stringify(sample.map((f) => f.node.toLowerCase()))} }) { ${FIELDS} } }`,
    );
    expectMatches(domains, sample);
  });
});
