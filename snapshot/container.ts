import { createHash } from "node:crypto";
import { closeSync, createReadStream, createWriteStream, openSync, readSync, statSync } from "node:fs";
import { pipeline } from "node:stream/promises";
import { chunkRoot } from "./chunks";
import { SnapshotError } from "./errors";
import { manifestSchema, SNAPSHOT_FORMAT, type SnapshotManifest } from "./manifest";

/*
 * The snapshot file: one line `nameindex-snapshot/2 <manifest bytes>`, the manifest (JSON), then the payload (pg_dump's
 * compressed custom format, or a gzipped tar of the PGlite directory). The manifest names the payload's size and
 * sha256, so a truncated or altered payload is found before anything is restored.
 */
const MAGIC = `${SNAPSHOT_FORMAT} `;

/** Stamps the manifest's format, time and payload (size, sha256), then writes the file: what every database's create ends with. */
export async function sealSnapshot(
  file: string,
  parts: Omit<SnapshotManifest, "format" | "createdAt" | "payload">,
  payloadKind: SnapshotManifest["payload"]["kind"],
  payloadFile: string,
): Promise<SnapshotManifest> {
  const manifest: SnapshotManifest = {
    format: SNAPSHOT_FORMAT,
    createdAt: new Date().toISOString(),
    ...parts,
    payload: { kind: payloadKind, bytes: statSync(payloadFile).size, sha256: await sha256OfFile(payloadFile) },
  };
  await writeSnapshotFile(file, manifest, payloadFile);
  return manifest;
}

export async function writeSnapshotFile(file: string, manifest: SnapshotManifest, payloadFile: string): Promise<void> {
  const json = Buffer.from(JSON.stringify(manifest));
  const out = createWriteStream(file);
  out.write(`${MAGIC}${json.length}\n`);
  out.write(json);
  await pipeline(createReadStream(payloadFile), out);
}

export async function sha256OfFile(file: string, start = 0): Promise<string> {
  const hash = createHash("sha256");
  await pipeline(createReadStream(file, { start }), hash);
  return hash.digest("hex");
}

/**
 * Reads and checks the header, the manifest (its schema, each table's chunk list against its root) and the payload's
 * checksum; returns the manifest and where the payload starts.
 */
export async function readSnapshotFile(
  file: string,
  label = file,
): Promise<{ manifest: SnapshotManifest; payloadOffset: number }> {
  const size = statSync(file).size;
  const fd = openSync(file, "r");
  let head: Buffer;
  try {
    head = Buffer.alloc(Math.min(size, 64));
    readSync(fd, head, 0, head.length, 0);
  } finally {
    closeSync(fd);
  }
  const newline = head.indexOf(10);
  const line = newline < 0 ? "" : head.subarray(0, newline).toString("latin1");
  const other = /^(nameindex-snapshot\/\d+) \d+$/.exec(line);
  if (other && other[1] !== SNAPSHOT_FORMAT) {
    // Another release's layout (format 1 had one digest per table, no chunks): read by that release only.
    throw new SnapshotError(
      "format",
      `${label} is a ${other[1]} file; this release reads ${SNAPSHOT_FORMAT}: snapshot the index again with this release`,
    );
  }
  if (!line.startsWith(MAGIC) || !/^\d+$/.test(line.slice(MAGIC.length))) {
    throw new SnapshotError("not-a-snapshot", `${label} is not a nameindex snapshot (no "${SNAPSHOT_FORMAT}" header)`);
  }
  const manifestBytes = Number(line.slice(MAGIC.length));
  const manifestStart = newline + 1;
  if (manifestStart + manifestBytes > size) {
    throw new SnapshotError("truncated", `${label} is truncated: it ends inside the manifest`);
  }
  const buffer = Buffer.alloc(manifestBytes);
  const fd2 = openSync(file, "r");
  try {
    readSync(fd2, buffer, 0, manifestBytes, manifestStart);
  } finally {
    closeSync(fd2);
  }
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
  const payloadOffset = manifestStart + manifestBytes;
  const payloadBytes = size - payloadOffset;
  if (payloadBytes < manifest.payload.bytes) {
    throw new SnapshotError(
      "truncated",
      `${label} is truncated: the payload has ${payloadBytes} of ${manifest.payload.bytes} bytes`,
    );
  }
  if (payloadBytes > manifest.payload.bytes) {
    throw new SnapshotError("payload", `${label}: ${payloadBytes - manifest.payload.bytes} bytes after the payload`);
  }
  const digest = await sha256OfFile(file, payloadOffset);
  if (digest !== manifest.payload.sha256) {
    throw new SnapshotError(
      "payload",
      `${label}: the payload's sha256 is ${digest}, the manifest says ${manifest.payload.sha256}`,
    );
  }
  return { manifest, payloadOffset };
}

/** Copies the payload out to its own file (pg_restore and tar read a file). */
export async function extractPayload(file: string, payloadOffset: number, to: string): Promise<void> {
  await pipeline(createReadStream(file, { start: payloadOffset }), createWriteStream(to));
}
