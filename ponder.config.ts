import { createConfig } from "ponder";
import { getConfig } from "./src/config";
import { applyPgliteSettings } from "./src/lib/pglite-settings";
import { seedPgliteDirectory } from "./src/lib/pglite-template";
import { tuneProcessMemory } from "./src/lib/process-memory";
import { composeChains, composeContracts } from "./src/plugins/compose";

const config = getConfig();

tuneProcessMemory(config.database.kind);
// A new PGlite directory starts as a copy of a cached fresh one instead of running initdb (src/lib/pglite-template.ts).
// Then its WAL settings for the host file system, new directory or not (src/lib/pglite-settings.ts).
if (config.database.kind === "pglite") {
  await seedPgliteDirectory(config.database.directory);
  applyPgliteSettings(config.database.directory);
}

export default createConfig({
  ordering: "omnichain",
  database:
    config.database.kind === "postgres"
      ? { kind: "postgres", connectionString: config.database.connectionString }
      : { kind: "pglite", directory: config.database.directory },
  chains: composeChains(config),
  contracts: composeContracts(config),
});
