import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * The sources whose contents decide what the handlers write: everything under src/ except the API (which only reads),
 * the schema and the ABIs. Ponder's own build id hashes the text of ponder.schema.ts and of each file under src/
 * outside src/api/ (.ts, .mts, .js, .mjs), not what they import from elsewhere: the ABIs under abis/ and the JSON
 * under src/ (src/namespaces/datasources.json). This digest covers those too and rides in the build record, which
 * names the change when it refuses a restart.
 */
const INDEXING_SOURCES = ["src", "abis", "ponder.schema.ts"];
const EXCLUDED = [join("src", "api")];

export function indexingCodeDigest(root = projectRoot): string {
  const hash = createHash("sha256");
  for (const file of INDEXING_SOURCES.flatMap((entry) => sourceFiles(root, join(root, entry))).sort()) {
    hash.update(relative(root, file)).update("\0").update(readFileSync(file)).update("\0");
  }
  return hash.digest("hex");
}

function sourceFiles(root: string, path: string): string[] {
  if (/\.(ts|mts|js|mjs|json)$/.test(path)) return [path];
  let entries;
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const full = join(path, entry.name);
    if (entry.isDirectory()) return EXCLUDED.includes(relative(root, full)) ? [] : sourceFiles(root, full);
    return /\.(ts|mts|js|mjs|json)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
  });
}
