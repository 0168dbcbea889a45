const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/**
 * Calls onLine for every line of a chunked byte stream, without the line ending ("\n" or "\r\n").
 * Lines are subarrays of the chunk (no copy) unless they straddle two chunks. Line numbers start at 1.
 */
export async function forEachLine(
  chunks: AsyncIterable<Buffer>,
  onLine: (line: Buffer, lineNumber: number) => void,
  afterChunk: () => Promise<void>,
): Promise<number> {
  let carry: Buffer | null = null;
  let lineNumber = 0;
  for await (const incoming of chunks) {
    const chunk: Buffer = carry === null ? incoming : Buffer.concat([carry, incoming]);
    let start = 0;
    let end = chunk.indexOf(NEWLINE, start);
    while (end !== -1) {
      const stop = end > start && chunk[end - 1] === CARRIAGE_RETURN ? end - 1 : end;
      onLine(chunk.subarray(start, stop), ++lineNumber);
      start = end + 1;
      end = chunk.indexOf(NEWLINE, start);
    }
    carry = start < chunk.length ? Buffer.from(chunk.subarray(start)) : null;
    await afterChunk();
  }
  if (carry !== null) {
    const stop = carry[carry.length - 1] === CARRIAGE_RETURN ? carry.length - 1 : carry.length;
    onLine(carry.subarray(0, stop), ++lineNumber);
  }
  return lineNumber;
}
