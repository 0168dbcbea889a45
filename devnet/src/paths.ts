import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Repository root, so caches and logs land in the same place whichever directory the tool runs from. */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const devnetDir = join(repoRoot, "devnet");
export const cacheDir = join(repoRoot, ".cache");
export const runDir = join(repoRoot, ".devnet");
