import { type SQL, sql } from "drizzle-orm";
import type { Hex } from "viem";
import type { Namespace } from "../../namespaces/types";
import type { OmnigraphContext } from "./context";
import { type Connection, decodeLogCursor, encodeLogCursor, type PageArgs, pageWindow } from "./cursor";
import {
  bytesValue,
  factsOfRow,
  hexOut,
  LOG_COLUMNS,
  LOG_COLUMNS_OUT,
  type LogFacts,
  type LogFactsRow,
  type LogPlace,
  loadLogFacts,
} from "./event-facts";
import { type EventsWhere, eventsWhereConditions } from "./event-filters";
import { keyedConnection, list } from "./keyset";

/*
 * Events, every field from the index: the other tables name an event by its id and position (the subgraph's event
 * tables, registrar actions, ENSv2's), `indexed_log` holds the rest (topics, data, sender, timestamp: event-facts.ts).
 * No field reads the chain.
 */

export interface EventModel {
  id: string;
  chainId: number;
  blockNumber: bigint;
  logIndex: number;
  transactionHash: Hex;
  timestamp?: bigint;
  /** Read with the event's list; an event a model holds alone loads them by position. */
  facts?: LogFacts;
}

/** The log an event id names: `<block>-<logIndex>[-<sub>][-<chainId>]` of the subgraph tables. */
function placeOfEventId(id: string, rootChainId: number, hasSubIndex: boolean): LogPlace {
  const parts = id.split("-");
  // Root-chain ids have 2 parts (3 with an ERC-1155 batch's sub-index); other chains' append the chain id.
  const hasChain = parts.length > (hasSubIndex ? 3 : 2);
  const chainId = hasChain ? Number(parts[parts.length - 1]) : rootChainId;
  return { chainId, blockNumber: BigInt(parts[0]!), logIndex: Number(parts[1]) };
}

/** The event of a subgraph table's row: its id and transaction. */
export function eventOf(
  id: string,
  transactionHash: string,
  rootChainId: number,
  timestamp?: bigint | string | null,
  hasSubIndex = false,
): EventModel {
  return {
    id,
    ...placeOfEventId(id, rootChainId, hasSubIndex),
    transactionHash: transactionHash as Hex,
    ...(timestamp != null ? { timestamp: BigInt(timestamp) } : {}),
  };
}

/** The event of a log the index names by id alone (a 3DNS registration's): its transaction is `indexed_log`'s. */
export async function eventOfLogId(ctx: OmnigraphContext, id: string, rootChainId: number): Promise<EventModel> {
  const place = placeOfEventId(id, rootChainId, false);
  const facts = await loadLogFacts(ctx, place);
  return { id, ...place, transactionHash: facts.transactionHash, timestamp: facts.timestamp, facts };
}

const factsOf = (ctx: OmnigraphContext, e: EventModel): LogFacts | Promise<LogFacts> => e.facts ?? loadLogFacts(ctx, e);

type Field<T> = (e: EventModel, _: unknown, ctx: OmnigraphContext) => T | Promise<T>;
const fact =
  <T>(pick: (f: LogFacts) => T): Field<T> =>
  async (e, _, ctx) =>
    pick(await factsOf(ctx, e));

export const eventResolvers = {
  id: (e: EventModel) => e.id,
  chainId: (e: EventModel) => e.chainId,
  blockNumber: (e: EventModel) => e.blockNumber,
  logIndex: (e: EventModel) => e.logIndex,
  transactionHash: (e: EventModel) => e.transactionHash,
  timestamp: ((e, _, ctx) => e.timestamp ?? fact((f) => f.timestamp)(e, _, ctx)) as Field<bigint>,
  blockHash: fact((f) => f.blockHash),
  transactionIndex: fact((f) => f.transactionIndex),
  from: fact((f) => f.from),
  // No smart-account attribution here: the sender is the transaction's (docs/api.md).
  sender: fact((f) => f.from),
  to: fact((f) => f.to),
  address: fact((f) => f.address),
  topics: fact((f) => f.topics),
  data: fact((f) => f.data),
};

/*
 * Every list reads rows of the same columns: id, chain_id, block_number, log_index, sub_index (an ERC-1155 batch's
 * transfer, else 0), transaction_hash, scope (the key the list is read by) and `indexed_log`'s facts, which its
 * `where` filters. Lists are ordered by the log's position as numbers, (block_number, log_index, sub_index), never by
 * the text id: `12-1002` sorts before `12-997`. The id breaks ties (an account's list spans chains).
 */

/** Where a list's events come from: their rows for the keys of one level (each row's key as `scope`). */
export interface EventSource {
  name: string;
  rows: (keys: string[], rootChainId: number) => SQL;
}

/**
 * The rows of events other tables name by position (`positions`: id, chain_id, block_number, log_index, sub_index,
 * scope), with their facts from `indexed_log` by its primary key.
 */
const positionedSource = (name: string, positions: (rootChainId: number) => string): EventSource => ({
  name,
  rows: (keys, rootChainId) =>
    sql`select p.id, p.chain_id, p.block_number, p.log_index, p.sub_index, p.scope, ${LOG_COLUMNS} from (${sql.raw(positions(rootChainId))}) p join indexed_log l on l.chain_id = p.chain_id and l.block_number = p.block_number and l.log_index = p.log_index where p.scope in (${list(keys)})`,
});

/**
 * Position and chain of a subgraph event id (`<block>-<logIndex>[-<sub>][-<chainId>]`), as numbers. A table with
 * sub-indexes always writes one; an id without it (hand-made rows) counts as sub-index 0 rather than failing. Ids of
 * the root chain have no chain part.
 */
const positionOf = (id: string, rootChainId: number, hasSub = false) =>
  `split_part(${id}, '-', 2)::int as log_index, ${hasSub ? `coalesce(nullif(split_part(${id}, '-', 3), ''), '0')::int` : "0"} as sub_index, coalesce(nullif(split_part(${id}, '-', ${hasSub ? 4 : 3}), ''), '${rootChainId}')::int as chain_id`;

/**
 * The subgraph's registry event tables. The registry handlers keep the old registry's logs about a node only until the
 * registry with fallback has written it (src/plugins/shared/ens-handlers/registry.ts, `isMigrated`): the chain
 * reads a node there from then on and ignores the old registry's later logs about it.
 */
const REGISTRY_EVENT_TABLES = ["transfer", "new_owner", "new_resolver", "new_ttl"];

/**
 * Which logs a list holds, one rule for every list (`Domain.events` reads the event tables, `Account.events` and
 * `Resolver.events` every handled log in `indexed_log`): a log of the ENS root chain's old registry is an event only
 * where a registry event table kept it, so an account's list leaves out what its domains' lists do (without the
 * subgraph plugin, which alone tells which nodes had migrated, no old-registry log is listed). A condition on a list's
 * rows `x` (`id`, `chain_id`, `address`); none where the namespace has no old registry.
 */
function countedLogsCondition(namespace: Namespace): SQL | null {
  const root = namespace.datasources.ensroot;
  const old = root?.contracts.RegistryOld?.address?.toLowerCase();
  if (!root || !old) return null;
  const kept = REGISTRY_EVENT_TABLES.map((t) => sql`exists (select 1 from ${sql.raw(t)} k where k.id = x.id)`);
  return sql`(x.address <> ${bytesValue(old)!} or x.chain_id <> ${root.chain.id} or ${sql.join(kept, sql` or `)})`;
}

/**
 * The subgraph's event tables of a domain (registry, NameWrapper) and of its registration (base registrar), and the
 * events its controller added to the registrar action of each registration and renewal (`registrar_action.event_ids`
 * after the base registrar's own, which name_registered/name_renewed already hold): the controller's NameRegistered
 * or NameRenewed, and a renewal-with-referrer's RenewalReferred. The registrars plugin keeps them; without it a
 * domain's list has the subgraph tables' events only.
 */
const ENSV1_DOMAIN_EVENTS = positionedSource("ENSv1", (root) =>
  [...REGISTRY_EVENT_TABLES, "wrapped_transfer", "name_wrapped", "name_unwrapped", "fuses_set", "expiry_extended"]
    .map(
      (t) =>
        `select id, block_number, ${positionOf("id", root, t === "wrapped_transfer")}, domain_id as scope from ${t}`,
    )
    .concat(
      ["name_registered", "name_renewed", "name_transferred"].map(
        (t) =>
          `select e.id, e.block_number, ${positionOf("e.id", root)}, r.domain_id as scope from ${t} e join registration r on r.id = e.registration_id`,
      ),
      [
        `select c.id, a.block_number, split_part(c.id, '-', 2)::int as log_index, 0 as sub_index, a.chain_id, a.node as scope from registrar_action a cross join lateral unnest(a.event_ids[2:]) as c(id)`,
      ],
    )
    .join(" union all "),
);

/** ENSv2's events (ensv2_event) in each name's history (ensv2_domain_event: a TransferBatch in each moved name's). */
export const ENSV2_DOMAIN_EVENTS = positionedSource(
  "ENSv2",
  () =>
    "select event_id as id, block_number, log_index, 0 as sub_index, chain_id, domain_id as scope from ensv2_domain_event",
);

/** Each EACRolesChanged (ensv2_permission_change), by its contract (`<chainId>-<contract>`). */
export const PERMISSIONS_EVENTS = positionedSource(
  "ENSv2-permissions",
  () =>
    "select id, block_number, log_index, 0 as sub_index, chain_id, contract_id as scope from ensv2_permission_change",
);

/** Each EACRolesChanged, by the entry it changed (`<chainId>-<contract>-<resource>-<account>`, ensv2_permission's id). */
export const PERMISSIONS_USER_EVENTS = positionedSource(
  "ENSv2-permissions-user",
  () =>
    "select id, block_number, log_index, 0 as sub_index, chain_id, permission_id as scope from ensv2_permission_change",
);

/** A log's id as the subgraph writes one: `<block>-<logIndex>`, with `-<chainId>` off the root chain (src/lib/ids.ts). */
const logIdOf = (rootChainId: number) =>
  sql`l.block_number || '-' || l.log_index || case when l.chain_id = ${rootChainId} then '' else '-' || l.chain_id end`;

/** Rows read from `indexed_log` alone, by one of its indexes. */
const loggedSource = (name: string, scope: string, keyed: (keys: string[]) => SQL): EventSource => ({
  name,
  rows: (keys, rootChainId) =>
    sql`select ${logIdOf(rootChainId)} as id, l.chain_id, l.block_number, l.log_index, 0 as sub_index, ${sql.raw(scope)} as scope, ${LOG_COLUMNS} from indexed_log l where ${keyed(keys)}`,
});

/** The keys' addresses as bytea values (a key that is not hex matches nothing). */
const addressValues = (addresses: string[]) => {
  const values = addresses.map(bytesValue).filter((v): v is SQL => v !== null);
  return values.length ? sql.join(values, sql`, `) : sql`null`;
};

/** Every event of the transactions an account sent, on every chain (`indexed_log.by_sender`). */
export const ACCOUNT_EVENTS = loggedSource(
  "account",
  hexOut("l.transaction_from"),
  (keys) => sql`l.transaction_from in (${addressValues(keys)})`,
);

/** Every event a contract emitted on its chain, keyed `<chainId>-<address>` (`indexed_log.by_emitter`). */
export const EMITTER_EVENTS = loggedSource("emitter", `l.chain_id || '-' || ${hexOut("l.address")}`, (keys) => {
  const pairs = keys.flatMap((k) => {
    const [chain, address] = k.split("-");
    const value = bytesValue(address ?? "");
    return value ? [sql`(${value}, ${Number(chain)}::int)`] : [];
  });
  return pairs.length ? sql`(l.address, l.chain_id) in (${sql.join(pairs, sql`, `)})` : sql`false`;
});

interface EventRow extends LogFactsRow {
  id: string;
  chain_id: number;
  block_number: string;
  log_index: number;
  sub_index: number;
  transaction_hash: string;
  scope: string;
}

/** An event's cursor: its log's position in the list and its id. */
const cursorOfEvent = (r: EventRow) => encodeLogCursor(r.block_number, r.log_index, r.sub_index, r.id);

const nodeOfEvent = (r: EventRow): EventModel => ({
  id: r.id,
  chainId: Number(r.chain_id),
  blockNumber: BigInt(r.block_number),
  logIndex: Number(r.log_index),
  transactionHash: r.transaction_hash as Hex,
  facts: factsOfRow(r),
});

export type EventsArgs = PageArgs & { where?: EventsWhere | null };

/** A batcher's name for these arguments (timestamps are bigints, which JSON.stringify refuses). */
const argsKey = (args: EventsArgs) => JSON.stringify(args, (_, v) => (typeof v === "bigint" ? v.toString() : v));

/**
 * One key's events (a domain's, a permission entry's, a contract's, an account's, a resolver's), oldest first by
 * their logs' positions, filtered by `where`; one statement per level for every key of the level.
 */
export function eventsConnection(
  ctx: OmnigraphContext,
  key: string,
  args: EventsArgs,
  rootChainId: number,
  source: EventSource,
): Promise<Connection<EventModel>> {
  const page = { first: args.first, last: args.last, after: args.after, before: args.before };
  const counted = countedLogsCondition(ctx.deps.namespace);
  const filters = [...(counted ? [counted] : []), ...eventsWhereConditions(args.where)];
  return keyedConnection<EventRow, EventModel>(
    ctx,
    {
      pages: `events:${source.name}:${argsKey(args)}`,
      counts: `event-counts:${source.name}:${argsKey({ where: args.where })}`,
      pageQuery: (keys) => {
        const { size, backward } = pageWindow(page);
        const dir = sql.raw(backward ? "desc" : "asc");
        const conds = [sql`true`, ...filters];
        for (const [cursor, op] of [
          [page.after, ">"],
          [page.before, "<"],
        ] as const) {
          if (cursor == null) continue;
          const { block, log, sub, id } = decodeLogCursor(cursor);
          conds.push(
            sql`(block_number, log_index, sub_index, id) ${sql.raw(op)} (${block}::numeric, ${log}, ${sub}, ${id})`,
          );
        }
        return sql`select id, chain_id, block_number::text as block_number, log_index, sub_index, scope, ${LOG_COLUMNS_OUT} from (select x.*, row_number() over (partition by scope order by block_number ${dir}, log_index ${dir}, sub_index ${dir}, id ${dir}) as rn from (${source.rows(keys, rootChainId)}) x where ${sql.join(conds, sql` and `)}) y where rn <= ${size + 1} order by scope, rn`;
      },
      countQuery: (keys) =>
        sql`select scope, count(*)::int as count from (${source.rows(keys, rootChainId)}) x where ${sql.join([sql`true`, ...filters], sql` and `)} group by scope`,
      cursorOf: cursorOfEvent,
      nodeOf: nodeOfEvent,
    },
    key,
    page,
  );
}

/** A domain's events (ENSv1's unless another source is given). */
export const domainEvents = (
  ctx: OmnigraphContext,
  domainId: string,
  args: EventsArgs,
  rootChainId: number,
  source: EventSource = ENSV1_DOMAIN_EVENTS,
) => eventsConnection(ctx, domainId, args, rootChainId, source);
