import type { Context } from "ponder:registry";
import {
  AbiDecodingZeroDataError,
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
} from "viem";
import { ResolverAbi } from "../../../../abis";
import type { IndexedEvent, IndexingContext } from "../../shared/ens-handlers/context";

/*
 * Resolver reads made while indexing, for records whose event does not carry the value (ABIChanged, the older
 * TextChanged). Through Ponder's handler client: pinned to the event's block and cached in ponder_sync, so a
 * re-index from the cache repeats none of them, and Ponder prefetches the next events' reads in batches.
 */

/** The handler context with Ponder's block-pinned client. */
export interface ReadingContext extends IndexingContext {
  client: Pick<Context["client"], "readContract">;
}

/** A revert or an empty answer is the resolver's own answer ("cannot tell"); anything else is a failure. */
function isResolverAnswer(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  return Boolean(
    error.walk(
      (e) =>
        e instanceof ContractFunctionRevertedError ||
        e instanceof ContractFunctionZeroDataError ||
        e instanceof AbiDecodingZeroDataError,
    ),
  );
}

/**
 * One view call to the event's resolver as of the end of the event's block; undefined when it reverts or returns
 * nothing. The state at the end of the block is the value this event set unless a later write in the same block
 * changed it, and that later write has its own event, which reads the same final value: the last row wins either way.
 * A transport failure (after Ponder's own retries) stops indexing rather than store a wrong record.
 */
export async function readResolver<T>(
  context: ReadingContext,
  event: IndexedEvent<unknown>,
  functionName: "text" | "ABI",
  args: readonly unknown[],
): Promise<T | undefined> {
  try {
    return (await context.client.readContract({
      abi: ResolverAbi,
      address: event.log.address,
      functionName,
      args,
      // No `blockNumber`: Ponder pins the call to the event's block itself, and only a call it pins is one it learns
      // to predict from the event's arguments and fetches ahead for the next events (an explicit block number, even
      // the same one, turns that off: every read was then waited for).
      // An empty answer is final here (a resolver without the function); Ponder would otherwise retry it 9 times.
      retryEmptyResponse: false,
    } as never)) as T;
  } catch (error) {
    if (isResolverAnswer(error)) return undefined;
    throw error;
  }
}
