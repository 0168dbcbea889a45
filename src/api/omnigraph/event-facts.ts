import { type SQL, sql } from "drizzle-orm";
import type { Address, Hex } from "viem";
import { splitWords } from "../../lib/hex-bytes-column";
import { Batcher } from "./batch";
import type { OmnigraphContext } from "./context";

/*
 * What the index keeps of each log beyond its position (`indexed_log`, written by every handler): the answers of an
 * Event's fields, read with the event's list (`LOG_COLUMNS`) or, for an event a model holds alone (a registration's,
 * a renewal's), by its position, every such event of one level in one statement.
 */

export interface LogFacts {
  transactionHash: Hex;
  blockHash: Hex;
  timestamp: bigint;
  transactionIndex: number;
  from: Address;
  to: Address | null;
  address: Address;
  topics: Hex[];
  data: Hex;
}

const FACT_COLUMNS = [
  "transaction_hash",
  "block_hash",
  "block_timestamp",
  "transaction_index",
  "transaction_from",
  "transaction_to",
  "address",
  "topics",
  "data",
];

/** `indexed_log`'s fact columns of a table aliased `l`, as stored (a list filters on them). */
export const LOG_COLUMNS = sql.raw(FACT_COLUMNS.map((c) => `l.${c}`).join(", "));

/** A bytea column as `0x` hex text (null stays null). */
export const hexOut = (column: string) => `'0x' || encode(${column}, 'hex')`;

/**
 * A `0x` hex string as a bytea value to compare a bytea column with; null for text that is not whole bytes of hex
 * (which no stored value equals).
 */
export const bytesValue = (hex: string): SQL | null =>
  /^0x(?:[0-9a-fA-F]{2})*$/.test(hex) ? sql`decode(${hex.slice(2)}, 'hex')` : null;

/** The columns stored as bytea (hexBytes in ponder.schema.ts), which a list compares as stored and answers as hex. */
const BYTES_COLUMNS = new Set([
  "transaction_hash",
  "block_hash",
  "transaction_from",
  "transaction_to",
  "address",
  "topics",
  "data",
]);

/** The fact columns of rows that have them unqualified, as `LogFactsRow` reads them (numbers and bytes as text). */
export const LOG_COLUMNS_OUT = sql.raw(
  FACT_COLUMNS.map((c) =>
    c === "block_timestamp" ? `${c}::text as ${c}` : BYTES_COLUMNS.has(c) ? `${hexOut(c)} as ${c}` : c,
  ).join(", "),
);

export interface LogFactsRow {
  transaction_hash: string;
  block_hash: string;
  block_timestamp: string;
  transaction_index: number;
  transaction_from: string;
  transaction_to: string | null;
  address: string;
  /** The topics joined (joinWords). */
  topics: string;
  data: string;
}

export const factsOfRow = (r: LogFactsRow): LogFacts => ({
  transactionHash: r.transaction_hash as Hex,
  blockHash: r.block_hash as Hex,
  timestamp: BigInt(r.block_timestamp),
  transactionIndex: Number(r.transaction_index),
  from: r.transaction_from as Address,
  to: r.transaction_to as Address | null,
  address: r.address as Address,
  topics: splitWords(r.topics),
  data: r.data as Hex,
});

export interface LogPlace {
  chainId: number;
  blockNumber: bigint;
  logIndex: number;
}

const keyOf = (p: LogPlace) => `${p.chainId}:${p.blockNumber}:${p.logIndex}`;

/** The facts of the log at `place`; the loads of one level are one statement (by `indexed_log`'s primary key). */
export async function loadLogFacts(ctx: OmnigraphContext, place: LogPlace): Promise<LogFacts> {
  const batcher = ctx.batcher(
    "indexed-log",
    () =>
      new Batcher<string, LogFacts | null>(async (keys) => {
        const tuples = keys.map((k) => {
          const [chain, block, log] = k.split(":");
          return sql`(${Number(chain)}::int, ${block}::numeric, ${Number(log)}::int)`;
        });
        const rows = await ctx.query<LogFactsRow & { chain_id: number; block_number: string; log_index: number }>(
          sql`select chain_id, block_number::text as block_number, log_index, ${LOG_COLUMNS_OUT} from indexed_log where (chain_id, block_number, log_index) in (${sql.join(tuples, sql`, `)})`,
        );
        return new Map(rows.map((r) => [`${r.chain_id}:${r.block_number}:${r.log_index}`, factsOfRow(r)]));
      }, null),
  );
  const facts = await batcher.load(keyOf(place));
  // Every handled log is written with its event's rows, in the same store: a miss is a broken index, not a gap.
  if (!facts)
    throw new Error(
      `log ${place.logIndex} of block ${place.blockNumber} on chain ${place.chainId} is not in the index`,
    );
  return facts;
}
