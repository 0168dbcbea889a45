const BACKSLASH = 0x5c;

const SIMPLE_ESCAPES: Record<number, number> = {
  98: 0x08, // \b
  102: 0x0c, // \f
  110: 0x0a, // \n
  114: 0x0d, // \r
  116: 0x09, // \t
  118: 0x0b, // \v
};

const isOctal = (c: number) => c >= 0x30 && c <= 0x37;
const hexValue = (c: number) =>
  c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1;

/** Decodes one field of PostgreSQL COPY text format (backslash escapes) to its raw bytes. */
export function unescapeCopyField(field: Buffer): Buffer {
  if (!field.includes(BACKSLASH)) return field;
  const out = Buffer.allocUnsafe(field.length);
  let n = 0;
  for (let i = 0; i < field.length; i++) {
    const c = field[i];
    if (c !== BACKSLASH || i + 1 === field.length) {
      out[n++] = c;
      continue;
    }
    const next = field[++i];
    if (next in SIMPLE_ESCAPES) {
      out[n++] = SIMPLE_ESCAPES[next];
    } else if (isOctal(next)) {
      let value = next - 0x30;
      for (let k = 0; k < 2 && i + 1 < field.length && isOctal(field[i + 1]); k++)
        value = value * 8 + (field[++i] - 0x30);
      out[n++] = value & 0xff;
    } else if (next === 0x78 && i + 1 < field.length && hexValue(field[i + 1]) !== -1) {
      let value = hexValue(field[++i]);
      if (i + 1 < field.length && hexValue(field[i + 1]) !== -1) value = value * 16 + hexValue(field[++i]);
      out[n++] = value;
    } else {
      out[n++] = next; // any other escaped character stands for itself, e.g. "\\"
    }
  }
  return out.subarray(0, n);
}
