import { firstVersionOf, lastVersionOf } from "../../lib/entity-history/version";
import { blockArgumentError, changeBlockError } from "./block-input";
import { SubgraphQueryError } from "./errors";
import { changeBlocksOf, LATEST_VERSIONS, READ_HEAD, type Reading, type UnchangedTables } from "./reading";

/*
 * The block a `block:` argument names, and what a field reads there (reading.ts `Reading`), with graph-node's rules:
 * - no `block`: the indexed head; `block: { number_gte: N }`: the head, once it is at N or past it;
 * - `block: { number: N }`: the state at the end of block N of the ENS root chain (every chain's writes up to that
 *   block's place in omnichain order); `block: { hash }`: the same for the block with that hash, which must be a
 *   block of the indexed chain at or below the head;
 * - a block past the head is an error, as is one before the history kept (SUBGRAPH_HISTORY_BLOCKS); a block before
 *   the index's start is not: nothing existed then;
 * - `_change_block: { number_gte: N }`: entities whose state as read was written at block N or later.
 */

export interface BlockRef {
  number: number;
  timestamp: number | null;
  hash: string | null;
  parentHash?: string | null;
}

export interface SubgraphMeta {
  /** The latest indexed block of the ENS root chain; null before the first block is indexed. */
  block: BlockRef | null;
  /** The ENS root chain's blocks up to this number are final (their hashes can be cached). */
  finalizedNumber?: number;
  deployment: string;
  hasIndexingErrors: boolean;
}

/**
 * A block of the ENS root chain, by number or by hash; null when the chain has no such block. Told the indexed head
 * it answers under and the last final block number: a block that may still be replaced is kept only while that head
 * is.
 */
export interface BlockLookup {
  byNumber(number: number, head: BlockRef, finalizedNumber: number): Promise<BlockRef | null>;
  byHash(hash: string, head: BlockRef, finalizedNumber: number): Promise<BlockRef | null>;
}

export interface SubgraphHistory {
  /** The ENS root chain, whose blocks `block:` names. */
  chainId: number;
  blocks: BlockLookup;
  /** How many blocks below the head queries may ask for (SUBGRAPH_HISTORY_BLOCKS); null: every block. */
  retainedBlocks: number | null;
  /** The history tables with no version above a version, read through their live table there (history.ts). */
  unchangedTables?: (upTo: bigint, head: BlockRef) => Promise<UnchangedTables>;
}

export type BlockArg = { number?: number | null; number_gte?: number | null; hash?: string | null } | null | undefined;

/** The block `block:` names, checked against the head and the history kept; null for the head itself. */
export async function blockOf(
  meta: SubgraphMeta,
  history: SubgraphHistory | undefined,
  block: BlockArg,
): Promise<BlockRef | null> {
  if (!block) return null;
  const invalid = blockArgumentError(block);
  if (invalid) throw new SubgraphQueryError(invalid);
  const head = meta.block;
  if (!head) throw new SubgraphQueryError("No block has been indexed yet, so no `block` constraint can be met");
  // graph-node's words for a block past the head.
  const notYet = (argument: string, n: number) =>
    new SubgraphQueryError(
      `Failed to decode \`${argument}\` value: \`subgraph ${meta.deployment} has only indexed up to block number ${head.number} and data for block number ${n} is therefore not yet available\``,
    );
  if (block.number_gte !== undefined && block.number_gte !== null && block.number_gte > head.number) {
    throw notYet("block.number_gte", block.number_gte);
  }
  const byNumber = block.number !== undefined && block.number !== null;
  if (!byNumber && !block.hash) return null;
  if (byNumber && block.number! > head.number) throw notYet("block.number", block.number!);
  if (!history) {
    // Without a history only the head can be answered: from the live tables.
    const isHead = byNumber
      ? block.number === head.number && (!block.hash || block.hash.toLowerCase() === head.hash?.toLowerCase())
      : !!head.hash && block.hash!.toLowerCase() === head.hash.toLowerCase();
    if (isHead) return null;
    throw new SubgraphQueryError(
      `Queries at past blocks are not available: this endpoint keeps no history and serves only the indexed head (block number ${head.number})`,
    );
  }
  // The head is known: no lookup, so a client pinning the head's hash is served whatever the chain lookups' budget.
  const sameHash = (hash: string | null | undefined) => !!hash && hash.toLowerCase() === head.hash?.toLowerCase();
  if (byNumber ? block.number === head.number && (!block.hash || sameHash(block.hash)) : sameHash(block.hash)) {
    return head;
  }
  const finalizedNumber = meta.finalizedNumber ?? -1;
  let found: BlockRef | null;
  if (byNumber) {
    const n = block.number!;
    checkRetained(head, history, n);
    found = await history.blocks.byNumber(n, head, finalizedNumber);
    if (!found) throw new SubgraphQueryError(`Block number ${n} was not found on the indexed chain`);
    if (block.hash && found.hash?.toLowerCase() !== block.hash.toLowerCase()) {
      throw new SubgraphQueryError(`Block number ${n} does not have the hash ${block.hash}`);
    }
  } else {
    found = await history.blocks.byHash(block.hash!, head, finalizedNumber);
    // graph-node's words for a hash its block store does not hold.
    if (!found) throw new SubgraphQueryError("Failed to decode `block.hash` value: `no block with that hash found`");
    if (found.number > head.number) throw notYet("block.number", found.number);
    checkRetained(head, history, found.number);
  }
  return found;
}

function checkRetained(head: BlockRef, history: SubgraphHistory, n: number) {
  if (history.retainedBlocks === null) return;
  const earliest = head.number - history.retainedBlocks;
  if (n < earliest) {
    throw new SubgraphQueryError(
      `The subgraph keeps the history of the last ${history.retainedBlocks} blocks only: data for block number ${n} is no longer available (the earliest block available is ${earliest})`,
    );
  }
}

/**
 * What a root field reads: at its block, or the head; the history's latest versions where a filter asks for them.
 * The head (`meta`) is read only when the field names a block or `_change_block`.
 */
export async function readingFor(
  meta: () => Promise<SubgraphMeta>,
  history: SubgraphHistory | undefined,
  block: BlockArg,
  where: unknown,
): Promise<Reading> {
  const changeBlocks = changeBlocksOf(where);
  if (!block && changeBlocks.size === 0) return READ_HEAD;
  const head = await meta();
  const at = await blockOf(head, history, block);
  if (!at) return nestedReading(meta, history, READ_HEAD, where);
  if (at.timestamp === null) throw new Error(`block ${at.number} has no timestamp`);
  const upTo = lastVersionOf({
    timestamp: BigInt(at.timestamp),
    chainId: history!.chainId,
    blockNumber: BigInt(at.number),
  });
  // `_change_block` compares every row's version, which only the history has.
  const unchanged =
    history!.unchangedTables && changeBlocks.size === 0 ? await history!.unchangedTables(upTo, head.block!) : undefined;
  return {
    at: unchanged?.size ? { upTo, unchanged } : { upTo },
    blockStarts: await blockStarts(head, history, changeBlocks),
  };
}

/** What a nested list reads: its parent's reading, switched to the history when its own filter asks for it. */
export async function nestedReading(
  meta: () => Promise<SubgraphMeta>,
  history: SubgraphHistory | undefined,
  parent: Reading,
  where: unknown,
): Promise<Reading> {
  const changeBlocks = changeBlocksOf(where);
  if (changeBlocks.size === 0) return parent;
  const at = parent.at;
  return {
    // The same point, read from the history alone (`_change_block` needs every row's version).
    at: at === null ? LATEST_VERSIONS : at.unchanged ? { upTo: at.upTo } : at,
    blockStarts: await blockStarts(await meta(), history, changeBlocks),
  };
}

/** The first version of every block a `_change_block: { number_gte }` names (absent: a block the chain lacks). */
async function blockStarts(
  meta: SubgraphMeta,
  history: SubgraphHistory | undefined,
  numbers: ReadonlySet<number>,
): Promise<Map<number, bigint>> {
  const starts = new Map<number, bigint>();
  if (numbers.size === 0) return starts;
  if (!history)
    throw new SubgraphQueryError("`_change_block` filters are not available: this endpoint keeps no history");
  const invalid = changeBlockError(numbers);
  if (invalid) throw new SubgraphQueryError(invalid);
  for (const n of numbers) {
    if (!meta.block || n > meta.block.number) continue;
    const block = await history.blocks.byNumber(n, meta.block, meta.finalizedNumber ?? -1);
    if (!block || block.timestamp === null) continue;
    starts.set(
      n,
      firstVersionOf({ timestamp: BigInt(block.timestamp), chainId: history.chainId, blockNumber: BigInt(n) }),
    );
  }
  return starts;
}
