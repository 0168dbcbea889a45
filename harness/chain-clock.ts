import type { Address, Hex, PublicClient } from "viem";
import { rpc } from "./devnet-fixture";
import { waitFor } from "./indexer-harness";

/*
 * Driving devnet chains from a test while an indexer follows them in realtime: anvil's blocks drift behind the clock
 * on a loaded machine, and the API answers only from an index within 60 s of now.
 */

/** One block on every chain at the wall clock, then waits until the index is realtime and past those blocks. */
export async function syncClocksAndWaitRealtime(rpcUrls: string[], indexerUrl: string): Promise<void> {
  // One timestamp for every chain: a chain already ahead of the clock sets it, so no chain's new block lags another's.
  let synced = Math.floor(Date.now() / 1000);
  for (const url of rpcUrls) {
    const latest = await rpc<{ timestamp: Hex }>(url, "eth_getBlockByNumber", ["latest", false]);
    synced = Math.max(synced, Number(latest.timestamp) + 1);
  }
  for (const url of rpcUrls) await mineAtLeast(url, synced);
  // Realtime, and past the blocks just mined (so every earlier transaction is indexed).
  await waitFor(
    async () => {
      const res = await fetch(`${indexerUrl}/amirealtime`);
      const body = (await res.json()) as { slowestChainIndexingCursor?: number };
      return res.status === 200 && (body.slowestChainIndexingCursor ?? 0) >= synced;
    },
    120_000,
    "a realtime index past the synced blocks",
  );
}

/**
 * Mines one block at `timestamp` or later. anvil refuses a time below one its clock has already handed out; its next
 * block is then later anyway, which is checked.
 */
export async function mineAtLeast(rpcUrl: string, timestamp: number): Promise<void> {
  await rpc(rpcUrl, "evm_setNextBlockTimestamp", [timestamp]).catch(() => undefined);
  await rpc(rpcUrl, "evm_mine", []);
  const mined = await rpc<{ timestamp: Hex }>(rpcUrl, "eth_getBlockByNumber", ["latest", false]);
  if (Number(mined.timestamp) < timestamp)
    throw new Error(`${rpcUrl} mined a block at ${Number(mined.timestamp)}, not at ${timestamp} or later`);
}

/**
 * Sends a transaction as `from` (impersonated, and funded when asked: a name's registry owner may be a contract such
 * as the NameWrapper) and waits for its receipt; throws unless it succeeded.
 */
export async function sendAs(
  chain: { rpcUrl: string; client: PublicClient },
  tx: { from: Address; to: Address; data: Hex; fund?: boolean },
): Promise<void> {
  await rpc(chain.rpcUrl, "anvil_impersonateAccount", [tx.from]);
  if (tx.fund) await rpc(chain.rpcUrl, "anvil_setBalance", [tx.from, "0x56bc75e2d63100000"]);
  const hash = await rpc<Hex>(chain.rpcUrl, "eth_sendTransaction", [
    { from: tx.from, to: tx.to, data: tx.data, gas: "0x100000" },
  ]);
  await rpc(chain.rpcUrl, "evm_mine", []).catch(() => undefined);
  const receipt = await chain.client.waitForTransactionReceipt({ hash, timeout: 60_000 });
  if (receipt.status !== "success")
    throw new Error(`transaction from ${tx.from} to ${tx.to} on ${chain.rpcUrl} reverted`);
}
