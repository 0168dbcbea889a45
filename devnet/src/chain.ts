import { type Abi, type Address, encodeDeployData, encodeFunctionData, getAddress, type Hex } from "viem";
import { Rpc } from "./rpc";
import type { Ensv2RegistrarBuild } from "./shape";

/** One transaction of a step; `note` names it in errors. */
export interface Tx {
  from: Address;
  to?: Address;
  data: Hex;
  value?: bigint;
  note: string;
}

export interface Log {
  address: Address;
  topics: Hex[];
  data: Hex;
  blockNumber: Hex;
  transactionHash: Hex;
  logIndex: Hex;
}

export interface Receipt {
  status: Hex;
  blockNumber: Hex;
  contractAddress: Address | null;
  transactionHash: Hex;
  logs: Log[];
}

/** The fields of a parity-style trace (anvil's trace_block) that tell a transaction's outcome. */
interface TopLevelTrace {
  type: "call" | "create" | string;
  traceAddress: number[];
  transactionHash: Hex;
  /** Present when the call failed: "Reverted", "OutOfGas", … */
  error?: string;
  result?: { address?: Address };
}

/** Transactions per block unless the devnet sets another size (see StartDevnetOptions.txsPerBlock). */
export const DEFAULT_TXS_PER_BLOCK = 200;
export const GAS_PER_TX = 6_000_000n;
const GAS_PRICE = 1_000_000_000n;

const hex = (n: bigint | number) => `0x${n.toString(16)}`;

/**
 * Drives one anvil chain: automine is off, up to `txsPerBlock` transactions are sent in JSON-RPC batches of 50 with
 * nonces kept here (no estimateGas: a transaction may depend on an earlier one in the same block), then one evm_mine.
 * Every transaction must succeed, and every log is tallied by (address, topic0) for the manifest's event counts.
 */
export class Chain {
  readonly rpc: Rpc;
  private nonces = new Map<Address, number>();
  /** `${address}|${topic0}` → logs seen, over every transaction this chain sent. */
  readonly logTally = new Map<string, number>();
  /** Logs whose topic0 is in `keepTopics`, in chain order (for registrar actions); others are only tallied. */
  readonly keptLogs: Log[] = [];
  keepTopics = new Set<Hex>();
  /** Hook for progress lines. */
  onBlock: (txCount: number) => void = () => {};
  /** Contracts `deploy` puts at a fixed address, by deploy name (see ChainShape.placements). */
  placements: Record<string, Address> = {};
  /** The label under `eth` this chain's registrar manages, when the shape sets one (see ChainShape.managedLabel). */
  managedLabel: string | undefined;
  /** The `.eth` registrar build ENSv2 deploys here (see ChainShape.ensv2Registrar). */
  ensv2Registrar: Ensv2RegistrarBuild = "ETHRegistrar";

  private constructor(
    readonly chainId: number,
    rpcUrl: string,
    readonly accounts: Address[],
    readonly txsPerBlock: number,
  ) {
    this.rpc = new Rpc(rpcUrl);
  }

  static async connect(chainId: number, rpcUrl: string, txsPerBlock = DEFAULT_TXS_PER_BLOCK): Promise<Chain> {
    const rpc = new Rpc(rpcUrl);
    const accounts = (await rpc.call<Address[]>("eth_accounts")).map((a) => getAddress(a));
    await rpc.call("evm_setAutomine", [false]);
    return new Chain(chainId, rpcUrl, accounts, txsPerBlock);
  }

  get deployer(): Address {
    return this.accounts[0];
  }

  async blockNumber(): Promise<number> {
    return Number(await this.rpc.call<Hex>("eth_blockNumber"));
  }

  async timestamp(): Promise<number> {
    const block = await this.rpc.call<{ timestamp: Hex }>("eth_getBlockByNumber", ["latest", false]);
    return Number(block.timestamp);
  }

  async increaseTime(seconds: number): Promise<void> {
    await this.rpc.call("evm_increaseTime", [hex(seconds)]);
  }

  /** The next block gets this timestamp; later ones follow the wall clock from there. */
  async setNextBlockTimestamp(seconds: number): Promise<void> {
    await this.rpc.call("evm_setNextBlockTimestamp", [hex(seconds)]);
  }

  /** Blocks mined from now on carry the wall clock shifted so that "now" reads `seconds`. */
  async setTime(seconds: number): Promise<void> {
    await this.rpc.call("anvil_setTime", [seconds]);
  }

  async latestTimestamp(): Promise<number> {
    const block = await this.rpc.call<{ timestamp: string }>("eth_getBlockByNumber", ["latest", false]);
    return Number(block.timestamp);
  }

  async mineEmpty(blocks: number): Promise<void> {
    await this.rpc.call("anvil_mine", [hex(blocks)]);
  }

  /** Sends one step of transactions (no cross-sender dependencies inside a step), ≤ txsPerBlock per block. */
  async send(txs: Tx[]): Promise<Receipt[]> {
    const receipts: Receipt[] = [];
    for (let i = 0; i < txs.length; i += this.txsPerBlock) {
      const chunk = txs.slice(i, i + this.txsPerBlock);
      const tSend = performance.now();
      const requests = chunk.map((tx) => ({
        method: "eth_sendTransaction",
        params: [
          {
            from: tx.from,
            to: tx.to,
            data: tx.data,
            value: hex(tx.value ?? 0n),
            gas: hex(GAS_PER_TX),
            gasPrice: hex(GAS_PRICE),
            nonce: hex(this.takeNonce(tx.from)),
          },
        ],
      }));
      // A few parallel HTTP batches: anvil answers them concurrently (nonces are explicit, so order does not matter).
      const parts = Array.from({ length: Math.ceil(requests.length / 50) }, (_, k) =>
        requests.slice(k * 50, k * 50 + 50),
      );
      const hashes = (await Promise.all(parts.map((part) => this.rpc.batch<Hex>(part)))).flat();
      const tMine = performance.now();
      await this.rpc.call("evm_mine");
      const tOutcomes = performance.now();
      const byHash = await this.minedOutcomes();
      for (const [j, hash] of hashes.entries()) {
        const outcome = byHash.get(hash);
        if (!outcome) throw new Error(`chain ${this.chainId}: "${chunk[j].note}" was not mined`);
        if (outcome.error !== undefined) {
          throw new Error(
            `chain ${this.chainId}: "${chunk[j].note}" reverted (tx ${hash}, ${outcome.error}): ${await this.revertReason(chunk[j])}`,
          );
        }
        for (const log of outcome.receipt.logs) {
          const key = `${log.address.toLowerCase()}|${log.topics[0] ?? "0x"}`;
          this.logTally.set(key, (this.logTally.get(key) ?? 0) + 1);
          if (log.topics[0] && this.keepTopics.has(log.topics[0])) this.keptLogs.push(log);
        }
        receipts.push(outcome.receipt);
      }
      if (process.env.DEVNET_PROFILE)
        console.log(
          `chain ${this.chainId}: ${chunk.length} txs send ${(tMine - tSend).toFixed(0)} ms, mine ${(tOutcomes - tMine).toFixed(0)} ms, outcomes ${(performance.now() - tOutcomes).toFixed(0)} ms`,
        );
      this.onBlock(chunk.length);
    }
    return receipts;
  }

  /**
   * What the latest block did to each of its transactions, as receipts. Not from eth_getBlockReceipts: anvil builds
   * each receipt by walking its whole block, so a block's receipts cost O(n²) (0.7 s at 2,000 transactions against
   * 9 ms at 200). The block's top-level traces (trace_block) tell success, revert and created address, and its logs
   * (eth_getLogs) the rest; both cost O(n).
   */
  private async minedOutcomes(): Promise<Map<Hex, { receipt: Receipt; error?: string }>> {
    const block = await this.rpc.call<{ number: Hex; hash: Hex }>("eth_getBlockByNumber", ["latest", false]);
    const [traces, logs] = (await this.rpc.batch<unknown>([
      { method: "trace_block", params: [block.number] },
      { method: "eth_getLogs", params: [{ blockHash: block.hash }] },
    ])) as [TopLevelTrace[], Log[]];
    const logsByTx = new Map<Hex, Log[]>();
    for (const log of logs) {
      const list = logsByTx.get(log.transactionHash);
      if (list) list.push(log);
      else logsByTx.set(log.transactionHash, [log]);
    }
    const outcomes = new Map<Hex, { receipt: Receipt; error?: string }>();
    for (const trace of traces) {
      if (trace.traceAddress.length > 0) continue; // an internal call; its transaction's top-level trace decides
      const receipt: Receipt = {
        status: trace.error === undefined ? "0x1" : "0x0",
        blockNumber: block.number,
        contractAddress: trace.type === "create" ? (trace.result?.address ?? null) : null,
        transactionHash: trace.transactionHash,
        logs: logsByTx.get(trace.transactionHash) ?? [],
      };
      outcomes.set(trace.transactionHash, { receipt, error: trace.error });
    }
    return outcomes;
  }

  /** Replays a failed transaction as a call on the current state, for its revert message. */
  private async revertReason(tx: Tx): Promise<string> {
    try {
      await this.rpc.call("eth_call", [
        { from: tx.from, to: tx.to, data: tx.data, value: hex(tx.value ?? 0n), gas: hex(GAS_PER_TX) },
        "latest",
      ]);
      return "no revert when replayed on the latest state";
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  private takeNonce(from: Address): number {
    const n = this.nonces.get(from) ?? 0;
    this.nonces.set(from, n + 1);
    return n;
  }

  /** Reads our starting nonces once (fresh anvil accounts start at 0, but a reused chain may not). */
  async syncNonces(): Promise<void> {
    const counts = await this.rpc.batch<Hex>(
      this.accounts.map((a) => ({ method: "eth_getTransactionCount", params: [a, "pending"] })),
    );
    this.accounts.forEach((a, i) => this.nonces.set(a, Number(counts[i])));
  }

  /** Deploys one contract in its own block; returns its address and that block (its startBlock). */
  async deploy(name: string, artifact: { abi: Abi; bytecode: Hex }, args: unknown[] = [], from = this.deployer) {
    const data = encodeDeployData({ abi: artifact.abi, bytecode: artifact.bytecode, args } as never);
    const placed = this.placements[name];
    if (placed) return this.deployAt(placed.toLowerCase() as Address, name, data, from);
    const [receipt] = await this.send([{ from, data, note: `deploy ${name}` }]);
    if (!receipt.contractAddress) throw new Error(`deploy ${name}: no contract address`);
    return { address: receipt.contractAddress.toLowerCase() as Address, block: Number(receipt.blockNumber) };
  }

  /**
   * Deploys at a fixed address: the init code is put there and called, so the constructor runs in that account's
   * own context (its storage, its address in events and in calls it makes, `msg.sender` the deployer); what the init
   * code returns is the runtime code, immutables included, which then replaces it. The call is one transaction of
   * the deployer's, like a CREATE, so the deployer's later CREATE addresses stay those of an unplaced devnet.
   */
  private async deployAt(address: Address, name: string, initCode: Hex, from: Address) {
    if ((await this.rpc.call<Hex>("eth_getCode", [address, "latest"])) !== "0x")
      throw new Error(`deploy ${name}: ${address} already has code`);
    await this.rpc.call("anvil_setCode", [address, initCode]);
    const runtime = await this.rpc.call<Hex>("eth_call", [{ from, to: address, gas: hex(GAS_PER_TX) }, "latest"]);
    const [receipt] = await this.send([{ from, to: address, data: "0x", note: `deploy ${name} at ${address}` }]);
    await this.rpc.call("anvil_setCode", [address, runtime]);
    return { address, block: Number(receipt.blockNumber) };
  }

  /** Encodes a call as a Tx. */
  static call(
    from: Address,
    to: Address,
    abi: Abi,
    functionName: string,
    args: unknown[],
    note: string,
    value?: bigint,
  ): Tx {
    return { from, to, data: encodeFunctionData({ abi, functionName, args } as never), value, note };
  }

  /** Many reads (eth_call at the latest block) in one HTTP request. */
  async readMany<T>(calls: { to: Address; abi: Abi; functionName: string; args: unknown[] }[]): Promise<T[]> {
    const { decodeFunctionResult } = await import("viem");
    const out: T[] = [];
    for (let i = 0; i < calls.length; i += 500) {
      const chunk = calls.slice(i, i + 500);
      const results = await this.rpc.batch<Hex>(
        chunk.map((c) => ({
          method: "eth_call",
          params: [{ to: c.to, data: encodeFunctionData(c as never) }, "latest"],
        })),
      );
      results.forEach((data, j) =>
        out.push(decodeFunctionResult({ abi: chunk[j].abi, functionName: chunk[j].functionName, data } as never) as T),
      );
    }
    return out;
  }

  /** A read (eth_call) at the latest block. */
  async read<T>(to: Address, abi: Abi, functionName: string, args: unknown[]): Promise<T> {
    const { decodeFunctionResult } = await import("viem");
    const data = encodeFunctionData({ abi, functionName, args } as never);
    const out = await this.rpc.call<Hex>("eth_call", [{ to, data }, "latest"]);
    return decodeFunctionResult({ abi, functionName, data: out } as never) as T;
  }
}
