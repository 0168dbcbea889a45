import { type SQL, sql } from "drizzle-orm";
import { Batcher } from "./batch";
import type { OmnigraphContext } from "./context";
import { DOMAIN_COLUMNS, type DomainRow, domainsByIdQuery } from "./domain-sql";
import { type V2DomainRow, v2DomainByNodeJoin, v2DomainOfPrefixed } from "./ensv2/sql";
import { list } from "./keyset";
import {
  REGISTRATION_COLUMNS,
  type RegistrationCarrier,
  registrationEntryOf,
  registrationJoins,
} from "./registration-sql";

/**
 * One row by key (lowercased), every lookup of one level of the answer in one statement: `query` fetches the rows of
 * many keys, `keyOf` reads a row's key back.
 */
export function loadRowByKey<Row>(
  ctx: OmnigraphContext,
  name: string,
  query: (keys: string[]) => SQL,
  keyOf: (row: Row) => string,
  key: string,
): Promise<Row | null> {
  return ctx
    .batcher(
      name,
      () =>
        new Batcher<string, Row | null>(async (keys) => {
          const rows = await ctx.query<Row>(query(keys));
          return new Map(rows.map((r) => [keyOf(r), r]));
        }, null),
    )
    .load(key.toLowerCase());
}

/**
 * Domains by id (node), every lookup of one level of the answer in one statement; `withRegistration` when the query
 * asks for their registration, which the same statement then brings (`loadRegistration` answers from the row).
 */
export function loadDomain(ctx: OmnigraphContext, id: string, withRegistration = false): Promise<DomainRow | null> {
  if (!withRegistration) return loadRowByKey(ctx, "domain-by-id", domainsByIdQuery, (r: DomainRow) => r.id, id);
  return loadRowByKey(
    ctx,
    "domain-by-id+registration",
    (ids) =>
      sql`select ${DOMAIN_COLUMNS}, ${REGISTRATION_COLUMNS} from domain d ${registrationJoins(sql.raw("d.id"))} where d.id in (${list(ids)})`,
    (r: DomainRow) => r.id,
    id,
  ).then((row) => (row ? carryRegistration(row) : null));
}

/** A row read with `REGISTRATION_COLUMNS`, its registration entry attached for `loadRegistration`. */
export function carryRegistration<R extends DomainRow>(row: R): R {
  (row as RegistrationCarrier).registration = registrationEntryOf(row as Record<string, never>, row.id);
  return row;
}

/**
 * A name's domain in each version by its node, both in one statement (and the ENSv1 domain's registration with them
 * when asked): what `domain(by: { name })` chooses between.
 */
export function loadDomainsByNode(
  ctx: OmnigraphContext,
  node: string,
  withRegistration: boolean,
): Promise<{ v1: DomainRow | null; v2: V2DomainRow | null }> {
  type Found = { v1: DomainRow | null; v2: V2DomainRow | null };
  return ctx
    .batcher(
      withRegistration ? "domains-by-node+registration" : "domains-by-node",
      () =>
        new Batcher<string, Found>(
          async (nodes) => {
            const rows = await ctx.query<DomainRow & { by_node: string }>(
              sql`select n.node as by_node, ${DOMAIN_COLUMNS}, ${withRegistration ? sql`${REGISTRATION_COLUMNS}, ` : sql``}${v2ColumnsOfJoin} from unnest(array[${list(nodes)}]::text[]) as n(node) left join domain d on d.id = n.node ${withRegistration ? registrationJoins(sql.raw("d.id")) : sql``} ${v2DomainByNodeJoin(sql.raw("n.node"))}`,
            );
            return new Map(
              rows.map((row) => [
                row.by_node,
                {
                  v1: row.id == null ? null : withRegistration ? carryRegistration(row) : row,
                  v2: v2DomainOfPrefixed(row as unknown as Record<string, unknown>),
                },
              ]),
            );
          },
          { v1: null, v2: null },
        ),
    )
    .load(node.toLowerCase());
}

const v2ColumnsOfJoin = sql.raw("v2d.*");
