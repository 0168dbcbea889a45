import { type SQL, sql } from "drizzle-orm";
import type { Hex } from "viem";
import { nameOf } from "../shared/managed-names";
import { rowsOf, type SqlDb } from "../shared/read-db";
import type { RegistrarActionsQuery } from "./query";

export interface ActionFilter extends Omit<RegistrarActionsQuery, "page" | "limit"> {
  parentNode?: Hex;
}

interface PriceEth {
  currency: "ETH";
  amount: string;
}

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
  pricing: { baseCost: PriceEth; premium: PriceEth; total: PriceEth } | { baseCost: null; premium: null; total: null };
  referral: { encodedReferrer: Hex; decodedReferrer: Hex } | { encodedReferrer: null; decodedReferrer: null };
  block: { number: number; timestamp: number };
  transactionHash: Hex;
  eventIds: string[];
}

export interface NamedRegistrarAction {
  action: RegistrarActionJson;
  name: string;
}

/** Each filter is one indexed predicate; every index ends in the list's order, so a page is one index range. */
function whereOf(f: ActionFilter): SQL {
  const conditions: SQL[] = [];
  if (f.parentNode !== undefined) conditions.push(sql`a.parent_node = ${f.parentNode}`);
  if (f.withReferral) conditions.push(sql`a.with_referral = true`);
  if (f.decodedReferrer !== undefined) conditions.push(sql`a.decoded_referrer = ${f.decodedReferrer}`);
  if (f.beginTimestamp !== undefined) conditions.push(sql`a.block_timestamp >= ${f.beginTimestamp}`);
  if (f.endTimestamp !== undefined) conditions.push(sql`a.block_timestamp <= ${f.endTimestamp}`);
  return conditions.length === 0 ? sql`true` : sql.join(conditions, sql` and `);
}

/** Newest first; block number, log index and id break ties, so pages never overlap or skip. */
const NEWEST_FIRST = sql`a.block_timestamp desc, a.block_number desc, a.log_index desc, a.id desc`;

export function pageQuery(f: ActionFilter, limit: number, offset: number): SQL {
  return sql`select a.id, a.type, a.node, a.parent_node, a.chain_id, a.incremental_duration, a.registrant,
      a.base_cost, a.premium, a.total, a.encoded_referrer, a.decoded_referrer, a.block_number, a.block_timestamp,
      a.transaction_hash, a.event_ids, s.chain_id as sub_chain_id, s.address as sub_address, s.node as sub_node,
      l.expires_at, l.label, l.labelhash, d.name as domain_name
    from registrar_action a
    join registration_lifecycle l on l.id = a.node
    join subregistry s on s.id = a.subregistry_id
    left join domain d on d.id = a.node
    where ${whereOf(f)}
    order by ${NEWEST_FIRST}
    limit ${limit} offset ${offset}`;
}

export function countQuery(f: ActionFilter): SQL {
  return sql`select count(*)::int as n from registrar_action a where ${whereOf(f)}`;
}

interface ActionRow {
  id: string;
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
}

const eth = (amount: string): PriceEth => ({ currency: "ETH", amount });

export function toNamedAction(row: ActionRow, managedNameByNode: ReadonlyMap<string, string>): NamedRegistrarAction {
  const pricing =
    row.base_cost !== null && row.premium !== null && row.total !== null
      ? { baseCost: eth(row.base_cost), premium: eth(row.premium), total: eth(row.total) }
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
