import { REFUSES_RESTART } from "../runtime/ponder-hooks";

/*
 * Stops the indexer when a chain reorganizes deeper than Ponder's finality. Ponder 0.17.7 reverts reorgs within its
 * unfinalized window, but a deeper one only logs "Encountered unrecoverable reorg" as a warning and keeps serving the
 * abandoned branch's rows, retrying for about ten minutes of new blocks before it gives up. This guard watches each
 * followed chain on its own: it remembers the block `finality` below the head it last saw, and if that block's hash
 * ever changes (or the block disappears), the index may hold rows of a branch that no longer exists.
 */

/** Ponder 0.17.7's finality depth by chain id (ponder/src/utils/finality.ts); any other chain, devnets included: 30. */
export function ponderFinalityBlocks(chainId: number): number {
  if ([1, 3, 4, 5, 42, 11155111].includes(chainId)) return 65;
  if ([137, 80001].includes(chainId)) return 200;
  if ([42161, 42170, 421611, 421613].includes(chainId)) return 240;
  return 30;
}

export interface GuardedChain {
  id: number;
  name: string;
  /** Blocks below the head that Ponder treats as final. */
  finality: number;
  /** The block's hash, or null when the chain has no such block; "latest" also returns its number. */
  block(tag: number | "latest"): Promise<{ number: number; hash: string } | null>;
}

export class ReorgBeyondFinalityError extends Error {
  override name = "ReorgBeyondFinalityError";
  // Rows of the abandoned branch may be final in the database: a restart would resume on them.
  readonly [REFUSES_RESTART] = true;
}

export class FinalityGuard {
  private readonly anchors = new Map<number, { number: number; hash: string }>();
  /** The highest head seen per chain: the changed anchor was this many blocks below it, so the reorg was at least as deep. */
  private readonly heads = new Map<number, number>();

  constructor(private readonly chains: GuardedChain[]) {}

  /** One look at every chain; throws ReorgBeyondFinalityError when a remembered final block changed. */
  async check(): Promise<void> {
    for (const chain of this.chains) {
      const anchor = this.anchors.get(chain.id);
      if (anchor) {
        const now = await chain.block(anchor.number);
        if (now?.hash !== anchor.hash) {
          const depth = (this.heads.get(chain.id) ?? anchor.number) - anchor.number + 1;
          throw new ReorgBeyondFinalityError(
            `Reorg deeper than finality on chain ${chain.name} (${chain.id}): block ${anchor.number} was ${anchor.hash} and is ` +
              `now ${now?.hash ?? "gone"}: a reorg at least ${depth} blocks deep (the head was at block ${this.heads.get(chain.id)}). ` +
              `Ponder treats blocks ${chain.finality} below the head as final, so the index may hold rows of the abandoned ` +
              "branch. Stopping; reindex into a new DATABASE_SCHEMA.",
          );
        }
      }
      const head = await chain.block("latest");
      if (head && head.number > (this.heads.get(chain.id) ?? -1)) this.heads.set(chain.id, head.number);
      const target = head ? head.number - chain.finality : -1;
      if (target > (anchor?.number ?? -1)) {
        const block = await chain.block(target);
        if (block) this.anchors.set(chain.id, { number: block.number, hash: block.hash });
      }
    }
  }
}
