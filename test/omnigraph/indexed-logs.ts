import { keccak256, toHex } from "viem";
import { account, type Rows } from "../../harness/subgraph-fixture/fixture";
import { joinWords } from "../../src/lib/hex-bytes-column";

/*
 * `indexed_log` rows for a hand-made dataset: one per log the other tables name (the subgraph's event tables by id,
 * registrar actions' event ids, ENSv2's log columns), as the indexer writes one per handled log. Facts follow from
 * the log's place, so a test can say what each event must answer:
 */

/** Topic 0 of the table's logs: the hash of the table's name (a distinct selector per event kind). */
export const selectorOf = (table: string) => keccak256(toHex(table));
/** The block's time. */
export const timestampOf = (block: bigint) => 1_600_000_000n + block;
/** The transaction's sender: one of four accounts, by log index. */
export const senderOf = (logIndex: number) => account(logIndex % 4);
/** The emitting contract: a resolver row's address (`<address>-<node>`), else one registry address. */
export const EMITTER = `0x${"e1".repeat(20)}`;

interface Place {
  chainId: number;
  block: bigint;
  logIndex: number;
  tx: string;
  table: string;
  emitter: string;
}

/** Chain, block and log index of a subgraph event id (`<block>-<logIndex>[-<sub>][-<chainId>]`). */
function placeOfId(id: string, hasSub: boolean, rootChainId: number) {
  const parts = id.split("-");
  const chainPart = parts[hasSub ? 3 : 2];
  return { block: BigInt(parts[0]!), logIndex: Number(parts[1]), chainId: chainPart ? Number(chainPart) : rootChainId };
}

export function withIndexedLogs(rows: Rows, rootChainId: number): Rows {
  const places = new Map<string, Place>();
  const add = (p: Place) => {
    const key = `${p.chainId}-${p.block}-${p.logIndex}`;
    if (!places.has(key)) places.set(key, p);
  };
  for (const [table, list] of Object.entries(rows)) {
    for (const r of list) {
      if (table.startsWith("ensv2_") && typeof r.logIndex === "number" && r.transactionHash) {
        add({
          chainId: Number(r.chainId),
          block: BigInt(r.blockNumber as bigint),
          logIndex: r.logIndex,
          tx: String(r.transactionHash),
          table,
          emitter: String(r.contract ?? EMITTER),
        });
      } else if (table === "registrar_action") {
        for (const id of r.eventIds as string[]) {
          const p = placeOfId(id, false, Number(r.chainId));
          add({ ...p, tx: String(r.transactionHash), table, emitter: EMITTER });
        }
      } else if (typeof r.id === "string" && /^\d+-\d+/.test(r.id) && r.transactionID) {
        // A resolver's own events carry its row's id; NewResolver (which names one) is the registry's.
        const ownResolver = table !== "new_resolver" && typeof r.resolverId === "string";
        const resolver = ownResolver ? (r.resolverId as string).split("-")[0]! : EMITTER;
        add({
          ...placeOfId(r.id, table === "wrapped_transfer", rootChainId),
          tx: String(r.transactionID),
          table,
          emitter: resolver,
        });
      }
    }
  }
  rows.indexed_log = [...places.values()].map((p) => ({
    chainId: p.chainId,
    blockNumber: p.block,
    logIndex: p.logIndex,
    blockHash: keccak256(toHex(`${p.chainId}-${p.block}`)),
    blockTimestamp: timestampOf(p.block),
    transactionHash: p.tx,
    transactionIndex: p.logIndex % 7,
    transactionFrom: senderOf(p.logIndex),
    transactionTo: p.emitter,
    address: p.emitter,
    topics: joinWords([selectorOf(p.table), toHex(p.logIndex, { size: 32 })]),
    data: toHex(p.block, { size: 32 }),
  }));
  return rows;
}
