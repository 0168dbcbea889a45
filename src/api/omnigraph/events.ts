import { type SQL, sql } from "drizzle-orm";
import { type Address, createPublicClient, type Hex, http, type PublicClient } from "viem";
import { LruCache } from "../../lib/healing/lru";
import { Batcher } from "./batch";
import type { OmnigraphContext } from "./context";
import { type Connection, decodeLogCursor, encodeLogCursor, type PageArgs, pageWindow } from "./cursor";
import { keyedConnection, list } from "./keyset";

/*
 * Events of the ENSv1 graph. The index keeps each event's chain, block, log index and transaction (the subgraph's
 * event tables); what it does not keep (the log's topics and data, the transaction's sender, the block's timestamp)
 * is read from the chain's RPC when a query asks for it, one receipt and one block per transaction, cached.
 */

export interface EventModel {
  id: string;
  chainId: number;
  blockNumber: bigint;
  logIndex: number;
  transactionHash: Hex;
  timestamp?: bigint;
}

/** `<block>-<logIndex>[-<sub>][-<chainId>]` of the subgraph tables. */
export function eventOf(
  id: string,
  transactionHash: string,
  rootChainId: number,
  timestamp?: bigint | string | null,
  hasSubIndex = false,
): EventModel {
  const parts = id.split("-");
  // Root-chain ids have 2 parts (3 with an ERC-1155 batch's sub-index); other chains' append the chain id.
  const hasChain = parts.length > (hasSubIndex ? 3 : 2);
  const chainId = hasChain ? Number(parts[parts.length - 1]) : rootChainId;
  return {
    id,
    chainId,
    blockNumber: BigInt(parts[0]!),
    logIndex: Number(parts[1]),
    transactionHash: transactionHash as Hex,
    ...(timestamp != null ? { timestamp: BigInt(timestamp) } : {}),
  };
}

interface ChainFacts {
  from: Address;
  to: Address | null;
  transactionIndex: number;
  blockHash: Hex;
  timestamp: bigint;
  logs: { logIndex: number; address: Address; topics: Hex[]; data: Hex }[];
}

const clients = new Map<string, PublicClient>();
const facts = new LruCache<string, ChainFacts>(10_000);

function clientFor(ctx: OmnigraphContext, chainId: number): PublicClient {
  const url = ctx.deps.rpcUrls.get(chainId);
  if (!url) throw new Error(`no RPC URL for chain ${chainId}`);
  let client = clients.get(url);
  if (!client)
    clients.set(url, (client = createPublicClient({ transport: http(url, { batch: true }) }) as PublicClient));
  return client;
}

async function readFacts(ctx: OmnigraphContext, chainId: number, tx: Hex): Promise<ChainFacts> {
  const key = `${chainId}:${tx}`;
  const known = facts.get(key);
  if (known) return known;
  const client = clientFor(ctx, chainId);
  const receipt = await client.getTransactionReceipt({ hash: tx });
  const block = await client.getBlock({ blockHash: receipt.blockHash });
  const read: ChainFacts = {
    from: receipt.from.toLowerCase() as Address,
    to: (receipt.to?.toLowerCase() ?? null) as Address | null,
    transactionIndex: receipt.transactionIndex,
    blockHash: receipt.blockHash,
    timestamp: block.timestamp,
    logs: receipt.logs.map((l) => ({
      logIndex: l.logIndex,
      address: l.address.toLowerCase() as Address,
      topics: l.topics as Hex[],
      data: l.data,
    })),
  };
  facts.set(key, read);
  return read;
}

/** The chain's facts of an event's transaction, batched per request (the transactions of one level together). */
export function chainFactsOf(ctx: OmnigraphContext, event: EventModel): Promise<ChainFacts> {
  const batcher = ctx.batcher(
    "event-facts",
    () =>
      new Batcher<string, ChainFacts | null>(async (keys) => {
        const out = new Map<string, ChainFacts | null>();
        await Promise.all(
          keys.map(async (k) => {
            const [chain, tx] = k.split(":");
            out.set(k, await readFacts(ctx, Number(chain), tx as Hex));
          }),
        );
        return out;
      }, null),
  );
  return batcher.load(`${event.chainId}:${event.transactionHash}`).then((f) => {
    if (!f) throw new Error(`transaction ${event.transactionHash} not found on chain ${event.chainId}`);
    return f;
  });
}

const logOf = async (ctx: OmnigraphContext, e: EventModel) => {
  const f = await chainFactsOf(ctx, e);
  const log = f.logs.find((l) => l.logIndex === e.logIndex);
  if (!log) throw new Error(`log ${e.logIndex} of ${e.transactionHash} not found on chain ${e.chainId}`);
  return log;
};

export const eventResolvers = {
  id: (e: EventModel) => e.id,
  chainId: (e: EventModel) => e.chainId,
  blockNumber: (e: EventModel) => e.blockNumber,
  logIndex: (e: EventModel) => e.logIndex,
  transactionHash: (e: EventModel) => e.transactionHash,
  timestamp: async (e: EventModel, _: unknown, ctx: OmnigraphContext) =>
    e.timestamp ?? (await chainFactsOf(ctx, e)).timestamp,
  blockHash: async (e: EventModel, _: unknown, ctx: OmnigraphContext) => (await chainFactsOf(ctx, e)).blockHash,
  transactionIndex: async (e: EventModel, _: unknown, ctx: OmnigraphContext) =>
    (await chainFactsOf(ctx, e)).transactionIndex,
  from: async (e: EventModel, _: unknown, ctx: OmnigraphContext) => (await chainFactsOf(ctx, e)).from,
  sender: async (e: EventModel, _: unknown, ctx: OmnigraphContext) => (await chainFactsOf(ctx, e)).from,
  to: async (e: EventModel, _: unknown, ctx: OmnigraphContext) => (await chainFactsOf(ctx, e)).to,
  address: async (e: EventModel, _: unknown, ctx: OmnigraphContext) => (await logOf(ctx, e)).address,
  topics: async (e: EventModel, _: unknown, ctx: OmnigraphContext) => (await logOf(ctx, e)).topics,
  data: async (e: EventModel, _: unknown, ctx: OmnigraphContext) => (await logOf(ctx, e)).data,
};

/*
 * Every events source selects the same columns: id, block_number, log_index, sub_index (an ERC-1155 batch's
 * transfer, else 0), transaction_id, scope (the key a list is read by) and has_sub. Lists are ordered by the log's
 * position as numbers, (block_number, log_index, sub_index), never by the text id: `12-1002` sorts before `12-997`.
 */

/**
 * Log index and sub-index of a subgraph event id (`<block>-<logIndex>[-<sub>][-<chainId>]`), as numbers. A table
 * with sub-indexes always writes one; an id without it (hand-made rows) counts as sub-index 0 rather than failing.
 */
const positionOf = (id: string, hasSub = false) =>
  `split_part(${id}, '-', 2)::int as log_index, ${hasSub ? `coalesce(nullif(split_part(${id}, '-', 3), ''), '0')::int` : "0"} as sub_index`;

/**
 * The subgraph's event tables of a domain (registry, NameWrapper) and of its registration (base registrar), and the
 * events its controller added to the registrar action of each registration and renewal (`registrar_action.event_ids`
 * after the base registrar's own, which name_registered/name_renewed already hold): the controller's NameRegistered
 * or NameRenewed, and a renewal-with-referrer's RenewalReferred. The registrars plugin keeps them; without it a
 * domain's list has the subgraph tables' events only.
 */
const DOMAIN_EVENTS = sql.raw(
  [
    "transfer",
    "new_owner",
    "new_resolver",
    "new_ttl",
    "wrapped_transfer",
    "name_wrapped",
    "name_unwrapped",
    "fuses_set",
    "expiry_extended",
  ]
    .map((t) => {
      const hasSub = t === "wrapped_transfer";
      return `select id, block_number, ${positionOf("id", hasSub)}, transaction_id, domain_id as scope, ${hasSub} as has_sub from ${t}`;
    })
    .concat(
      ["name_registered", "name_renewed", "name_transferred"].map(
        (t) =>
          `select e.id, e.block_number, ${positionOf("e.id")}, e.transaction_id, r.domain_id as scope, false as has_sub from ${t} e join registration r on r.id = e.registration_id`,
      ),
      [
        `select c.id, a.block_number::int as block_number, ${positionOf("c.id")}, a.transaction_hash as transaction_id, a.node as scope, false as has_sub from registrar_action a cross join lateral unnest(a.event_ids[2:]) as c(id)`,
      ],
    )
    .join(" union all "),
);

/** ENSv2's events as emitted (ensv2_event), by the domain they are about: the same columns as DOMAIN_EVENTS. */
export const ENSV2_DOMAIN_EVENTS = {
  name: "ENSv2",
  sql: sql.raw(
    "select id, block_number, log_index, 0 as sub_index, transaction_hash as transaction_id, domain_id as scope, false as has_sub from ensv2_event",
  ),
};

/** Each EACRolesChanged (ensv2_permission_change), by its contract (`<chainId>-<contract>`). */
export const PERMISSIONS_EVENTS = {
  name: "ENSv2-permissions",
  sql: sql.raw(
    "select id, block_number, log_index, 0 as sub_index, transaction_hash as transaction_id, contract_id as scope, false as has_sub from ensv2_permission_change",
  ),
};

/** Each EACRolesChanged, by the entry it changed (`<chainId>-<contract>-<resource>-<account>`, ensv2_permission's id). */
export const PERMISSIONS_USER_EVENTS = {
  name: "ENSv2-permissions-user",
  sql: sql.raw(
    "select id, block_number, log_index, 0 as sub_index, transaction_hash as transaction_id, permission_id as scope, false as has_sub from ensv2_permission_change",
  ),
};

interface EventRow {
  id: string;
  block_number: number;
  log_index: number;
  sub_index: number;
  transaction_id: string;
  scope: string;
  has_sub: boolean;
}

/** An event's cursor: its log's position in the list and its id. */
const cursorOfEvent = (r: EventRow) => encodeLogCursor(r.block_number, r.log_index, r.sub_index, r.id);

/**
 * A domain's events (or another scope's: a permission entry's, a contract's), oldest first by their logs' positions;
 * one statement per level for every scope of the level.
 */
export function domainEvents(
  ctx: OmnigraphContext,
  domainId: string,
  args: PageArgs,
  rootChainId: number,
  source: { name: string; sql: SQL } = { name: "ENSv1", sql: DOMAIN_EVENTS },
): Promise<Connection<EventModel>> {
  const eventRows = source.sql;
  return keyedConnection<EventRow, EventModel>(
    ctx,
    {
      pages: `domain-events:${source.name}:${JSON.stringify(args)}`,
      counts: `domain-event-counts:${source.name}`,
      pageQuery: (keys) => {
        const { size, backward } = pageWindow(args);
        const dir = sql.raw(backward ? "desc" : "asc");
        const conds = [sql`scope in (${list(keys)})`];
        for (const [cursor, op] of [
          [args.after, ">"],
          [args.before, "<"],
        ] as const) {
          if (cursor == null) continue;
          const { block, log, sub, id } = decodeLogCursor(cursor);
          conds.push(
            sql`(block_number, log_index, sub_index, id) ${sql.raw(op)} (${Number(block)}, ${log}, ${sub}, ${id})`,
          );
        }
        return sql`select * from (select x.*, row_number() over (partition by scope order by block_number ${dir}, log_index ${dir}, sub_index ${dir}, id ${dir}) as rn from (${eventRows}) x where ${sql.join(conds, sql` and `)}) y where rn <= ${size + 1} order by scope, rn`;
      },
      countQuery: (keys) =>
        sql`select scope, count(*)::int as count from (${eventRows}) x where scope in (${list(keys)}) group by scope`,
      cursorOf: cursorOfEvent,
      nodeOf: (r) => eventOf(r.id, r.transaction_id, rootChainId, null, r.has_sub),
    },
    domainId,
    args,
  );
}
