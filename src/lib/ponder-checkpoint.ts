/**
 * Ponder's checkpoint string: 10 digits of block timestamp, 16 of chain id, 16 of block number, then event position.
 * Under omnichain ordering a chain's checkpoint may name another chain's event (its `chainId` is then not the chain's).
 */
export function decodeCheckpointBlock(checkpoint: string): { number: number; timestamp: number; chainId: number } {
  return {
    timestamp: Number(checkpoint.slice(0, 10)),
    chainId: Number(checkpoint.slice(10, 26)),
    number: Number(checkpoint.slice(26, 42)),
  };
}
