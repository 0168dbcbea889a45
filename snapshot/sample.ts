import { type Address, decodeFunctionResult, encodeFunctionData, type Hex, parseAbi } from "viem";
import type { AppConfig } from "../src/config";
import type { SnapshotManifest } from "./manifest";
import { type Queryable, quoteIdent } from "./queryable";
import type { RpcPool } from "./rpc";

const registryAbi = parseAbi([
  "function owner(bytes32 node) view returns (address)",
  "function resolver(bytes32 node) view returns (address)",
]);
const baseRegistrarAbi = parseAbi(["function nameExpires(uint256 id) view returns (uint256)"]);
const resolverAbi = parseAbi(["function addr(bytes32 node) view returns (address)"]);
const ETH_NODE = "0x93cdeb708b7545dc668eb9280176169d1c33cfd8ed6f04690a0bcc88a93fc4ae";
const ZERO = "0x0000000000000000000000000000000000000000";

interface SampledName {
  node: Hex;
  owner: string;
  labelhash: Hex | null;
  parent: string | null;
  expiry: string | null;
  resolver: string | null;
  addr: string | null;
}

interface Check {
  node: Hex;
  what: string;
  expected: string;
  call: { to: Address; data: Hex };
  decode: (data: Hex) => string;
}

/**
 * Compares a random sample of the root chain's names with the chain at the snapshot's resume block through eth_call:
 * the registry's owner and resolver, the .eth registrar's expiry, the resolver's ETH address. Only names no row
 * written after the resume block touched (none in `_reorg__domain`): their rows are the chain's state at that block.
 */
export async function verifySample(
  db: Queryable,
  schema: string,
  config: AppConfig,
  manifest: SnapshotManifest,
  rpc: RpcPool,
  size: number,
): Promise<{ names: number; checks: number; problems: string[] }> {
  const root = config.namespace.datasources.ensroot;
  const registry = root?.contracts.Registry?.address;
  const baseRegistrar = root?.contracts.BaseRegistrar?.address;
  const checkpoint = manifest.checkpoints.find((c) => c.chainId === root?.chain.id);
  if (!root || !registry || !checkpoint?.resume) return { names: 0, checks: 0, problems: [] };
  const tables = await existingTables(db, schema);
  if (!tables.has("domain") || !tables.has("registry_node")) return { names: 0, checks: 0, problems: [] };
  const s = quoteIdent(schema);
  const chainId = root.chain.id;
  const notReorged = tables.has("_reorg__domain") ? `and d.id not in (select id from ${s}."_reorg__domain")` : "";
  const withRecords = tables.has("resolver_records") && tables.has("resolver_address_record");
  const { rows } = await db.query<SampledName>(
    `select d.id as node, d.owner_id as owner, d.labelhash, d.parent_id as parent, rn.resolver,
            ${tables.has("registration") ? `(select r.expiry_date::text from ${s}.registration r where r.domain_id = d.id limit 1)` : "null"} as expiry,
            ${
              withRecords
                ? `(select a.value from ${s}.resolver_records rr join ${s}.resolver_address_record a
                      on a.id = rr.id || '-' || rr.version::text || '-60'
                     where rr.chain_id = $1 and rr.node = d.id and rr.resolver = rn.resolver)`
                : "null"
            } as addr
       from ${s}.domain d
       join ${s}.registry_node rn on rn.chain_id = $1 and rn.registry = $2 and rn.node = d.id
      where true ${notReorged}
      order by md5(d.id || $3) limit $4`,
    [chainId, registry.toLowerCase(), String(Math.random()), size],
  );
  const checks: Check[] = [];
  for (const row of rows) {
    const node = row.node;
    checks.push({
      node,
      what: "owner",
      expected: row.owner.toLowerCase(),
      call: { to: registry, data: encodeFunctionData({ abi: registryAbi, functionName: "owner", args: [node] }) },
      decode: (d) => decodeFunctionResult({ abi: registryAbi, functionName: "owner", data: d }).toLowerCase(),
    });
    checks.push({
      node,
      what: "resolver",
      expected: (row.resolver ?? ZERO).toLowerCase(),
      call: { to: registry, data: encodeFunctionData({ abi: registryAbi, functionName: "resolver", args: [node] }) },
      decode: (d) => decodeFunctionResult({ abi: registryAbi, functionName: "resolver", data: d }).toLowerCase(),
    });
    if (baseRegistrar && row.parent === ETH_NODE && row.expiry !== null && row.labelhash) {
      checks.push({
        node,
        what: "expiry",
        expected: row.expiry,
        call: {
          to: baseRegistrar,
          data: encodeFunctionData({
            abi: baseRegistrarAbi,
            functionName: "nameExpires",
            args: [BigInt(row.labelhash)],
          }),
        },
        decode: (d) => decodeFunctionResult({ abi: baseRegistrarAbi, functionName: "nameExpires", data: d }).toString(),
      });
    }
    if (row.addr && row.resolver && row.addr.length === 42) {
      checks.push({
        node,
        what: "ETH address",
        expected: row.addr.toLowerCase(),
        call: {
          to: row.resolver as Address,
          data: encodeFunctionData({ abi: resolverAbi, functionName: "addr", args: [node] }),
        },
        decode: (d) => decodeFunctionResult({ abi: resolverAbi, functionName: "addr", data: d }).toLowerCase(),
      });
    }
  }
  const block = `0x${checkpoint.resume.number.toString(16)}`;
  const problems: string[] = [];
  const client = rpc.for(chainId);
  for (let i = 0; i < checks.length; i += 100) {
    const part = checks.slice(i, i + 100);
    const answers = await client.batch<Hex>(part.map((c) => ({ method: "eth_call", params: [c.call, block] })));
    part.forEach((c, j) => {
      const actual = c.decode(answers[j] as Hex);
      if (actual !== c.expected) {
        problems.push(
          `name ${c.node}: ${c.what} is ${c.expected} in the snapshot and ${actual} on chain at block ${checkpoint.resume?.number}`,
        );
      }
    });
  }
  return { names: rows.length, checks: checks.length, problems };
}

async function existingTables(db: Queryable, schema: string): Promise<Set<string>> {
  const { rows } = await db.query<{ t: string }>(
    "select table_name as t from information_schema.tables where table_schema = $1",
    [schema],
  );
  return new Set(rows.map((r) => String(r.t)));
}
