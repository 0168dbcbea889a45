import { type ChildProcess, spawn } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Runs `npm start`'s orchestrator with the given environment until it prints that it is ready. */
export async function runStart(
  env: NodeJS.ProcessEnv,
): Promise<{ child: ChildProcess; output: () => string; exited: Promise<number | null> }> {
  // `npm start` is `tsx scripts/start.ts`; spawn it directly so SIGINT reaches the orchestrator as Ctrl-C would.
  const child = spawn(join(projectRoot, "node_modules/.bin/tsx"), ["scripts/start.ts"], {
    cwd: projectRoot,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
  await new Promise<void>((resolveReady, reject) => {
    const timer = setInterval(() => {
      if (output.includes("[start] ready")) {
        clearInterval(timer);
        resolveReady();
      }
    }, 250);
    void exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`npm start exited (${code}) before ready:\n${output}`));
    });
  });
  return { child, output: () => output, exited };
}

export function cleanEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...overrides };
  for (const key of [
    "NAMESPACE",
    "DEVNET_MANIFEST",
    "LABELS_SERVICE_URL",
    "DATABASE_URL",
    "PLUGINS",
    "LABELS_DB",
    "PGLITE_DIRECTORY",
    "PONDER_CACHE_BYTES",
    "NODE_ENV",
  ]) {
    if (!(key in overrides)) delete env[key];
  }
  return env;
}
