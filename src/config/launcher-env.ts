import { z } from "zod";
import { ConfigError } from "./app-config";
import { envSchema, processTuningSchema } from "./env-schema";

/**
 * What `npm start` (scripts/start.ts) reads before the indexer's own configuration exists: which namespace, the ports,
 * the devnet it starts, where its state lives, and the process settings it hands to Ponder. The indexer's variables
 * are the same fields as in envSchema, so a bad value gets the same message from both.
 */
export const launcherEnvSchema = processTuningSchema.extend({
  NAMESPACE: envSchema.shape.NAMESPACE,
  PORT: envSchema.shape.PORT,
  LABELS_PORT: envSchema.shape.LABELS_PORT,
  LABELS_SERVICE_URL: envSchema.shape.LABELS_SERVICE_URL,
  DATABASE_URL: envSchema.shape.DATABASE_URL,
  DATABASE_SCHEMA: envSchema.shape.DATABASE_SCHEMA,
  PGLITE_DIRECTORY: z.string().min(1).optional(),
  DEVNET_MANIFEST: z.string().min(1).optional(),
  DEVNET_SEED: z.coerce
    .number({ message: "must be a whole number (the scenario's random seed)" })
    .int("must be a whole number (the scenario's random seed)")
    .nonnegative("must be 0 or more")
    .default(1),
  DEVNET_NAMES: z.coerce
    .number({ message: "must be a number of names, 1 or more" })
    .int("must be a whole number of names")
    .min(1, "must be 1 or more")
    .max(1_000_000, "must be at most 1000000")
    .default(40),
  NAMEINDEX_STATE_DIR: z.string().min(1).optional(),
});

export type LauncherEnv = z.infer<typeof launcherEnvSchema>;

/** Reads and checks `npm start`'s variables; an empty one means unset, every problem is reported at once. */
export function readLauncherEnv(env: Record<string, string | undefined>): LauncherEnv {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = launcherEnvSchema.safeParse(present);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  return parsed.data;
}
