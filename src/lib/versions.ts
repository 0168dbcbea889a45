import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

/** This release of nameindex (package.json's `version`), read at run time like the packages beside it. */
export const NAMEINDEX_VERSION = (
  JSON.parse(readFileSync(resolve(here, "../../package.json"), "utf8")) as { version: string }
).version;

/**
 * An installed package's version, looked up as Node resolves packages (some do not export their package.json), so
 * it is the version that runs, not the one package.json asks for.
 */
export function packageVersion(name: string): string {
  let dir = here;
  for (;;) {
    try {
      return (JSON.parse(readFileSync(join(dir, "node_modules", name, "package.json"), "utf8")) as { version: string })
        .version;
    } catch {
      // Not installed at this level; keep walking up.
    }
    const parent = dirname(dir);
    if (parent === dir) return "unknown";
    dir = parent;
  }
}
