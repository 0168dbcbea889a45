import { parseArgs } from "node:util";
import { z } from "zod";
import { INPUT_FORMATS } from "../ingest/ingest-file.js";
import { labelSetIdSchema } from "../label-set.js";
import { DEFAULT_HOST, DEFAULT_PORT } from "../server/start-server.js";
import * as commands from "./commands.js";

const USAGE = `Usage: labels-service <command> [options]

Commands:
  ingest <file>   add a label set version from a file (.txt, .csv, .ensrainbow, .sql.gz; "-": standard input,
                  text unless --format says otherwise, gzip detected)
  ingest-demo     create the small "demo" label set from the word-list package
  serve           start the HTTP service
  validate        check every labelhash = keccak256(label) and the stored count
  count           print the number of healable labels
  purge           delete the database files

Options:
  --db <path>             database file (default data/labels.sqlite)
  --format <format>       ingest: ${INPUT_FORMATS.join(" | ")} (default: from the file extension)
  --label-set-id <id>     ingest: label set id (1-50 of a-z and -); required for a new database
  --port <port>           serve: port (default $LABELS_PORT or ${DEFAULT_PORT})
  --host <host>           serve: bind address (default ${DEFAULT_HOST})
`;

const optionsSchema = z.object({
  db: z.string().min(1, "--db must not be empty").default("data/labels.sqlite"),
  format: z
    .enum(INPUT_FORMATS, { errorMap: () => ({ message: `--format must be one of: ${INPUT_FORMATS.join(", ")}` }) })
    .optional(),
  "label-set-id": labelSetIdSchema.optional(),
  port: z.coerce
    .number({ invalid_type_error: "--port must be a number" })
    .int("--port must be an integer")
    .min(0, "--port must be 0-65535")
    .max(65535, "--port must be 0-65535")
    .default(Number(process.env.LABELS_PORT ?? DEFAULT_PORT)),
  host: z.string().min(1).default(DEFAULT_HOST),
  help: z.boolean().optional(),
});

/** Runs one command; resolves to the process exit code (0 ok, 1 failed, 2 bad arguments). */
export async function runCli(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        db: { type: "string" },
        format: { type: "string" },
        "label-set-id": { type: "string" },
        port: { type: "string" },
        host: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const [command, ...rest] = parsed.positionals;
  if (parsed.values.help || command === undefined || command === "help") {
    console.log(USAGE);
    return command === undefined && !parsed.values.help ? 2 : 0;
  }
  const options = optionsSchema.safeParse(parsed.values);
  if (!options.success) {
    console.error(`${options.error.issues.map((i) => i.message).join("\n")}\n\n${USAGE}`);
    return 2;
  }
  const o = options.data;
  switch (command) {
    case "ingest":
      if (rest.length !== 1) {
        console.error(`ingest takes exactly one input file\n\n${USAGE}`);
        return 2;
      }
      return commands.ingestCommand({ db: o.db, file: rest[0], format: o.format, labelSetId: o["label-set-id"] });
    case "ingest-demo":
      return commands.ingestDemoCommand({ db: o.db });
    case "serve":
      return commands.serveCommand({ db: o.db, port: o.port, host: o.host });
    case "validate":
      return commands.validateCommand({ db: o.db });
    case "count":
      return commands.countCommand({ db: o.db });
    case "purge":
      return commands.purgeCommand({ db: o.db });
    default:
      console.error(`Unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}
