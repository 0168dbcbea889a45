import type { BlockRef, SnapshotManifest } from "./manifest";
import { type Queryable, quoteIdent } from "./queryable";
import type { RpcPool } from "./rpc";

type Checkpoints = SnapshotManifest["checkpoints"];

/** Ponder's checkpoint string: 10 digits of block timestamp, 16 of chain id, 16 of block number, then the event's place. */
function decodeCheckpoint(checkpoint: string): { timestamp: number; chainId: number; number: number } {
  return {
    timestamp: Number(checkpoint.slice(0, 10)),
    chainId: Number(checkpoint.slice(10, 26)),
    number: Number(checkpoint.slice(26, 42)),
  };
}

/**
 * Each chain's resume block (Ponder's safe checkpoint: crash recovery reverts every row written after it, from the
 * `_reorg__*` tables) and latest indexed block, with their hashes. Under omnichain ordering a chain's checkpoint may
 * name another chain's event; the chain's block is then its last block before that timestamp in `ponder_sync`, as
 * Ponder itself finds it. Hashes come from `ponder_sync.blocks` (what the index saw), else from the RPC.
 */
export async function readCheckpoints(db: Queryable, schema: string, rpc: RpcPool | undefined): Promise<Checkpoints> {
  const { rows } = await db.query<{
    chain_name: string;
    chain_id: string;
    safe_checkpoint: string;
    latest_checkpoint: string;
  }>(
    `select chain_name, chain_id::text, safe_checkpoint, latest_checkpoint from ${quoteIdent(schema)}."_ponder_checkpoint" order by chain_id`,
  );
  const result: Checkpoints = [];
  for (const row of rows) {
    const chainId = Number(row.chain_id);
    result.push({
      chainId,
      chainName: row.chain_name,
      resume: await blockOf(db, chainId, row.safe_checkpoint, rpc),
      latest: await blockOf(db, chainId, row.latest_checkpoint, rpc),
    });
  }
  return result;
}

async function blockOf(
  db: Queryable,
  chainId: number,
  checkpoint: string,
  rpc: RpcPool | undefined,
): Promise<BlockRef | null> {
  const decoded = decodeCheckpoint(checkpoint);
  const { number, timestamp } = decoded;
  const ownChain = decoded.chainId === chainId;
  const { rows } = ownChain
    ? await db.query<{ number: string; hash: string }>(
        `select number::text, hash from ponder_sync.blocks where chain_id = $1 and number = $2`,
        [chainId, number],
      )
    : await db.query<{ number: string; hash: string }>(
        `select number::text, hash from ponder_sync.blocks where chain_id = $1 and timestamp <= $2 order by number desc limit 1`,
        [chainId, timestamp],
      );
  if (rows[0]) return { number: Number(rows[0].number), hash: rows[0].hash.toLowerCase() };
  if (!ownChain || !rpc) return null;
  const block = await rpc
    .for(chainId)
    .call<{ hash: string } | null>("eth_getBlockByNumber", [`0x${number.toString(16)}`, false]);
  return block ? { number, hash: block.hash.toLowerCase() } : null;
}

/**
 * Compares each chain's resume and latest blocks with the operator's RPC. A resume block that differs is refused:
 * the snapshot holds no rows from before it to roll back to. A latest block that differs while the resume block
 * holds is a reorg across the checkpoint that Ponder's start undoes (it reverts to the resume block and indexes the
 * canonical chain from there); it is reported, not refused.
 */
export async function verifyCheckpoints(
  checkpoints: Checkpoints,
  rpc: RpcPool,
): Promise<{ checked: number; problems: string[]; reorged: string[] }> {
  const problems: string[] = [];
  const reorged: string[] = [];
  let checked = 0;
  for (const c of checkpoints) {
    const refs = [c.resume, c.latest].filter((r): r is BlockRef => r !== null);
    const answers = await rpc
      .for(c.chainId)
      .batch<{ hash: string } | null>(
        refs.map((r) => ({ method: "eth_getBlockByNumber", params: [`0x${r.number.toString(16)}`, false] })),
      );
    checked += 1;
    const onChain = new Map(refs.map((r, i) => [r.number, answers[i]?.hash?.toLowerCase() ?? "no block"]));
    if (c.resume && onChain.get(c.resume.number) !== c.resume.hash) {
      problems.push(
        `chain ${c.chainName} (${c.chainId}): resume block ${c.resume.number} is ${c.resume.hash} in the snapshot and ${onChain.get(c.resume.number)} on your RPC; ` +
          "the snapshot holds no data from before it to roll back to (a reorg deeper than its checkpoint, another chain, or a tampered manifest)",
      );
    } else if (c.latest && onChain.get(c.latest.number) !== c.latest.hash) {
      reorged.push(
        `chain ${c.chainName} (${c.chainId}): latest block ${c.latest.number} was reorged out (${c.latest.hash} → ${onChain.get(c.latest.number)}); ` +
          `ponder start reverts to block ${c.resume?.number} and indexes the canonical chain from there`,
      );
    }
  }
  return { checked, problems, reorged };
}
