import { createHash } from "node:crypto";
import { once } from "node:events";
import { PassThrough, type Readable } from "node:stream";
import { checkPayloadDigest, checkPayloadSize } from "./container";
import { SnapshotError } from "./errors";
import type { SnapshotManifest } from "./manifest";

/** Loads one part of the payload from its bytes; resolves once it has read them all. */
export type PartLoader = (part: Readable) => Promise<void>;

/**
 * Hands each part of the payload, as its bytes arrive, to its loader (one part at a time, in the manifest's order), and
 * refuses the payload at its end if its size or sha256 is not the manifest's: the sha256 is known only once every
 * byte has passed, so whatever the loaders wrote must be dropped by the caller when this rejects.
 */
export async function loadPayload(
  payload: AsyncIterator<Buffer>,
  manifest: SnapshotManifest,
  label: string,
  loaders: Record<string, PartLoader>,
): Promise<void> {
  const names = manifest.payload.parts.map((p) => p.name);
  if (names.join() !== Object.keys(loaders).join()) {
    throw new SnapshotError(
      "payload",
      `${label}: the payload's parts are ${names.join(", ")}; this release loads ${Object.keys(loaders).join(", ")}`,
    );
  }
  const hash = createHash("sha256");
  let pending: Buffer = Buffer.alloc(0);
  let received = 0;
  const next = async (): Promise<Buffer | null> => {
    if (pending.length > 0) {
      const out = pending;
      pending = Buffer.alloc(0);
      return out;
    }
    const step = await payload.next();
    if (step.done) return null;
    hash.update(step.value);
    received += step.value.length;
    return step.value;
  };
  for (const part of manifest.payload.parts) {
    const stream = new PassThrough({ highWaterMark: 1 << 20 });
    let finished = false;
    const loading = loaders[part.name]!(stream).finally(() => {
      finished = true;
    });
    // A loader that fails stops reading: its rejection, not a drain, ends the wait.
    const failed = loading.then(
      () => {},
      () => {},
    );
    let left = part.bytes;
    while (left > 0) {
      const chunk = await next();
      if (chunk === null) {
        stream.destroy();
        await failed;
        checkPayloadSize(label, received, manifest.payload.bytes);
      }
      const take = chunk!.subarray(0, left);
      pending = chunk!.subarray(take.length);
      left -= take.length;
      // A loader that failed ends the load here; one that finished before its part's end reads no more, and the bytes
      // still count towards the checksum.
      if (finished) await loading;
      else if (!stream.write(take)) await Promise.race([once(stream, "drain"), failed]);
    }
    stream.end();
    await loading;
  }
  while ((await next()) !== null) {}
  checkPayloadSize(label, received, manifest.payload.bytes);
  checkPayloadDigest(label, hash.digest("hex"), manifest);
}
