import { concat, type Hex, hexToBytes, stringToBytes, toHex } from "viem";
import { keccak256Hex } from "../../labels-service/src/keccak";
import { encodeLabelhash, isShowableLabel, type LabelMode } from "./labels";

/**
 * DNS wire-format names (RFC 1035 §3.1), as the NameWrapper's `NameWrapped` and 3DNS's `RegistrationCreated` emit
 * them: length-prefixed labels ending with a zero byte.
 */

export interface WireLabel {
  /** The label's bytes decoded as UTF-8, or null when they are not valid UTF-8. */
  text: string | null;
  /** keccak256 of the label's bytes, so a label can be encoded even when its text is unusable. */
  labelhash: Hex;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The labels of a wire-format name, first (leftmost) label first; null when malformed. The root is `[]`. */
export function decodeDnsWireName(name: Hex | Uint8Array): WireLabel[] | null {
  let bytes: Uint8Array;
  try {
    bytes = typeof name === "string" ? hexToBytes(name) : name;
  } catch {
    return null;
  }
  const labels: WireLabel[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const length = bytes[offset]!;
    offset += 1;
    if (length === 0) {
      // The terminating root label must end the buffer.
      return offset === bytes.length ? labels : null;
    }
    if (offset + length > bytes.length) return null;
    const raw = bytes.subarray(offset, offset + length);
    let text: string | null;
    try {
      text = utf8.decode(raw);
    } catch {
      text = null;
    }
    labels.push({ text, labelhash: keccak256Hex(raw) });
    offset += length;
  }
  return null; // ran out of bytes before the terminating zero
}

export interface DecodedWrappedName {
  /** The first label when it is showable (stored as `labelName`), else null. */
  labelName: string | null;
  /** The whole name as stored, or null when it cannot be shown. */
  name: string | null;
}

/**
 * The NameWrapper's name as the index stores it.
 * - Compatible mode reproduces the subgraph's `decodeName`: any label with `\0`, `.`, `[`, `]` (or undecodable
 *   bytes) makes the whole name null, and the root decodes to the name ".".
 * - Default mode keeps the name and encodes each unnormalized label as `[labelhash]`.
 */
export function decodeWrappedName(wire: Hex | Uint8Array, mode: LabelMode): DecodedWrappedName {
  const labels = decodeDnsWireName(wire);
  if (labels === null) return { labelName: null, name: null };
  if (labels.length === 0)
    return mode === "subgraph" ? { labelName: null, name: "." } : { labelName: null, name: null };
  if (mode === "subgraph") {
    const texts: string[] = [];
    for (const l of labels) {
      if (l.text === null || !isShowableLabel(l.text, mode)) return { labelName: null, name: null };
      texts.push(l.text);
    }
    return { labelName: texts[0]! === "" ? null : texts[0]!, name: texts.join(".") };
  }
  const shown = labels.map((l) =>
    l.text !== null && isShowableLabel(l.text, mode) ? l.text : encodeLabelhash(l.labelhash),
  );
  const first = labels[0]!;
  return {
    labelName: first.text !== null && isShowableLabel(first.text, mode) ? first.text : null,
    name: shown.join("."),
  };
}

/**
 * A name in DNS wire format (ENSIP-10's `resolve(bytes name, …)` argument). A label over 255 bytes cannot be
 * length-prefixed, so it goes as its `[labelhash]`, which ENSIP-10 resolvers understand.
 */
export function dnsEncode(name: string): Hex {
  const parts = name.split(".").flatMap((label) => {
    let bytes = stringToBytes(label);
    if (bytes.length > 255) bytes = stringToBytes(`[${keccak256Hex(bytes).slice(2)}]`);
    return [Uint8Array.of(bytes.length), bytes];
  });
  return toHex(concat([...parts, Uint8Array.of(0)]));
}

const DNS_TYPE_TXT = 16;
const utf8Lenient = new TextDecoder("utf-8");

/**
 * A DNS TXT record as the text record a 3DNS resolver answers for it: the record's owner name `<key>.ens` is the
 * text key (`com.twitter.ens` → `com.twitter`), its first RR's character-strings joined are the value. Null when the
 * record does not change a text (another type, another name, a malformed name or record); `record` absent (a
 * deletion) means the text is gone: `{ key, value: null }`.
 */
export function textOfDnsTxtRecord(
  name: Hex,
  resource: number,
  record?: Hex,
): { key: string; value: string | null } | null {
  if (resource !== DNS_TYPE_TXT) return null;
  const labels = decodeDnsWireName(name);
  if (labels === null || labels.length < 2 || labels.some((l) => l.text === null)) return null;
  if (labels[labels.length - 1]!.text !== "ens") return null;
  const key = labels
    .slice(0, -1)
    .map((l) => l.text)
    .join(".");
  if (record === undefined) return { key, value: null };
  const value = firstTxtValue(hexToBytes(record));
  return value === null ? null : { key, value };
}

/** The joined character-strings of the first resource record (RFC 1035 §3.2.1) when it is a TXT RR, else null. */
function firstTxtValue(rrs: Uint8Array): string | null {
  let i = 0;
  // The owner name: uncompressed labels up to the zero byte.
  for (;;) {
    if (i >= rrs.length) return null;
    const length = rrs[i]!;
    i += 1 + length;
    if (length === 0) break;
  }
  if (i + 10 > rrs.length) return null;
  const type = (rrs[i]! << 8) | rrs[i + 1]!;
  const rdLength = (rrs[i + 8]! << 8) | rrs[i + 9]!;
  i += 10;
  if (type !== DNS_TYPE_TXT || i + rdLength > rrs.length) return null;
  const parts: Uint8Array[] = [];
  for (const end = i + rdLength; i < end; ) {
    const length = rrs[i]!;
    if (i + 1 + length > end) return null;
    parts.push(rrs.subarray(i + 1, i + 1 + length));
    i += 1 + length;
  }
  return utf8Lenient.decode(concat(parts));
}
