import pg from "pg";
import { type Abi, type Address, createPublicClient, http, labelhash, zeroAddress } from "viem";
import { devnetAbis } from "../../../devnet/src/contracts";
import type { RunningIndexer } from "../../../harness/indexer-harness";

/*
 * One ENSv2 registry's rows in a running PostgreSQL index against the chain now (eth_call at the head), the way
 * test/ensv2/chain-truth.system.test.ts compares the whole tree: every name's token id, holder, expiry and resolver,
 * and every role entry. Used after reorgs, when the index must hold the surviving branch and nothing of the abandoned one.
 */

const REGISTRY = devnetAbis().PermissionedRegistry;
const lower = (a: string) => a.toLowerCase();

export interface Ensv2DomainRow {
  label: string | null;
  storage_id: string;
  token_id: string;
  owner: Address | null;
  expiry: string;
  resolver: Address | null;
  status: string;
}

export interface Ensv2Truth {
  /** The registry's names in the index, by label. */
  domains: Map<string, Ensv2DomainRow>;
  /** Every difference from the chain, as "<label or role>: <field> index X, chain Y"; empty when they agree. */
  differences: string[];
  namesCompared: number;
  rolesCompared: number;
}

export async function ensv2TruthOf(indexer: RunningIndexer, rpcUrl: string, registry: Address): Promise<Ensv2Truth> {
  if (!indexer.env.DATABASE_URL) throw new Error("ensv2TruthOf reads the index from PostgreSQL while it runs");
  const db = new pg.Client({ connectionString: indexer.env.DATABASE_URL });
  await db.connect();
  let domainRows: Ensv2DomainRow[];
  let permissionRows: { resource: string; account: Address; roles: string }[];
  try {
    await db.query("begin isolation level repeatable read read only");
    domainRows = (
      await db.query(`SELECT * FROM "${indexer.schema}"."ensv2_domain" WHERE registry = $1`, [lower(registry)])
    ).rows;
    permissionRows = (
      await db.query(`SELECT * FROM "${indexer.schema}"."ensv2_permission" WHERE contract = $1`, [lower(registry)])
    ).rows;
    await db.query("commit");
  } finally {
    await db.end();
  }

  const client = createPublicClient({ transport: http(rpcUrl, { batch: { batchSize: 200 } }) });
  const read = <T>(functionName: string, args: unknown[]) =>
    client.readContract({ address: registry, abi: REGISTRY, functionName, args } as never) as Promise<T>;
  const now = (await client.getBlock()).timestamp;
  const differences: string[] = [];
  const differ = (what: string, field: string, index: unknown, chain: unknown) => {
    if (String(index) !== String(chain))
      differences.push(`${what}: ${field} index ${String(index)}, chain ${String(chain)}`);
  };

  for (const d of domainRows) {
    const what = d.label ?? d.storage_id;
    const tokenId = BigInt(d.token_id);
    const [chainTokenId, holder, expiry, resolver] = await Promise.all([
      read<bigint>("getTokenId", [BigInt(d.storage_id)]),
      read<Address>("latestOwnerOf", [tokenId]),
      read<bigint>("getExpiry", [BigInt(d.storage_id)]),
      d.label ? read<Address>("getResolver", [d.label]) : Promise.resolve(zeroAddress),
    ]);
    differ(what, "token id", tokenId, chainTokenId);
    differ(what, "holder", d.owner ?? zeroAddress, lower(holder));
    differ(what, "expiry", d.expiry, expiry);
    if (d.label)
      differ(what, "resolver", BigInt(d.expiry) > now && d.resolver ? d.resolver : zeroAddress, lower(resolver));
  }
  const indexedRoles = (resource: bigint, account: Address) =>
    BigInt(permissionRows.find((p) => BigInt(p.resource) === resource && p.account === account)?.roles ?? 0n);
  for (const p of permissionRows) {
    const resource = BigInt(p.resource);
    // roles(anyId, …) answers for the name's current resource (see chain-truth.system.test.ts).
    const current = resource === 0n ? resource : await read<bigint>("getResource", [resource]);
    differ(
      `roles(${p.resource}, ${p.account})`,
      "bitmap",
      indexedRoles(current, p.account),
      await read<bigint>("roles", [resource, p.account]),
    );
  }
  return {
    domains: new Map(domainRows.filter((d) => d.label !== null).map((d) => [d.label!, d])),
    differences,
    namesCompared: domainRows.length,
    rolesCompared: permissionRows.length,
  };
}

/** The role bitmap the index holds for `account` on a label's current resource (0 when it holds none). */
export async function indexedRolesOn(
  indexer: RunningIndexer,
  rpcUrl: string,
  registry: Address,
  label: string,
  account: Address,
): Promise<bigint> {
  const client = createPublicClient({ transport: http(rpcUrl) });
  const resource = (await client.readContract({
    address: registry,
    abi: REGISTRY,
    functionName: "getResource",
    args: [BigInt(labelhash(label))],
  } as never)) as bigint;
  const db = new pg.Client({ connectionString: indexer.env.DATABASE_URL });
  await db.connect();
  try {
    const { rows } = await db.query(
      `SELECT resource, roles FROM "${indexer.schema}"."ensv2_permission" WHERE contract = $1 AND account = $2`,
      [lower(registry), lower(account)],
    );
    return BigInt(rows.find((r: { resource: string }) => BigInt(r.resource) === resource)?.roles ?? 0n);
  } finally {
    await db.end();
  }
}
