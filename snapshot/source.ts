import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { SnapshotError } from "./errors";

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * A local path as it is, or an https URL downloaded to a temporary file (plain http only from a loopback address:
 * tests, or a local mirror). `cleanup` removes the download.
 */
export async function fetchSnapshotSource(source: string): Promise<{ file: string; cleanup(): void }> {
  if (!/^https?:\/\//i.test(source)) return { file: source, cleanup() {} };
  const url = new URL(source);
  if (url.protocol === "http:" && !LOOPBACK.has(url.hostname)) {
    throw new SnapshotError("download", `${source}: use https (plain http is accepted only from a loopback address)`);
  }
  const dir = mkdtempSync(join(tmpdir(), "nameindex-download-"));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    const res = await fetch(url);
    if (!res.ok || !res.body) throw new SnapshotError("download", `${source} answered HTTP ${res.status}`);
    const file = join(dir, "snapshot");
    await pipeline(Readable.fromWeb(res.body as import("node:stream/web").ReadableStream), createWriteStream(file));
    return { file, cleanup };
  } catch (error) {
    cleanup();
    if (error instanceof SnapshotError) throw error;
    throw new SnapshotError("download", `${source}: the download failed: ${(error as Error).message}`);
  }
}
