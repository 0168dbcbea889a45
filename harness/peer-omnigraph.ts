import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/*
 * The peer's (ENSNode's) published Omnigraph, read where it lives: `../shared/peer/omnigraph/` beside the project's
 * root (its README and SOURCE say which commit), or `PEER_OMNIGRAPH_DIR`. It is their data, never copied into this
 * repository; a test that needs it skips, naming the folder, when the folder is absent.
 */

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** Where the peer's `schema.graphql`, `examples.json` and `responses.json` are read from. */
export const PEER_OMNIGRAPH_DIR = resolve(
  projectRoot,
  process.env.PEER_OMNIGRAPH_DIR || join("..", "shared", "peer", "omnigraph"),
);

const FILES = ["schema.graphql", "examples.json"] as const;

/** True when both files are there; the tests that need them skip otherwise. */
export const peerOmnigraphPresent = FILES.every((f) => existsSync(join(PEER_OMNIGRAPH_DIR, f)));

/** One query of the peer's published cookbook (`examples.json`). */
export interface CookbookQuery {
  id: string;
  query: string;
  variables: Record<string, unknown>;
}

/**
 * Whether to skip `what` (for `describe.skipIf`/`it.skipIf`): true when the peer's folder is absent, and then it
 * says so on the console, naming the folder.
 */
export function skipWithoutPeerOmnigraph(what: string): boolean {
  if (peerOmnigraphPresent) return false;
  console.warn(
    `[peer-omnigraph] skipped ${what}: ${PEER_OMNIGRAPH_DIR} (../shared/peer/omnigraph/ from the project root, or ` +
      `PEER_OMNIGRAPH_DIR) has no ${FILES.join(" and ")}; the peer's published Omnigraph schema and cookbook are read ` +
      `from there, never copied into the repository`,
  );
  return true;
}

function read(file: (typeof FILES)[number]): string {
  return readFileSync(join(PEER_OMNIGRAPH_DIR, file), "utf8");
}

/** The peer's published SDL (`schema.graphql`). */
export function peerSchemaSdl(): string {
  return read("schema.graphql");
}

let cookbook: CookbookQuery[] | undefined;

/** The peer's cookbook (`examples.json`: `[{ id, query, variables }]`), checked for that shape; [] when absent. */
export function peerCookbook(): CookbookQuery[] {
  if (!peerOmnigraphPresent) return [];
  if (cookbook) return cookbook;
  const parsed: unknown = JSON.parse(read("examples.json"));
  if (!Array.isArray(parsed)) throw new Error(`${PEER_OMNIGRAPH_DIR}/examples.json: expected an array of examples`);
  cookbook = parsed.map((e, i) => {
    const { id, query, variables } = (e ?? {}) as Partial<CookbookQuery>;
    if (typeof id !== "string" || typeof query !== "string" || (variables != null && typeof variables !== "object")) {
      throw new Error(`${PEER_OMNIGRAPH_DIR}/examples.json[${i}]: expected { id, query, variables }`);
    }
    return { id, query, variables: variables ?? {} };
  });
  return cookbook;
}

/** The peer's recorded answers to its cookbook on mainnet (`responses.json`: id → `{ data }`); shapes, not values. */
export function peerCookbookResponses(): Record<string, { data?: unknown }> {
  const file = join(PEER_OMNIGRAPH_DIR, "responses.json");
  if (!existsSync(file)) throw new Error(`${file} is absent: the peer's recorded cookbook answers are read from there`);
  const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new Error(`${file}: expected an object of answers by cookbook id`);
  }
  return parsed as Record<string, { data?: unknown }>;
}
