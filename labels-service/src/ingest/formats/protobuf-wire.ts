/** Minimal protobuf wire-format decoding: just what the .ensrainbow messages use. */

export interface Cursor {
  buf: Buffer;
  pos: number;
}

/** A varint, or -1 when the buffer ends inside it. Values up to 2^53 are exact. */
export function readVarint(c: Cursor, end: number): number {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    if (c.pos >= end) return -1;
    const byte = c.buf[c.pos++];
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return value;
    scale *= 128;
  }
  throw new Error("varint longer than 10 bytes");
}

export type FieldValue =
  | { field: number; bytes: Buffer }
  | { field: number; varint: number }
  | { field: number; skipped: true };

/** Reads one field of a complete message that ends at `end`. */
export function readField(c: Cursor, end: number): FieldValue {
  const key = readVarint(c, end);
  if (key < 0) throw new Error("truncated field key");
  const field = Math.floor(key / 8);
  switch (key & 7) {
    case 0: {
      const varint = readVarint(c, end);
      if (varint < 0) throw new Error(`truncated varint in field ${field}`);
      return { field, varint };
    }
    case 2: {
      const length = readVarint(c, end);
      if (length < 0 || c.pos + length > end) throw new Error(`truncated bytes in field ${field}`);
      const bytes = c.buf.subarray(c.pos, c.pos + length);
      c.pos += length;
      return { field, bytes };
    }
    case 1:
      c.pos += 8;
      break;
    case 5:
      c.pos += 4;
      break;
    default:
      throw new Error(`unsupported wire type ${key & 7} in field ${field}`);
  }
  if (c.pos > end) throw new Error(`truncated field ${field}`);
  return { field, skipped: true };
}
