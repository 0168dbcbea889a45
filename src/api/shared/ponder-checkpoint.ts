/** Ponder's checkpoint string: 10 digits of block timestamp, 16 of chain id, 16 of block number, then event position. */
export function decodeCheckpointBlock(checkpoint: string): { number: number; timestamp: number } {
  return {
    timestamp: Number(checkpoint.slice(0, 10)),
    number: Number(checkpoint.slice(26, 42)),
  };
}
