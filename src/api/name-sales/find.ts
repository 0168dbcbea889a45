import { type SQL, sql } from "drizzle-orm";
import type { Hex } from "viem";
import { rowsOf } from "../../lib/sql-rows";
import { nameOf } from "../shared/managed-names";
import type { SqlDb } from "../shared/read-db";

export interface SaleFilter {
  domainId?: Hex;
  buyer?: Hex;
  seller?: Hex;
  beginTimestamp?: number;
  endTimestamp?: number;
}

export interface SalePrice {
  currency: "ETH" | "ERC20";
  /** The ERC-20's address; null for ETH. */
  token: Hex | null;
  /** In the currency's smallest unit (wei for ETH), as a decimal string. */
  amount: string;
}

export interface NameSaleJson {
  id: string;
  orderHash: Hex;
  domainId: Hex;
  /** The name when the index knows it (subgraph tables or a registrar's label), else null. */
  name: string | null;
  token: { assetNamespace: "erc721" | "erc1155"; contract: { chainId: number; address: Hex }; tokenId: Hex };
  seller: Hex;
  buyer: Hex;
  price: SalePrice;
  sellerProceeds: SalePrice;
  block: { number: number; timestamp: number };
  transactionHash: Hex;
  logIndex: number;
}

/** Each filter is one indexed predicate ending in the list's order (ponder.schema.ts, nameSale). */
function whereOf(f: SaleFilter): SQL {
  const conditions: SQL[] = [];
  if (f.domainId !== undefined) conditions.push(sql`s.domain_id = ${f.domainId}`);
  if (f.buyer !== undefined) conditions.push(sql`s.buyer = ${f.buyer}`);
  if (f.seller !== undefined) conditions.push(sql`s.seller = ${f.seller}`);
  if (f.beginTimestamp !== undefined) conditions.push(sql`s.block_timestamp >= ${f.beginTimestamp}`);
  if (f.endTimestamp !== undefined) conditions.push(sql`s.block_timestamp <= ${f.endTimestamp}`);
  return conditions.length === 0 ? sql`true` : sql.join(conditions, sql` and `);
}

/** Newest first, with the registrar actions' tie-break, so pages never overlap or skip. */
const NEWEST_FIRST = sql`s.block_timestamp desc, s.block_number desc, s.log_index desc, s.id desc`;

export function salesPageQuery(f: SaleFilter, limit: number, offset: number): SQL {
  return sql`select s.id, s.chain_id, s.order_hash, s.domain_id, s.contract, s.token_id, s.asset_namespace, s.seller,
      s.buyer, s.currency, s.currency_token, s.price, s.seller_proceeds, s.block_number, s.block_timestamp, s.log_index,
      s.transaction_hash, d.name as domain_name, l.label, l.labelhash, l.parent_node
    from name_sale s
    left join registration_lifecycle l on l.id = s.domain_id
    left join domain d on d.id = s.domain_id
    where ${whereOf(f)}
    order by ${NEWEST_FIRST}
    limit ${limit} offset ${offset}`;
}

export function salesCountQuery(f: SaleFilter): SQL {
  return sql`select count(*)::int as n from name_sale s where ${whereOf(f)}`;
}

interface SaleRow {
  id: string;
  chain_id: number;
  order_hash: Hex;
  domain_id: Hex;
  contract: Hex;
  token_id: Hex;
  asset_namespace: "erc721" | "erc1155";
  seller: Hex;
  buyer: Hex;
  currency: "ETH" | "ERC20";
  currency_token: Hex | null;
  price: string;
  seller_proceeds: string;
  block_number: string;
  block_timestamp: string;
  log_index: number;
  transaction_hash: Hex;
  domain_name: string | null;
  label: string | null;
  labelhash: Hex | null;
  parent_node: Hex | null;
}

export function toSaleJson(row: SaleRow, managedNameByNode: ReadonlyMap<string, string>): NameSaleJson {
  const price = (amount: string): SalePrice => ({
    currency: row.currency,
    token: row.currency_token,
    amount: String(amount),
  });
  const name =
    row.domain_name ??
    (row.labelhash !== null && row.parent_node !== null
      ? nameOf(
          { domain_name: null, label: row.label, labelhash: row.labelhash, parent_node: row.parent_node },
          managedNameByNode,
        )
      : null);
  return {
    id: row.id,
    orderHash: row.order_hash,
    domainId: row.domain_id,
    name,
    token: {
      assetNamespace: row.asset_namespace,
      contract: { chainId: Number(row.chain_id), address: row.contract },
      tokenId: row.token_id,
    },
    seller: row.seller,
    buyer: row.buyer,
    price: price(row.price),
    sellerProceeds: price(row.seller_proceeds),
    block: { number: Number(row.block_number), timestamp: Number(row.block_timestamp) },
    transactionHash: row.transaction_hash,
    logIndex: Number(row.log_index),
  };
}

export async function findNameSales(
  db: SqlDb,
  filter: SaleFilter,
  page: number,
  limit: number,
  managedNameByNode: ReadonlyMap<string, string>,
): Promise<{ sales: NameSaleJson[]; totalRecords: number }> {
  const [rows, count] = await Promise.all([
    db.execute(salesPageQuery(filter, limit, (page - 1) * limit)),
    db.execute(salesCountQuery(filter)),
  ]);
  return {
    sales: rowsOf<SaleRow>(rows).map((r) => toSaleJson(r, managedNameByNode)),
    totalRecords: Number(rowsOf<{ n: number }>(count)[0]?.n ?? 0),
  };
}
