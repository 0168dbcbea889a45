/**
 * `npm run serve`: an API-only replica (`ponder serve`) over the database a writing indexer fills. Any number can run
 * side by side; each answers every endpoint from the shared PostgreSQL schema.
 */
import { existsSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildConfig } from "../src/config";
import { startPonder } from "./lib/ponder-process";
import { isPortFree } from "./lib/ports";

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
process.chdir(projectRoot);
if (existsSync(".env")) process.loadEnvFile(".env");

async function main(): Promise<void> {
  const config = buildConfig(process.env);
  if (config.database.kind !== "postgres") {
    throw new Error(
      "npm run serve needs DATABASE_URL: a replica reads the PostgreSQL database the indexer writes (PGlite is single-process)",
    );
  }
  if (!(await isPortFree(config.port))) throw new Error(`PORT ${config.port} is in use; set PORT to a free port`);
  const logFile = resolve(projectRoot, ".ponder", `serve-${config.port}.log`);
  mkdirSync(dirname(logFile), { recursive: true });
  const replica = startPonder({
    projectRoot,
    command: "serve",
    port: config.port,
    schema: config.databaseSchema,
    env: process.env,
    logFile,
  });
  const stop = async () => {
    await replica.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
  replica.child.once("exit", (code) => {
    console.error(`[serve] ponder serve exited with code ${code}; its log: ${logFile}`);
    process.exit(code ?? 1);
  });
  console.log(`[serve] API replica on ${replica.url} reading schema ${config.databaseSchema} (log: ${logFile})`);
}

main().catch((error) => {
  console.error(`[serve] ${(error as Error).message}`);
  process.exit(1);
});
