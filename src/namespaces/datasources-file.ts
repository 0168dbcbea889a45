import { readFileSync } from "node:fs";
import type { Address } from "viem";
import { z } from "zod";
import bundled from "./datasources.json";
import { DATASOURCE_NAMES, type Datasource, type DatasourceName, NAMESPACE_NAMES, type NamespaceName } from "./types";

/*
 * Deployments kept as data rather than code: a namespace's datasources listed here are laid over the ones its code
 * defines (mainnet.ts, sepolia.ts; sepolia-v2 has none), datasource by datasource. An operator points
 * NAMESPACE_DATASOURCES_FILE at a replacement of this whole file to move an address or start block, or to add a
 * deployment (an `ensv2` section for mainnet) without a code change. docs/ensv2.md ("sepolia-v2") shows the format.
 */

/** Where the bundled file's values come from, when nobody replaced it. */
export const BUNDLED_DATASOURCES_FILE = "src/namespaces/datasources.json";

const ZERO_ADDRESS = `0x${"0".repeat(40)}`;

const address = z
  .string()
  .regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x-prefixed 20-byte hex address")
  .transform((a) => a.toLowerCase() as Address)
  .refine((a) => a !== ZERO_ADDRESS, "must not be the zero address (leave a contract a deployment lacks out)");

const contractRef = z.object({
  /** Omitted for a contract matched at any address (resolvers, ENSv2 registries). */
  address: address.optional(),
  startBlock: z
    .number({ message: "must be a block number" })
    .int("must be a block number")
    .nonnegative("must be a block number"),
});

const datasource = z.object({
  chain: z.object({
    id: z.number({ message: "must be a chain id" }).int("must be a chain id").positive("must be a chain id"),
    /** Ponder's chain key: one per chain id across the namespace. */
    name: z.string().regex(/^[A-Za-z][A-Za-z0-9]*$/, "must be a chain key of letters and digits, e.g. sepolia"),
  }),
  managedName: z.string().min(1).optional(),
  contracts: z.record(
    z.string().regex(/^[A-Za-z][A-Za-z0-9]*$/, "must be a contract name of letters and digits"),
    contractRef,
  ),
});

/** The ensv2 plugin starts its tree from RootRegistry and knows `.eth` by ETHRegistry (src/plugins/ensv2/lib/context.ts). */
const ENSV2_ADDRESSED_CONTRACTS = ["RootRegistry", "ETHRegistry"] as const;

const namespaceSection = z.object({
  /** Free text: where these values come from. */
  source: z.string().optional(),
  datasources: z
    .record(z.enum(DATASOURCE_NAMES, { message: `must be one of ${DATASOURCE_NAMES.join(", ")}` }), datasource)
    .superRefine((datasources, ctx) => {
      const ensv2 = datasources.ensv2;
      for (const contract of ENSV2_ADDRESSED_CONTRACTS) {
        if (ensv2 && !ensv2.contracts[contract]?.address) {
          ctx.addIssue({
            code: "custom",
            path: ["ensv2", "contracts", contract, "address"],
            message: "is required: the ensv2 plugin starts from it",
          });
        }
      }
    }),
});

/** Namespaces whose deployments the file may hold: every public one (the devnet's come from its manifest). */
const FILE_NAMESPACES = NAMESPACE_NAMES.filter((n) => n !== "devnet") as Exclude<NamespaceName, "devnet">[];

export const datasourcesFileSchema = z.record(
  z.enum(FILE_NAMESPACES as [Exclude<NamespaceName, "devnet">, ...Exclude<NamespaceName, "devnet">[]], {
    message: `must be a namespace this file can hold (${FILE_NAMESPACES.join(", ")})`,
  }),
  namespaceSection,
);
export type DatasourcesFile = z.infer<typeof datasourcesFileSchema>;

/** `<file> is invalid: <field path>: <problem>; …` for every problem of a file that does not parse. */
function invalid(file: string, error: z.ZodError): Error {
  const issues = error.issues.map((i) => `${i.path.join(".") || "(top level)"}: ${i.message}`);
  return new Error(`${file} is invalid: ${issues.join("; ")}`);
}

export function parseDatasourcesFile(value: unknown, file: string): DatasourcesFile {
  const parsed = datasourcesFileSchema.safeParse(value);
  if (!parsed.success) throw invalid(file, parsed.error);
  return parsed.data;
}

/** The replacement an operator named, or the bundled file. Errors name the file (and the field). */
export function readDatasourcesFile(path: string | undefined): DatasourcesFile {
  if (path === undefined) return parseDatasourcesFile(bundled, BUNDLED_DATASOURCES_FILE);
  let raw: string;
  try {
    raw = readFileSync(path, "utf8");
  } catch (error) {
    throw new Error(`${path} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new Error(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parseDatasourcesFile(json, path);
}

/** The file's datasources of one namespace (none when it has no section for it). */
export function fileDatasources(
  file: DatasourcesFile,
  name: NamespaceName,
): Partial<Record<DatasourceName, Datasource>> {
  if (name === "devnet") return {};
  return (file[name]?.datasources ?? {}) as Partial<Record<DatasourceName, Datasource>>;
}

/** Ponder knows a chain by one key: two datasources on one chain id must name it alike, and two chains differently. */
export function chainNameConflicts(datasources: Partial<Record<DatasourceName, Datasource>>): string[] {
  const byId = new Map<number, string>();
  const byName = new Map<string, number>();
  const problems: string[] = [];
  for (const [ds, source] of Object.entries(datasources)) {
    if (!source) continue;
    const { id, name } = source.chain;
    if (byId.has(id) && byId.get(id) !== name)
      problems.push(`${ds}: chain ${id} is "${byId.get(id)}" elsewhere, "${name}" here`);
    if (byName.has(name) && byName.get(name) !== id)
      problems.push(`${ds}: chain key "${name}" is chain ${byName.get(name)} elsewhere, ${id} here`);
    byId.set(id, name);
    byName.set(name, id);
  }
  return problems;
}
