import { isRecord, parseQuantity, type Upstream } from "./jsonrpc";

/** The highest block number the proxy has seen from upstream: a lagging node lags behind this. */
export class HeadTracker {
  private highest = -1n;
  see(n: bigint | undefined): void {
    if (n !== undefined && n > this.highest) this.highest = n;
  }
  get value(): bigint {
    return this.highest;
  }
}

/**
 * The chain as the node serving one HTTP request sees it. A provider balances requests over many nodes, and some are
 * a few blocks behind: a lagging view has its head `lagBlocks` under the highest head seen. The upstream head is
 * asked once per request, so a batch's calls agree with each other the way one node's answers do.
 */
export class ChainView {
  private upstreamHead: Promise<bigint> | undefined;

  constructor(
    private readonly upstream: Upstream,
    private readonly tracker: HeadTracker,
    /** Blocks behind the highest head seen; undefined for an up-to-date node. */
    readonly lagBlocks: number | undefined,
  ) {}

  get lagging(): boolean {
    return this.lagBlocks !== undefined;
  }

  /** A call of the proxy's own (not one of the client's): a block's number by hash, a tag's block. */
  upstreamCall(method: string, params: unknown[]): Promise<unknown> {
    return this.upstream.call(method, params);
  }

  /** This node's head block number. */
  async head(): Promise<bigint> {
    this.upstreamHead ??= this.upstream.call("eth_blockNumber", []).then((result) => {
      const n = parseQuantity(result);
      if (n === undefined) throw new Error(`upstream eth_blockNumber answered ${JSON.stringify(result)}`);
      this.tracker.see(n);
      return n;
    });
    const current = await this.upstreamHead;
    if (this.lagBlocks === undefined) return current;
    // Never above the current head: after a rewind (evm_revert, a reorg to a shorter branch) the highest seen is stale.
    let lagged = this.tracker.value - BigInt(this.lagBlocks);
    if (lagged > current) lagged = current;
    return lagged > 0n ? lagged : 0n;
  }

  /**
   * A block parameter (hex number or tag; absent means "latest", as eth_getLogs defines it) as this node reads it,
   * or undefined when it is neither (an EIP-1898 object, a typo): the upstream node then judges it.
   */
  async resolve(param: unknown): Promise<bigint | undefined> {
    if (param === undefined || param === null || param === "latest" || param === "pending") return this.head();
    if (param === "earliest") return 0n;
    if (param === "safe" || param === "finalized") {
      const block = await this.upstreamCall("eth_getBlockByNumber", [param, false]);
      const n = isRecord(block) ? parseQuantity(block.number) : undefined;
      if (n === undefined) return undefined;
      const head = await this.head();
      return n < head ? n : head;
    }
    return parseQuantity(param);
  }
}
