import { parseArgs } from "node:util";
import { startDevnet } from "./src/index";

const USAGE = `Usage: npm run devnet -- [--seed 1] [--names 40] [--manifest .devnet/manifest.json] [--mine-interval 1]

Starts three local chains (ENS root 31337, "base" 31338, "linea" 31339), deploys the contracts, plays the
scenario, writes the manifest and keeps the chains running until Ctrl-C.`;

function intOption(value: string | undefined, name: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    console.error(`--${name} must be an integer ≥ ${min}, got ${JSON.stringify(value)}\n\n${USAGE}`);
    process.exit(2);
  }
  return n;
}

async function main() {
  const { values } = parseArgs({
    options: {
      seed: { type: "string" },
      names: { type: "string" },
      manifest: { type: "string" },
      "mine-interval": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const seed = intOption(values.seed, "seed", 1, 0);
  const names = intOption(values.names, "names", 40, 1);
  const mineInterval = intOption(values["mine-interval"], "mine-interval", 1, 0);
  const log = (line: string) => console.log(`[devnet] ${line}`);

  const devnet = await startDevnet({ seed, names, manifestPath: values.manifest, mineInterval, log });
  const counts = devnet.manifest.scenario.eventCounts as Record<string, number>;
  log(`manifest: ${devnet.manifestPath}`);
  for (const [id, chain] of Object.entries(devnet.manifest.chains)) log(`${chain.name} (${id}): ${chain.rpcUrl}`);
  log(
    `${Object.keys(counts).length} event kinds; ${mineInterval > 0 ? `a block every ${mineInterval} s` : "automine"}; Ctrl-C to stop`,
  );

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping the chains`);
    await devnet.stop();
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  // Keep the process (and so the chains) alive until a signal arrives.
  setInterval(() => {}, 1 << 30);
}

main().catch((error) => {
  console.error(`[devnet] failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exit(1);
});
