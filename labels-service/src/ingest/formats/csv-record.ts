const QUOTE = 0x22;
const COMMA = 0x2c;

export type CsvParse = { fields: Buffer[] } | { incomplete: true } | { error: string };

/** Splits one RFC 4180 record into raw field bytes. "incomplete" means a quoted field runs past this text. */
export function parseCsvRecord(record: Buffer): CsvParse {
  const fields: Buffer[] = [];
  let i = 0;
  for (;;) {
    if (record[i] === QUOTE) {
      const parts: Buffer[] = [];
      let segmentStart = i + 1;
      let j = segmentStart;
      for (;;) {
        const quote = record.indexOf(QUOTE, j);
        if (quote === -1) return { incomplete: true };
        if (record[quote + 1] === QUOTE) {
          parts.push(record.subarray(segmentStart, quote + 1));
          j = quote + 2;
          segmentStart = j;
          continue;
        }
        parts.push(record.subarray(segmentStart, quote));
        i = quote + 1;
        break;
      }
      fields.push(parts.length === 1 ? parts[0] : Buffer.concat(parts));
      if (i < record.length && record[i] !== COMMA) return { error: "unexpected text after a closing quote" };
    } else {
      const comma = record.indexOf(COMMA, i);
      const end = comma === -1 ? record.length : comma;
      const field = record.subarray(i, end);
      if (field.includes(QUOTE)) return { error: 'a quote (") inside an unquoted field; quote the whole field' };
      fields.push(field);
      i = end;
    }
    if (i >= record.length) return { fields };
    i++; // past the comma
    if (i === record.length) {
      fields.push(record.subarray(i));
      return { fields };
    }
  }
}
