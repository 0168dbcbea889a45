/**
 * `npm run snapshot -- create <file>` / `npm run snapshot -- restore <file|https-url> [--sample <names>]`: publish a
 * verifiable snapshot of the configured index, or start a new one from it (snapshot/, docs/operations.md).
 */
import { existsSync } from "node:fs";
import { z } from "zod";
import { createSnapshot, restoreSnapshot, SnapshotError } from "../snapshot";
import { ConfigError, getConfig } from "../src/config";

const args = z.discriminatedUnion("command", [
  z.object({ command: z.literal("create"), target: z.string().min(1) }),
  z.object({
    command: z.literal("restore"),
    target: z.string().min(1),
    sample: z.coerce.number().int().min(0).default(200),
  }),
]);

function parseArgs(argv: string[]): z.infer<typeof args> {
  const [command, target, ...rest] = argv;
  const options: Record<string, string> = {};
  for (let i = 0; i < rest.length; i += 2) {
    const key = rest[i]?.replace(/^--/, "");
    if (key) options[key] = rest[i + 1] ?? "";
  }
  const parsed = args.safeParse({
    command,
    target,
    ...options,
    sample: options.sample ?? process.env.SNAPSHOT_SAMPLE_NAMES,
  });
  if (!parsed.success) {
    console.error(
      "usage: npm run snapshot -- create <file>\n       npm run snapshot -- restore <file|https-url> [--sample <names, default 200>]\n" +
        parsed.error.issues.map((i) => `  ${i.path.join(".") || "arguments"}: ${i.message}`).join("\n"),
    );
    process.exit(2);
  }
  return parsed.data;
}

if (existsSync(".env")) process.loadEnvFile(".env");
const parsed = parseArgs(process.argv.slice(2));
const log = (line: string) => console.log(`[snapshot] ${line}`);
try {
  const config = getConfig();
  if (parsed.command === "create") await createSnapshot(config, parsed.target, log);
  else await restoreSnapshot(config, parsed.target, { sampleSize: parsed.sample }, log);
} catch (error) {
  if (error instanceof SnapshotError || error instanceof ConfigError) {
    console.error(`[snapshot] refused: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
