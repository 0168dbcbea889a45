import { PGlite } from "@electric-sql/pglite";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createConfig } from "ponder";
import { getConfig } from "./src/config";
import { composeChains, composeContracts } from "./src/plugins/compose";

const config = getConfig();

if (config.database.kind === "pglite") releaseClosedPglites();

export default createConfig({
  ordering: "omnichain",
  database:
    config.database.kind === "postgres"
      ? { kind: "postgres", connectionString: config.database.connectionString }
      : { kind: "pglite", directory: config.database.directory },
  chains: composeChains(config),
  contracts: composeContracts(config),
});

/**
 * `ponder start` opens PGlite twice: a throw-away instance for its "database diagnostic", closed at once, then the
 * one it indexes with. Each holds a ~256 MiB WebAssembly heap, and V8 does not count that as pressure on its own
 * heap, so the closed one stayed resident for the whole run (measured: external memory 520 MiB instead of 260,
 * about a third of the process's peak RSS). One full collection right after a PGlite closes returns it before the
 * next instance grows. Costs one GC (~0.1 s) per close; only PGlite runs do it.
 */
function releaseClosedPglites(): void {
  const proto = PGlite.prototype as PGlite & { nameindexReleases?: true };
  if (proto.nameindexReleases) return; // Ponder may evaluate this file more than once per process.
  proto.nameindexReleases = true;
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  const close = proto.close;
  proto.close = async function (this: PGlite) {
    await close.call(this);
    // After the caller has dropped its reference (it returns once close resolves).
    setImmediate(gc);
  };
}
