import { createHash } from "node:crypto";
import { once } from "node:events";
import { createReadStream, createWriteStream, statSync } from "node:fs";
import { chunkRoot } from "./chunks";
import { SnapshotError } from "./errors";
import { manifestSchema, SNAPSHOT_FORMAT, type SnapshotManifest } from "./manifest";

/*
 * The snapshot file: one line `nameindex-snapshot/3 <manifest bytes>`, the manifest (JSON), then the payload: its
 * parts one after another (manifest.ts). The manifest names the payload's size and sha256; everything before the
 * payload is read and checked first, so a file that is not a snapshot, of another format or with a damaged manifest is
 * refused before anything is restored, and the payload can then be loaded as it arrives (payload.ts).
 */
const MAGIC = `${SNAPSHOT_FORMAT} `;
/** Longer than any header line: `nameindex-snapshot/<n> <bytes>`. */
const HEADER_MAX = 64;

export interface PayloadFile {
  name: string;
  file: string;
}

/** Stamps the manifest's format, time and payload (parts, size, sha256), then writes the file: what every create ends with. */
export async function sealSnapshot(
  file: string,
  parts: Omit<SnapshotManifest, "format" | "createdAt" | "payload">,
  payloadKind: SnapshotManifest["payload"]["kind"],
  payloadFiles: PayloadFile[],
): Promise<SnapshotManifest> {
  const hash = createHash("sha256");
  for (const part of payloadFiles) for await (const chunk of createReadStream(part.file)) hash.update(chunk as Buffer);
  const sized = payloadFiles.map((p) => ({ name: p.name, bytes: statSync(p.file).size }));
  const manifest: SnapshotManifest = {
    format: SNAPSHOT_FORMAT,
    createdAt: new Date().toISOString(),
    ...parts,
    payload: {
      kind: payloadKind,
      bytes: sized.reduce((sum, p) => sum + p.bytes, 0),
      sha256: hash.digest("hex"),
      parts: sized,
    },
  };
  await writeSnapshotFile(file, manifest, payloadFiles);
  return manifest;
}

export async function writeSnapshotFile(
  file: string,
  manifest: SnapshotManifest,
  payloadFiles: PayloadFile[],
): Promise<void> {
  const json = Buffer.from(JSON.stringify(manifest));
  const out = createWriteStream(file);
  const write = async (chunk: Buffer | string) => {
    if (!out.write(chunk)) await once(out, "drain");
  };
  await write(`${MAGIC}${json.length}\n`);
  await write(json);
  for (const part of payloadFiles) for await (const chunk of createReadStream(part.file)) await write(chunk as Buffer);
  out.end();
  await once(out, "finish");
}

/** Reads exact byte counts off an async stream of chunks, then hands the rest on. */
class ByteReader {
  private buffered: Buffer = Buffer.alloc(0);
  constructor(private readonly chunks: AsyncIterator<Buffer>) {}

  /** Up to `n` bytes (fewer only at the end of the stream). */
  async read(n: number): Promise<Buffer> {
    const parts: Buffer[] = [];
    let have = 0;
    while (have < n) {
      if (this.buffered.length === 0) {
        const next = await this.chunks.next();
        if (next.done) break;
        this.buffered = next.value;
      }
      const take = this.buffered.subarray(0, n - have);
      this.buffered = this.buffered.subarray(take.length);
      parts.push(take);
      have += take.length;
    }
    return Buffer.concat(parts);
  }

  /** The bytes read but not taken, then the rest of the stream. */
  async *rest(): AsyncGenerator<Buffer> {
    try {
      if (this.buffered.length > 0) yield this.buffered;
      this.buffered = Buffer.alloc(0);
      for (;;) {
        const next = await this.chunks.next();
        if (next.done) return;
        yield next.value;
      }
    } finally {
      await this.chunks.return?.();
    }
  }
}

export interface SnapshotHead {
  manifest: SnapshotManifest;
  /** Where the payload starts in the file. */
  payloadOffset: number;
  /** The payload's bytes as they arrive (not yet checked against the manifest's sha256: payload.ts does). */
  payload: AsyncGenerator<Buffer>;
}

/**
 * Reads and checks the header and the manifest (its schema, each table's chunk list against its root) off the start of
 * a snapshot's bytes, and the payload's size when the whole file's is known (a file, an HTTP Content-Length).
 */
export async function readSnapshotHead(
  chunks: AsyncIterator<Buffer>,
  label: string,
  totalBytes: number | undefined,
): Promise<SnapshotHead> {
  const reader = new ByteReader(chunks);
  const head = await reader.read(HEADER_MAX);
  const newline = head.indexOf(10);
  const line = newline < 0 ? "" : head.subarray(0, newline).toString("latin1");
  const other = /^(nameindex-snapshot\/\d+) \d+$/.exec(line);
  if (other && other[1] !== SNAPSHOT_FORMAT) {
    // Another release's layout (format 1: one digest per table; format 2: one tar for pg_restore on disk).
    throw new SnapshotError(
      "format",
      `${label} is a ${other[1]} file; this release reads ${SNAPSHOT_FORMAT}: snapshot the index again with this release`,
    );
  }
  if (!line.startsWith(MAGIC) || !/^\d+$/.test(line.slice(MAGIC.length))) {
    throw new SnapshotError("not-a-snapshot", `${label} is not a nameindex snapshot (no "${SNAPSHOT_FORMAT}" header)`);
  }
  const manifestBytes = Number(line.slice(MAGIC.length));
  const payloadOffset = newline + 1 + manifestBytes;
  const afterHeader = head.subarray(newline + 1);
  const buffer =
    afterHeader.length >= manifestBytes
      ? afterHeader.subarray(0, manifestBytes)
      : Buffer.concat([afterHeader, await reader.read(manifestBytes - afterHeader.length)]);
  if (buffer.length < manifestBytes) {
    throw new SnapshotError("truncated", `${label} is truncated: it ends inside the manifest`);
  }
  const manifest = parseManifest(buffer, label);
  if (totalBytes !== undefined) checkPayloadSize(label, totalBytes - payloadOffset, manifest.payload.bytes);
  const leftover = afterHeader.subarray(manifestBytes);
  async function* payload(): AsyncGenerator<Buffer> {
    if (leftover.length > 0) yield leftover;
    yield* reader.rest();
  }
  return { manifest, payloadOffset, payload: payload() };
}

function parseManifest(buffer: Buffer, label: string): SnapshotManifest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(buffer.toString("utf8"));
  } catch {
    throw new SnapshotError("bad-manifest", `${label}: the manifest is not JSON`);
  }
  const result = manifestSchema.safeParse(parsed);
  if (!result.success) {
    throw new SnapshotError("bad-manifest", `${label}: the manifest is invalid: ${result.error.issues[0]?.message}`);
  }
  const manifest = result.data;
  for (const [name, table] of Object.entries(manifest.tables)) {
    if (chunkRoot(table.rows, manifest.chunkRows, table.chunks) !== table.root) {
      throw new SnapshotError("bad-manifest", `${label}: table ${name}'s chunk list does not hash to its root`);
    }
  }
  return manifest;
}

/** Refuses a payload shorter or longer than the manifest says (`have`: the bytes the file holds after the manifest). */
export function checkPayloadSize(label: string, have: number, expected: number): void {
  if (have < expected) {
    throw new SnapshotError("truncated", `${label} is truncated: the payload has ${have} of ${expected} bytes`);
  }
  if (have > expected) throw new SnapshotError("payload", `${label}: ${have - expected} bytes after the payload`);
}

/** Refuses a payload whose sha256 is not the manifest's. */
export function checkPayloadDigest(label: string, digest: string, manifest: SnapshotManifest): void {
  if (digest !== manifest.payload.sha256) {
    throw new SnapshotError(
      "payload",
      `${label}: the payload's sha256 is ${digest}, the manifest says ${manifest.payload.sha256}`,
    );
  }
}

/**
 * A local snapshot file read whole and checked (header, manifest, the payload's size and sha256): what tests and
 * benches inspect a file with. Restore reads through `readSnapshotHead` and checks the payload as it loads it.
 */
export async function readSnapshotFile(
  file: string,
  label = file,
): Promise<{ manifest: SnapshotManifest; payloadOffset: number }> {
  const stream = createReadStream(file);
  const { manifest, payloadOffset, payload } = await readSnapshotHead(
    stream[Symbol.asyncIterator](),
    label,
    statSync(file).size,
  );
  const hash = createHash("sha256");
  for await (const chunk of payload) hash.update(chunk);
  checkPayloadDigest(label, hash.digest("hex"), manifest);
  return { manifest, payloadOffset };
}
