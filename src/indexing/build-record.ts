import { createHash } from "node:crypto";
import type { AppConfig } from "../config";
import { NAMEINDEX_VERSION, packageVersion } from "../lib/versions";

/**
 * Everything that decides which rows the indexer writes for a given chain history. Ponder resumes an index only when
 * its build id is unchanged, and Ponder 0.16 derives that id from the contracts, the schema file and the indexing
 * files; settings read at run time (SUBGRAPH_COMPAT, the label-set pin, …) never reach it. This record does: its
 * digest rides on every contract of the composed config (ponder.config.ts), and it is stored beside the index so
 * that a restart with other settings is refused with the setting named (build-record-store.ts).
 *
 * It also names the releases that created the index (`versions`), so that a refusal after an upgrade says which
 * release wrote the index and which one is refusing it. Of the versions, Ponder's decides too: the same indexing code
 * has written other rows on another Ponder (docs/maintainers.md), so an index resumes only on the Ponder that wrote
 * it. nameindex's own version decides nothing (the code digest does), and the record's id leaves both out, so that
 * Ponder's build id stays what nameindex 0.1.0 computed for the same settings and code.
 */
export interface BuildRecord {
  namespace: string;
  plugins: string[];
  subgraphCompat: boolean;
  labelSet: string;
  tokenscopeSales: boolean;
  resolverReads: boolean;
  /** The entity history kept: `all`, `none`, or the last N blocks (the indexer prunes older versions). */
  subgraphHistory: "all" | "none" | number;
  noopHandlers: boolean | "log";
  /** Chain id → END_BLOCK_<chainId>. */
  endBlocks: Record<string, number>;
  /** Digest of the namespace's datasources: chains, addresses and start blocks of every contract it knows. */
  contracts: string;
  /** Digest of the indexing code (code-digest.ts): another nameindex version may write other rows. */
  code: string;
  /** The releases that created the index; absent from a record written by nameindex 0.1.0, which had none. */
  versions: BuildVersions;
}

export interface BuildVersions {
  /** package.json's `version`. */
  nameindex: string;
  /** The installed Ponder (its package.json), the one that runs. */
  ponder: string;
}

/** The fields that decide whether an index resumes. */
type BuildSetting = Exclude<keyof BuildRecord, "versions">;

/** How an operator changes each field, for the message that refuses a restart. */
export const BUILD_RECORD_SETTINGS: Record<BuildSetting, string> = {
  namespace: "NAMESPACE",
  plugins: "PLUGINS",
  subgraphCompat: "SUBGRAPH_COMPAT",
  labelSet: "LABEL_SET_ID/LABEL_SET_VERSION",
  tokenscopeSales: "TOKENSCOPE_SALES",
  resolverReads: "RESOLVER_READS",
  subgraphHistory: "SUBGRAPH_HISTORY_BLOCKS",
  noopHandlers: "NAMEINDEX_NOOP_HANDLERS",
  endBlocks: "END_BLOCK_<chainId>",
  contracts:
    "the namespace's contracts (DEVNET_MANIFEST, NAMESPACE_DATASOURCES_FILE, or the namespace's addresses and start blocks)",
  code: "the indexing code (src/ outside src/api/, abis/, ponder.schema.ts)",
};

/** This process's versions: this release and the Ponder it runs. */
export function runningVersions(): BuildVersions {
  return { nameindex: NAMEINDEX_VERSION, ponder: packageVersion("ponder") };
}

export function buildRecordOf(
  config: AppConfig,
  codeDigest: string,
  versions: BuildVersions = runningVersions(),
): BuildRecord {
  return {
    namespace: config.namespace.name,
    plugins: [...config.plugins],
    subgraphCompat: config.isSubgraphCompatible,
    labelSet: `${config.labelSet.labelSetId}@${config.labelSet.labelSetVersion}`,
    tokenscopeSales: config.tokenscopeSales,
    resolverReads: config.resolverReads,
    subgraphHistory: historySetting(config.subgraphHistoryBlocks),
    noopHandlers: config.noopHandlers,
    endBlocks: Object.fromEntries(
      [...config.endBlocks].sort(([a], [b]) => a - b).map(([id, block]) => [String(id), block]),
    ),
    contracts: digestOf(config.namespace.datasources),
    code: codeDigest,
    versions,
  };
}

function historySetting(blocks: number | null): BuildRecord["subgraphHistory"] {
  if (blocks === null) return "all";
  return blocks === 0 ? "none" : blocks;
}

/**
 * A short stable id of the record (the value Ponder's build id hashes). The versions are left out, so the id of a
 * record is the one nameindex 0.1.0 computed for the same settings and code: Ponder's build id then stays too.
 */
export function buildRecordId(record: BuildRecord): string {
  return digestOf({ ...record, versions: undefined }).slice(0, 16);
}

/**
 * The settings whose values differ, each as "SETTING was X, now Y". The versions are not settings. A setting newer
 * than the stored record (absent from it) is not named: the record was written by other indexing code, which the
 * code digest names already.
 */
export function describeChanges(stored: Partial<BuildRecord>, current: BuildRecord): string[] {
  const changes: string[] = [];
  for (const key of Object.keys(BUILD_RECORD_SETTINGS) as BuildSetting[]) {
    if (!(key in stored) && stored.code !== current.code) continue;
    const before = JSON.stringify(stored[key] ?? null);
    const now = JSON.stringify(current[key]);
    if (before === now) continue;
    const digestOnly = key === "contracts" || key === "code";
    changes.push(
      digestOnly
        ? `${BUILD_RECORD_SETTINGS[key]} changed`
        : `${BUILD_RECORD_SETTINGS[key]} was ${show(stored[key])}, now ${show(current[key])}`,
    );
  }
  return changes;
}

/** The Ponder that wrote the index, where it is not the running one. A record without versions: 0.16.10 or earlier. */
export function otherPonder(stored: Partial<BuildRecord>, current: BuildRecord): string | undefined {
  const written = stored.versions?.ponder ?? "0.16.10 or earlier";
  return written === current.versions.ponder ? undefined : written;
}

/**
 * "nameindex 0.2.0 (Ponder 0.17.7)". A stored record without versions was written by nameindex 0.1.0, the release
 * before they were recorded, or by a build of the code before it (all ran Ponder 0.16.10 or an earlier 0.16).
 */
export function describeVersions(versions: Partial<BuildVersions> | undefined): string {
  if (!versions?.nameindex) return "nameindex 0.1.0 or earlier (Ponder 0.16.10 or earlier)";
  return `nameindex ${versions.nameindex} (Ponder ${versions.ponder ?? "unknown"})`;
}

function show(value: unknown): string {
  if (value === undefined || value === null) return "not recorded";
  if (Array.isArray(value)) return value.join(",") || "none";
  if (typeof value === "object") {
    const entries = Object.entries(value);
    return entries.length === 0 ? "none" : entries.map(([k, v]) => `${k}=${String(v)}`).join(",");
  }
  return String(value);
}

/** sha256 of a JSON value with object keys sorted, bigints as strings (ABIs and addresses are plain JSON). */
function digestOf(value: unknown): string {
  return createHash("sha256").update(stableJson(value)).digest("hex");
}

function stableJson(value: unknown): string {
  if (typeof value === "bigint") return JSON.stringify(value.toString());
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
