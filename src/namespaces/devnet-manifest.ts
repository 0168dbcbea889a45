import { readFileSync } from "node:fs";
import { z } from "zod";
import { DATASOURCE_NAMES } from "./types";

const address = z.string().regex(/^0x[0-9a-f]{40}$/, "must be a lowercase 0x-prefixed 20-byte address");

const contractRef = z.object({
  address: address.optional(),
  startBlock: z.number().int().nonnegative(),
});

/** What `npm run devnet` writes and the devnet namespace reads. Documented in docs/devnet-manifest.md. */
export const devnetManifestSchema = z.object({
  version: z.literal(1),
  createdAt: z.string(),
  seed: z.number().int(),
  chains: z.record(
    z.string().regex(/^\d+$/),
    z.object({
      /** Ponder chain key: devnetRoot, devnetBase or devnetLinea. */
      name: z.string().min(1),
      rpcUrl: z.string().url(),
      /** The anvil process, when the devnet tool started it (absent for chains run by someone else). */
      pid: z.number().int().optional(),
    }),
  ),
  datasources: z.record(
    z.enum(DATASOURCE_NAMES),
    z.object({
      chainId: z.number().int().positive(),
      /** The name the datasource's registrar manages; defaults: eth, base.eth, linea.eth. */
      managedName: z.string().optional(),
      contracts: z.record(z.string(), contractRef),
    }),
  ),
  /**
   * ENSv2 (docs/ensv2.md) beside ENSv1 on one chain: its fixed contracts by name. Registries and resolvers below the
   * root are deployed as the scenario plays and are found from the root (the scenario's `ensv2` lists them).
   */
  ensv2: z
    .object({
      chainId: z.number().int().positive(),
      contracts: z.record(z.string(), contractRef),
    })
    .optional(),
  /**
   * Facts about the played scenario that tests compare with the index (free-form per scenario version). The devnet
   * writes them to a file of their own (`scenarioPathOf`), which the indexer never reads; inline, they are accepted.
   */
  scenario: z.record(z.string(), z.unknown()).default({}),
});

/** Where the devnet writes a manifest's scenario facts: `manifest.json` → `manifest.scenario.json`. */
export function scenarioPathOf(manifestPath: string): string {
  return `${manifestPath.replace(/\.json$/, "")}.scenario.json`;
}

export type DevnetManifest = z.infer<typeof devnetManifestSchema>;

export function readDevnetManifest(path: string): DevnetManifest {
  let raw: string;
  try {
    raw = readFileSync(path, "utf8");
  } catch {
    throw new Error(
      `Devnet manifest not found at ${path}. Start a devnet with \`npm run devnet\` or point DEVNET_MANIFEST at one.`,
    );
  }
  const parsed = devnetManifestSchema.safeParse(JSON.parse(raw));
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Devnet manifest ${path} is invalid: ${issues}`);
  }
  return parsed.data;
}
