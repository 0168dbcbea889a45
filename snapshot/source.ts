import { createReadStream, statSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { SnapshotError } from "./errors";
import { Progress } from "./progress";

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);
/** Attempts in a row that bring no new byte before a download is given up. */
const RESUME_ATTEMPTS = 5;

export interface SnapshotSource {
  /** The file's bytes from the start, read as they are consumed (a download is never stored whole). */
  bytes: AsyncGenerator<Buffer>;
  /** The file's size when known before reading it (a file; an HTTP Content-Length). */
  totalBytes: number | undefined;
}

/**
 * A local path, or an https URL read as one stream (plain http only from a loopback address: tests, or a local
 * mirror) that resumes a dropped connection with Range requests and prints a progress line every few seconds.
 */
export async function openSnapshotSource(source: string, log: (line: string) => void): Promise<SnapshotSource> {
  if (!/^https?:\/\//i.test(source)) {
    const totalBytes = statSync(source).size;
    async function* read(): AsyncGenerator<Buffer> {
      // Pieces of 1 MiB: the loaders downstream pay per piece, not per byte.
      for await (const chunk of createReadStream(source, { highWaterMark: 1 << 20 })) yield chunk as Buffer;
    }
    return { bytes: read(), totalBytes };
  }
  const url = new URL(source);
  if (url.protocol === "http:" && !LOOPBACK.has(url.hostname)) {
    throw new SnapshotError("download", `${source}: use https (plain http is accepted only from a loopback address)`);
  }
  const first = await request(source, url, {}).catch((error: unknown) => {
    throw downloadError(source, error);
  });
  if (!first.ok || !first.body) throw new SnapshotError("download", `${source} answered HTTP ${first.status}`);
  const length = first.headers.get("content-length");
  const totalBytes = length === null ? undefined : Number(length);
  // The file resumed must be the file begun: a Range request carries its validator, so a changed file answers whole.
  const validator = first.headers.get("etag") ?? first.headers.get("last-modified");
  const ranges = first.headers.get("accept-ranges") === "bytes";
  return { bytes: download(source, url, first, totalBytes, validator, ranges, log), totalBytes };
}

function request(source: string, url: URL, headers: Record<string, string>): Promise<Response> {
  return fetch(url, { headers }).catch((error: unknown) => {
    throw downloadError(source, error);
  });
}

function downloadError(source: string, error: unknown): SnapshotError {
  if (error instanceof SnapshotError) return error;
  return new SnapshotError("download", `${source}: the download failed: ${causeOf(error)}`);
}

/** fetch's errors say "terminated" or "fetch failed"; the socket's reason is in their cause. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { message?: string } }).cause?.message;
  return `${(error as Error).message}${cause ? ` (${cause})` : ""}`;
}

async function* download(
  source: string,
  url: URL,
  first: Response,
  totalBytes: number | undefined,
  validator: string | null,
  ranges: boolean,
  log: (line: string) => void,
): AsyncGenerator<Buffer> {
  const progress = new Progress("download", totalBytes, log);
  let response: Response | null = first;
  let received = 0;
  let idle = 0;
  let failed = "";
  for (;;) {
    let dropped: unknown = null;
    if (response?.body) {
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          received += chunk.byteLength;
          idle = 0;
          progress.update(received);
          yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        }
      } catch (error) {
        dropped = error;
      }
    }
    if (!dropped && (totalBytes === undefined || received >= totalBytes)) break;
    // Ended early, or the connection dropped: ask for the rest.
    const why = dropped ? causeOf(dropped) : failed || "the server closed the response early";
    failed = "";
    if (!ranges || totalBytes === undefined) {
      throw new SnapshotError(
        "download",
        `${source}: the download stopped at byte ${received} (${why}), and the server does not resume (no Accept-Ranges: bytes and Content-Length)`,
      );
    }
    idle += 1;
    if (idle > RESUME_ATTEMPTS) {
      throw new SnapshotError(
        "download",
        `${source}: the download stopped at byte ${received} of ${totalBytes} (${why}) ${RESUME_ATTEMPTS} times in a row`,
      );
    }
    log(`download: the connection dropped at byte ${received} of ${totalBytes} (${why}); resuming from there`);
    await sleep(500 * 2 ** (idle - 1));
    response = null;
    try {
      const headers: Record<string, string> = { range: `bytes=${received}-` };
      if (validator) headers["if-range"] = validator;
      const next = await request(source, url, headers);
      const range = /^bytes (\d+)-\d+\/(\d+)$/.exec(next.headers.get("content-range") ?? "");
      if (next.status !== 206 || Number(range?.[1]) !== received || Number(range?.[2]) !== totalBytes) {
        await next.body?.cancel().catch(() => {});
        throw new SnapshotError(
          "download",
          `${source}: asked to resume at byte ${received}, the server answered HTTP ${next.status}${range ? ` (${range[0]})` : ""}: the file changed or the server does not resume`,
        );
      }
      response = next;
    } catch (error) {
      if (error instanceof SnapshotError && error.kind === "download" && error.message.includes("asked to resume")) {
        throw error;
      }
      // A request that fails outright (the server still down) counts as one more attempt.
      failed = (error as Error).message;
    }
  }
  progress.done(received);
}
