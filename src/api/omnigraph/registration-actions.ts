import { type SQL, sql } from "drizzle-orm";
import type { Hex } from "viem";
import { Batcher } from "./batch";
import type { OmnigraphContext } from "./context";
import { type Connection, decodeLogCursor, encodeLogCursor, type PageArgs, pageWindow } from "./cursor";
import { keyedConnection, list } from "./keyset";
import type { RenewalModel } from "./resolvers/renewal";

/*
 * What the registrars plugin's `registrar_action` adds to a base registrar's (ENSv1) registration: its price and
 * referrer, and its renewals. A registration's action is the one whose id is the registration's event id (both are
 * the base registrar's NameRegistered, named by the same event-id function), so a lookup by primary key finds it.
 * Without the registrars plugin the table is empty: no price, no renewals.
 */

export interface RegistrationPrice {
  baseCost: bigint | null;
  premium: bigint | null;
  referrer: Hex | null;
}

const NO_PRICE: RegistrationPrice = { baseCost: null, premium: null, referrer: null };

const bigintOrNull = (v: string | null) => (v == null ? null : BigInt(v));

/** The price and referrer of each registration action asked at one level, in one statement (by primary key). */
export function loadRegistrationPrice(ctx: OmnigraphContext, actionId: string): Promise<RegistrationPrice> {
  return ctx
    .batcher(
      "v1-registration-prices",
      () =>
        new Batcher<string, RegistrationPrice>(async (ids) => {
          const rows = await ctx.query<{
            id: string;
            base_cost: string | null;
            premium: string | null;
            encoded_referrer: Hex | null;
          }>(
            sql`select id, base_cost::text as base_cost, premium::text as premium, encoded_referrer
              from registrar_action where id in (${list(ids)}) and type = 'registration'`,
          );
          return new Map(
            rows.map((r) => [
              r.id,
              { baseCost: bigintOrNull(r.base_cost), premium: bigintOrNull(r.premium), referrer: r.encoded_referrer },
            ]),
          );
        }, NO_PRICE),
    )
    .load(actionId);
}

interface RenewalRow {
  scope: string;
  id: string;
  chain_id: number;
  block_number: string;
  block_timestamp: string;
  log_index: number;
  transaction_hash: Hex;
  duration: string;
  base_cost: string | null;
  premium: string | null;
  encoded_referrer: string | null;
}

/**
 * The renewals of registration actions `a` (`keys`): the same node's renewal actions after `a` and before the node's
 * next registration (a re-registration after expiry starts a registration of its own). Both sides are read through
 * the `node` index.
 */
function renewalsFrom(keys: string[]): SQL {
  return sql`from registrar_action a
    join registrar_action n on n.node = a.node and n.chain_id = a.chain_id and n.type = 'renewal'
      and (n.block_number, n.log_index) > (a.block_number, a.log_index)
    where a.id in (${list(keys)}) and a.type = 'registration'
      and not exists (select 1 from registrar_action later where later.node = a.node and later.chain_id = a.chain_id
        and later.type = 'registration'
        and (later.block_number, later.log_index) > (a.block_number, a.log_index)
        and (later.block_number, later.log_index) < (n.block_number, n.log_index))`;
}

/** A renewal's cursor: its log's position (no batches: sub-index 0) and its id. */
const cursorOfRenewal = (r: RenewalRow) => encodeLogCursor(r.block_number, r.log_index, 0, r.id);

const renewalOf = (r: RenewalRow): RenewalModel => ({
  id: r.id,
  duration: BigInt(r.duration),
  base: bigintOrNull(r.base_cost),
  premium: bigintOrNull(r.premium),
  referrer: r.encoded_referrer,
  event: {
    id: r.id,
    chainId: r.chain_id,
    blockNumber: BigInt(r.block_number),
    logIndex: r.log_index,
    transactionHash: r.transaction_hash,
    timestamp: BigInt(r.block_timestamp),
  },
});

/** A registration's renewals, oldest first: one statement for the pages of every registration of the level. */
export function registrationRenewals(
  ctx: OmnigraphContext,
  actionId: string,
  args: PageArgs,
): Promise<Connection<RenewalModel>> {
  return keyedConnection<RenewalRow, RenewalModel>(
    ctx,
    {
      pages: `v1-renewals:${JSON.stringify([args.first, args.last, args.after, args.before])}`,
      counts: "v1-renewal-counts",
      pageQuery: (keys) => {
        const { size, backward } = pageWindow(args);
        const dir = sql.raw(backward ? "desc" : "asc");
        const bounds: SQL[] = [];
        for (const [cursor, op] of [
          [args.after, ">"],
          [args.before, "<"],
        ] as const) {
          if (cursor == null) continue;
          const { block, log, id } = decodeLogCursor(cursor);
          bounds.push(sql` and (n.block_number, n.log_index, n.id) ${sql.raw(op)} (${block}::bigint, ${log}, ${id})`);
        }
        return sql`select * from (select n.id, n.chain_id, n.block_number::text as block_number,
            n.block_timestamp::text as block_timestamp, n.log_index, n.transaction_hash,
            n.incremental_duration::text as duration, n.base_cost::text as base_cost, n.premium::text as premium,
            n.encoded_referrer, a.id as scope,
            row_number() over (partition by a.id order by n.block_number ${dir}, n.log_index ${dir}, n.id ${dir}) as rn
          ${renewalsFrom(keys)}${sql.join(bounds)}) x
          where rn <= ${size + 1} order by scope, rn`;
      },
      countQuery: (keys) => sql`select a.id as scope, count(*)::int as count ${renewalsFrom(keys)} group by a.id`,
      cursorOf: cursorOfRenewal,
      nodeOf: renewalOf,
    },
    actionId,
    args,
  );
}
