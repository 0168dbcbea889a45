import { isUtf8 } from "node:buffer";
import { labelSetIdSchema } from "../../label-set.js";
import { MalformedInputError } from "../malformed-input.js";
import type { FormatReader } from "../sink.js";
import { type Cursor, readField, readVarint } from "./protobuf-wire.js";

const FORMAT_IDENTIFIER = "ensrainbow";
const SUPPORTED_FILE_FORMAT_VERSION = 1;
// No real message comes near this; a larger length prefix means the file is not what it claims to be.
const MAX_MESSAGE_BYTES = 16 << 20;

interface Header {
  labelSetId: string;
  labelSetVersion: number;
}

/**
 * The peer's .ensrainbow file: varint-length-delimited protobuf messages. First a header
 * {1: format_identifier "ensrainbow", 2: file format version (1), 3: label_set_id, 4: label_set_version},
 * then one record per message {1: labelhash (32 bytes), 2: label}. The header fixes the label set id and version.
 */
export const readEnsrainbow: FormatReader = async (chunks, file, sink, labelSetId) => {
  let header: Header | null = null;
  let recordNumber = 0;
  let carry: Buffer | null = null;
  let offsetOfCarry = 0;

  const fail = (where: string, reason: string): never => {
    throw new MalformedInputError(file, where, reason);
  };

  const onMessage = (c: Cursor, end: number, offset: number) => {
    if (header === null) {
      header = parseHeader(c, end, (reason) => fail(`header (byte ${offset})`, reason));
      if (labelSetId !== undefined && labelSetId !== header.labelSetId) {
        fail("header", `the file's label set id "${header.labelSetId}" differs from --label-set-id "${labelSetId}"`);
      }
      sink.start(header, (n) => `record ${n}`);
      return;
    }
    recordNumber++;
    const where = `record ${recordNumber} (byte ${offset})`;
    let labelhash: Buffer | null = null;
    let label: Buffer = Buffer.alloc(0); // proto3: an absent string field is the empty string
    try {
      while (c.pos < end) {
        const f = readField(c, end);
        if (f.field === 1 && "bytes" in f) labelhash = f.bytes;
        else if (f.field === 2 && "bytes" in f) label = f.bytes;
      }
    } catch (error) {
      fail(where, (error as Error).message);
    }
    if (labelhash === null || labelhash.length !== 32) fail(where, "the labelhash is missing or not 32 bytes");
    if (!isUtf8(label)) fail(where, "the label is not valid UTF-8");
    sink.record(label, labelhash, recordNumber);
  };

  for await (const incoming of chunks) {
    const buf: Buffer = carry === null ? incoming : Buffer.concat([carry, incoming]);
    const c: Cursor = { buf, pos: 0 };
    for (;;) {
      const messageStart = c.pos;
      const length = readVarint(c, buf.length);
      if (length > MAX_MESSAGE_BYTES)
        fail(`byte ${offsetOfCarry + messageStart}`, `message length ${length} is not plausible`);
      if (length < 0 || c.pos + length > buf.length) {
        c.pos = messageStart;
        break;
      }
      const end = c.pos + length;
      onMessage(c, end, offsetOfCarry + messageStart);
      c.pos = end;
    }
    offsetOfCarry += c.pos;
    carry = c.pos < buf.length ? Buffer.from(buf.subarray(c.pos)) : null;
    await sink.chunkDone();
  }
  if (carry !== null) fail(`byte ${offsetOfCarry}`, "the file ends inside a message (truncated?)");
  if (header === null) fail("header", "the file is empty: no .ensrainbow header");
};

function parseHeader(c: Cursor, end: number, fail: (reason: string) => never): Header {
  let identifier = "";
  let fileFormatVersion = 0;
  let labelSetId = "";
  let labelSetVersion = 0;
  try {
    while (c.pos < end) {
      const f = readField(c, end);
      if (f.field === 1 && "bytes" in f) identifier = f.bytes.toString("utf8");
      else if (f.field === 2 && "varint" in f) fileFormatVersion = f.varint;
      else if (f.field === 3 && "bytes" in f) labelSetId = f.bytes.toString("utf8");
      else if (f.field === 4 && "varint" in f) labelSetVersion = f.varint;
    }
  } catch (error) {
    fail((error as Error).message);
  }
  if (identifier !== FORMAT_IDENTIFIER) fail(`not an .ensrainbow file (format identifier "${identifier}")`);
  if (fileFormatVersion !== SUPPORTED_FILE_FORMAT_VERSION) {
    fail(
      `file format version ${fileFormatVersion} is not supported (this service reads version ${SUPPORTED_FILE_FORMAT_VERSION})`,
    );
  }
  const id = labelSetIdSchema.safeParse(labelSetId);
  if (!id.success) fail(`invalid label set id "${labelSetId}": ${id.error.issues[0].message}`);
  return { labelSetId, labelSetVersion };
}
