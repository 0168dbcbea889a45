import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/*
 * The operator's PGLITE_DIRECTORY under a devnet. A new devnet has the chain ids (and often the addresses) of the last
 * one with other contents, so a devnet index there must be removed rather than resumed. Only an index `npm start`
 * itself put there for a devnet is removed: the directories it used are recorded in the state directory, and any
 * other non-empty directory (a mainnet index named by a .env left over, say) is refused, never deleted.
 */

const RECORD = "devnet-pglite-directories.json";

function recorded(stateDir: string): string[] {
  const path = join(stateDir, ".ponder", RECORD);
  if (!existsSync(path)) return [];
  try {
    const list = JSON.parse(readFileSync(path, "utf8")) as unknown;
    return Array.isArray(list) ? list.filter((d): d is string => typeof d === "string") : [];
  } catch {
    return [];
  }
}

function record(stateDir: string, dir: string): void {
  const path = join(stateDir, ".ponder", RECORD);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify([...new Set([...recorded(stateDir), dir])], null, 2)}\n`);
}

/** The directory to index a devnet into; `log` says when an earlier devnet's index there is removed. */
export function devnetPgliteDirectory(options: {
  directory: string;
  stateDir: string;
  freshDevnet: boolean;
  log: (line: string) => void;
}): string {
  const dir = resolve(options.directory);
  const isEmpty = !existsSync(dir) || readdirSync(dir).length === 0;
  const ours = recorded(options.stateDir).includes(dir);
  if (!isEmpty && options.freshDevnet) {
    if (!ours) {
      throw new Error(
        `PGLITE_DIRECTORY ${dir} is not empty, and npm start did not put a devnet index there: a new devnet needs an empty or new directory (nothing was removed)`,
      );
    }
    options.log(`a new devnet: removing the previous devnet's index in PGLITE_DIRECTORY ${dir}`);
    rmSync(dir, { recursive: true, force: true });
  }
  // Only a directory this devnet's index starts in (or one already ours) may be removed by a later new devnet.
  if (isEmpty || ours) record(options.stateDir, dir);
  return dir;
}
