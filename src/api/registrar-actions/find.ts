import { type SQL, sql } from "drizzle-orm";
import type { Hex } from "viem";
import { rowsOf } from "../../lib/sql-rows";
import { nameOf } from "../shared/managed-names";
import type { SqlDb } from "../shared/read-db";
import type { RegistrarActionsQuery } from "./query";

export interface ActionFilter extends Omit<RegistrarActionsQuery, "page" | "limit"> {
  parentNode?: Hex;
}

interface PriceEth {
  currency: "ETH";
  amount: string;
}

/** An ENSv2 registrar price: in the ERC-20 the registrant paid with, in its smallest unit. */
interface PriceErc20 {
  currency: "ERC20";
  token: { chainId: number; address: Hex };
  amount: string;
}

type Price = PriceEth | PriceErc20;

export interface RegistrarActionJson {
  id: string;
  type: "registration" | "renewal";
  incrementalDuration: number;
  registrant: Hex;
  registrationLifecycle: {
    subregistry: { subregistryId: { chainId: number; address: Hex }; node: Hex };
    node: Hex;
    expiresAt: number;
  };
  pricing: { baseCost: Price; premium: Price; total: Price } | { baseCost: null; premium: null; total: null };
  referral: { encodedReferrer: Hex; decodedReferrer: Hex } | { encodedReferrer: null; decodedReferrer: null };
  block: { number: number; timestamp: number };
  transactionHash: Hex;
  eventIds: string[];
}

export interface NamedRegistrarAction {
  action: RegistrarActionJson;
  name: string;
}

/**
 * Each filter is one indexed predicate; every index ends in the list's order, so a page is one index range (of each
 * table: registrar_action and ENSv2's ensv2_registrar_action, which have the same columns and indexes).
 */
function whereOf(f: ActionFilter, alias: "a" | "e" = "a"): SQL {
  const t = sql.raw(alias);
  const conditions: SQL[] = [];
  if (f.parentNode !== undefined) conditions.push(sql`${t}.parent_node = ${f.parentNode}`);
  if (f.withReferral) conditions.push(sql`${t}.with_referral = true`);
  if (f.decodedReferrer !== undefined) conditions.push(sql`${t}.decoded_referrer = ${f.decodedReferrer}`);
  if (f.beginTimestamp !== undefined) conditions.push(sql`${t}.block_timestamp >= ${f.beginTimestamp}`);
  if (f.endTimestamp !== undefined) conditions.push(sql`${t}.block_timestamp <= ${f.endTimestamp}`);
  return conditions.length === 0 ? sql`true` : sql.join(conditions, sql` and `);
}

/** Newest first; block number, log index and id break ties, so pages never overlap or skip. */
const newestFirst = (alias: "a" | "e" = "a") => {
  const t = sql.raw(alias);
  return sql`${t}.block_timestamp desc, ${t}.block_number desc, ${t}.log_index desc, ${t}.id desc`;
};

/**
 * ENSv1's actions and the ENSv2 registrar's (ensv2 plugin) in one list. Each branch takes its first offset + limit
 * rows in the list's order (a range of its table's index: PostgreSQL does not push the outer order and limit into a
 * union's joined branches), and the outer order merges them. An ENSv2 action's subregistry is its registrar, its
 * expiry the name's in its registry.
 */
export function pageQuery(f: ActionFilter, limit: number, offset: number): SQL {
  return sql`select * from (
      (select a.id, a.type, a.node, a.parent_node, a.chain_id, a.incremental_duration, a.registrant,
        a.base_cost, a.premium, a.total, a.encoded_referrer, a.decoded_referrer, a.block_number, a.block_timestamp,
        a.log_index, a.transaction_hash, a.event_ids, s.chain_id as sub_chain_id, s.address as sub_address,
        s.node as sub_node, l.expires_at, l.label, l.labelhash, d.name as domain_name, null::text as payment_token
      from registrar_action a
      join registration_lifecycle l on l.id = a.node
      join subregistry s on s.id = a.subregistry_id
      left join domain d on d.id = a.node
      where ${whereOf(f)}
      order by ${newestFirst("a")}
      limit ${limit + offset})
      union all
      (select e.id, e.type, e.node, e.parent_node, e.chain_id, e.incremental_duration, e.registrant,
        e.base_cost, e.premium, e.total, e.encoded_referrer, e.decoded_referrer, e.block_number, e.block_timestamp,
        e.log_index, e.transaction_hash, e.event_ids, e.chain_id as sub_chain_id, e.registrar as sub_address,
        e.parent_node as sub_node, v.expiry as expires_at, v.label, v.labelhash, v.name as domain_name, e.payment_token
      from ensv2_registrar_action e
      join ensv2_domain v on v.id = e.domain_id
      where ${whereOf(f, "e")}
      order by ${newestFirst("e")}
      limit ${limit + offset})
    ) a
    order by ${newestFirst("a")}
    limit ${limit} offset ${offset}`;
}

export function countQuery(f: ActionFilter): SQL {
  return sql`select (select count(*) from registrar_action a where ${whereOf(f)})::int
      + (select count(*) from ensv2_registrar_action e where ${whereOf(f, "e")})::int as n`;
}

interface ActionRow {
  id: string;
  chain_id: number;
  type: "registration" | "renewal";
  node: Hex;
  parent_node: Hex;
  incremental_duration: string;
  registrant: Hex;
  base_cost: string | null;
  premium: string | null;
  total: string | null;
  encoded_referrer: Hex | null;
  decoded_referrer: Hex | null;
  block_number: string;
  block_timestamp: string;
  transaction_hash: Hex;
  event_ids: string[];
  sub_chain_id: number;
  sub_address: Hex;
  sub_node: Hex;
  expires_at: string;
  label: string | null;
  labelhash: Hex;
  domain_name: string | null;
  /** ENSv2 actions only: the ERC-20 the prices are in. */
  payment_token: Hex | null;
}

const eth = (amount: string): PriceEth => ({ currency: "ETH", amount });

export function toNamedAction(row: ActionRow, managedNameByNode: ReadonlyMap<string, string>): NamedRegistrarAction {
  const token = row.payment_token !== null ? { chainId: Number(row.chain_id), address: row.payment_token } : null;
  const price = (amount: string): Price => (token ? { currency: "ERC20", token, amount } : eth(amount));
  const pricing =
    row.base_cost !== null && row.premium !== null && row.total !== null
      ? { baseCost: price(row.base_cost), premium: price(row.premium), total: price(row.total) }
      : { baseCost: null, premium: null, total: null };
  const referral =
    row.encoded_referrer !== null && row.decoded_referrer !== null
      ? { encodedReferrer: row.encoded_referrer, decodedReferrer: row.decoded_referrer }
      : { encodedReferrer: null, decodedReferrer: null };
  return {
    action: {
      id: row.id,
      type: row.type,
      incrementalDuration: Number(row.incremental_duration),
      registrant: row.registrant,
      registrationLifecycle: {
        subregistry: {
          subregistryId: { chainId: Number(row.sub_chain_id), address: row.sub_address },
          node: row.sub_node,
        },
        node: row.node,
        expiresAt: Number(row.expires_at),
      },
      pricing,
      referral,
      block: { number: Number(row.block_number), timestamp: Number(row.block_timestamp) },
      transactionHash: row.transaction_hash,
      eventIds: row.event_ids,
    },
    name: nameOf(row, managedNameByNode),
  };
}

export async function findRegistrarActions(
  db: SqlDb,
  filter: ActionFilter,
  page: number,
  limit: number,
  managedNameByNode: ReadonlyMap<string, string>,
): Promise<{ actions: NamedRegistrarAction[]; totalRecords: number }> {
  const [rows, count] = await Promise.all([
    db.execute(pageQuery(filter, limit, (page - 1) * limit)),
    db.execute(countQuery(filter)),
  ]);
  return {
    actions: rowsOf<ActionRow>(rows).map((r) => toNamedAction(r, managedNameByNode)),
    totalRecords: Number(rowsOf<{ n: number }>(count)[0]?.n ?? 0),
  };
}
