import { z } from "zod";
import type { AppConfig } from "../../config";
import { NAMEINDEX_VERSION, packageVersion } from "../../lib/versions";

/** The response of GET /api/config (docs/api.md, "Configuration, status and the OpenAPI description"). */
export const publicConfigSchema = z.object({
  indexedChainIds: z.array(z.number().int().positive()),
  databaseSchemaName: z.string(),
  isSubgraphCompatible: z.boolean(),
  labelSet: z.object({ labelSetId: z.string(), labelSetVersion: z.number().int().nonnegative() }),
  namespace: z.enum(["mainnet", "sepolia", "sepolia-v2", "holesky", "devnet"]),
  plugins: z.array(z.string()),
  versionInfo: z.object({
    runtime: z.string(),
    indexingFramework: z.string(),
    nsDb: z.string(),
    nsIndexer: z.string(),
    nsNormalize: z.string(),
    nsRainbow: z.string(),
    nsRainbowSchema: z.number().int(),
  }),
  adminUrl: z.string().url(),
  publicApiUrl: z.string().url(),
  labelsServiceUrl: z.string().url(),
  healReverseAddresses: z.boolean(),
  indexAdditionalResolverRecords: z.boolean(),
  replaceUnnormalized: z.boolean(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;

/** What the label service says about itself (its GET /v1/config). */
export interface LabelServiceVersion {
  version: string;
  schemaVersion: number;
}

/** The version of the database layout this indexer writes; bump it with every incompatible schema change. */
export const DB_SCHEMA_VERSION = "1";

export function buildPublicConfig(config: AppConfig, labels: LabelServiceVersion, publicApiUrl: string): PublicConfig {
  const interpreted = !config.isSubgraphCompatible;
  return {
    indexedChainIds: [...config.rpcUrls.keys()].sort((a, b) => a - b),
    databaseSchemaName: config.databaseSchema,
    isSubgraphCompatible: config.isSubgraphCompatible,
    labelSet: config.labelSet,
    namespace: config.namespace.name,
    plugins: [...config.plugins],
    versionInfo: {
      runtime: process.versions.node,
      indexingFramework: packageVersion("ponder"),
      nsDb: DB_SCHEMA_VERSION,
      nsIndexer: NAMEINDEX_VERSION,
      nsNormalize: packageVersion("@adraffy/ens-normalize"),
      nsRainbow: labels.version,
      nsRainbowSchema: labels.schemaVersion,
    },
    adminUrl: `${publicApiUrl}/`,
    publicApiUrl,
    labelsServiceUrl: config.labelsServiceUrl,
    // Outside subgraph-compatible mode names are interpreted: unnormalized labels encoded, text values kept,
    // and addr.reverse labels (hex addresses) healed from the address itself.
    healReverseAddresses: interpreted,
    indexAdditionalResolverRecords: interpreted,
    replaceUnnormalized: interpreted,
  };
}
