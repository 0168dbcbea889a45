/*
 * The version key of an entity history row (ponder.schema.ts, "History of the subgraph's mutable entities"): a
 * write's position in omnichain order, as one decimal number, so that "the state at the end of block N" is "the
 * greatest version at or below N's last key" on every chain at once.
 *
 *   version = ((timestamp · 10^16 + chainId) · 10^16 + blockNumber) · 10^12 + logIndex · 10^6 + write
 *
 * This is Ponder's checkpoint order (timestamp, chain id, block number, then the event's position) cut to what
 * decides it: within a block the log index orders the events, and `write` (0–999,999) orders one handler's writes.
 * A setup handler writes before any block: its versions are below every block's.
 */

const WRITES_PER_EVENT = 1_000_000n;
const SEQ = 10n ** 12n;
const BLOCK = 10n ** 16n;
const CHAIN = 10n ** 16n;

export const MAX_WRITES_PER_EVENT = Number(WRITES_PER_EVENT);

export interface BlockPosition {
  timestamp: bigint;
  chainId: number;
  blockNumber: bigint;
}

function blockBase(block: BlockPosition): bigint {
  return ((block.timestamp * CHAIN + BigInt(block.chainId)) * BLOCK + block.blockNumber) * SEQ;
}

/** The version of a handler's `write`-th history row for the log at `logIndex` of `block`. */
export function versionOf(block: BlockPosition, logIndex: number, write: number): bigint {
  return blockBase(block) + BigInt(logIndex) * WRITES_PER_EVENT + BigInt(write);
}

/** The first version a block can hold: `_change_block: { number_gte }` keeps versions at or above it. */
export function firstVersionOf(block: BlockPosition): bigint {
  return blockBase(block);
}

/** The last version a block can hold: the state at the end of the block is every id's last version at or below. */
export function lastVersionOf(block: BlockPosition): bigint {
  return blockBase(block) + SEQ - 1n;
}

/**
 * A version's `valid_to` as the writer inserts it: not known yet (src/lib/entity-history/valid-to-trigger.ts fills it in).
 * No version is negative, so a reader that meets it probes for a newer version instead (src/api/subgraph/history.ts).
 */
export const VALID_TO_PENDING = -1n;
