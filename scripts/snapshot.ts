/**
 * `npm run snapshot -- create <file> [--chunk-rows <rows>] [--cluster]`, `npm run snapshot -- restore <file|https-url>
 * [--pgdata <dir>] [--sample <names>] [--chunks <per table> | --full]`, `npm run snapshot -- verify <file|https-url>
 * [same]`: publish a verifiable
 * snapshot of the configured index, start a new one from it, or check a restored one again (snapshot/,
 * docs/operations.md).
 */
import { existsSync } from "node:fs";
import { z } from "zod";
import { createSnapshot, restoreSnapshot, SnapshotError, verifySnapshot } from "../snapshot";
import { DEFAULT_SAMPLE_CHUNKS } from "../snapshot/chunk-sample";
import { DEFAULT_CHUNK_ROWS } from "../snapshot/digest";
import { ConfigError, getConfig } from "../src/config";

const checks = {
  target: z.string().min(1),
  sample: z.coerce.number().int().min(0).default(200),
  chunks: z.coerce.number().int().min(0).default(DEFAULT_SAMPLE_CHUNKS),
  full: z.literal("true").optional(),
};

const args = z.discriminatedUnion("command", [
  z.object({
    command: z.literal("create"),
    target: z.string().min(1),
    "chunk-rows": z.coerce.number().int().min(1).default(DEFAULT_CHUNK_ROWS),
    cluster: z.literal("true").optional(),
    "pg-bin": z.string().min(1).optional(),
  }),
  z.object({
    command: z.literal("restore"),
    ...checks,
    pgdata: z.string().min(1).optional(),
    "pg-bin": z.string().min(1).optional(),
  }),
  z.object({ command: z.literal("verify"), ...checks }),
]);

const USAGE = `usage: npm run snapshot -- create <file> [--chunk-rows <rows per chunk, default ${DEFAULT_CHUNK_ROWS}>] [--cluster: a physical copy of DATABASE_URL's dedicated cluster [--pg-bin <PostgreSQL's bin directory>]]
       npm run snapshot -- restore <file|https-url> [--pgdata <new data directory: a physical copy> [--pg-bin <dir>]] [--sample <names, default 200>] [--chunks <per table, default ${DEFAULT_SAMPLE_CHUNKS}> | --full]
       npm run snapshot -- verify <file|https-url> [the same options]: the restored index again, before ponder start`;

function parseArgs(argv: string[]): z.infer<typeof args> {
  const [command, target, ...rest] = argv;
  const options: Record<string, string> = {};
  for (let i = 0; i < rest.length; i += 1) {
    const key = rest[i]?.replace(/^--/, "");
    if (!key) continue;
    // --full and --cluster are switches; every other option takes a value.
    if (key === "full" || key === "cluster") options[key] = "true";
    else options[key] = rest[++i] ?? "";
  }
  const parsed = args.safeParse({
    command,
    target,
    ...options,
    sample: options.sample ?? process.env.SNAPSHOT_SAMPLE_NAMES,
    ...(command === "verify" ? {} : { "pg-bin": options["pg-bin"] ?? process.env.PG_BIN }),
    chunks: options.chunks ?? process.env.SNAPSHOT_SAMPLE_CHUNKS,
  });
  if (!parsed.success) {
    console.error(
      `${USAGE}\n${parsed.error.issues.map((i) => `  ${i.path.join(".") || "arguments"}: ${i.message}`).join("\n")}`,
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
  if (parsed.command === "create") {
    await createSnapshot(config, parsed.target, log, {
      chunkRows: parsed["chunk-rows"],
      cluster: parsed.cluster === "true",
      pgBin: parsed["pg-bin"],
    });
  } else {
    const options = { sampleSize: parsed.sample, chunks: parsed.full ? ("all" as const) : parsed.chunks };
    if (parsed.command === "restore")
      await restoreSnapshot(config, parsed.target, { ...options, pgdata: parsed.pgdata, pgBin: parsed["pg-bin"] }, log);
    else await verifySnapshot(config, parsed.target, options, log);
  }
} catch (error) {
  if (error instanceof SnapshotError || error instanceof ConfigError) {
    console.error(`[snapshot] refused: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
