import { createConfig } from "ponder";
import { getConfig } from "./src/config";
import { tuneProcessMemory } from "./src/lib/process-memory";
import { composeChains, composeContracts } from "./src/plugins/compose";

const config = getConfig();

tuneProcessMemory(config.database.kind);

export default createConfig({
  ordering: "omnichain",
  database:
    config.database.kind === "postgres"
      ? { kind: "postgres", connectionString: config.database.connectionString }
      : { kind: "pglite", directory: config.database.directory },
  chains: composeChains(config),
  contracts: composeContracts(config),
});
