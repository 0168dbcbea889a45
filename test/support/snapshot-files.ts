import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { projectRoot } from "../../harness/indexer-harness";
import { type LoopbackServer, startLoopbackServer } from "../../harness/loopback-server";
import { type PayloadFile, readSnapshotHead, writeSnapshotFile } from "../../snapshot/container";
import type { SnapshotManifest } from "../../snapshot/manifest";

/** `npm run snapshot -- <args>` as an operator runs it (scripts/snapshot.ts): its exit code and output. */
export async function snapshotCli(env: NodeJS.ProcessEnv, args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)("node", ["--import", "tsx", "scripts/snapshot.ts", ...args], {
      cwd: projectRoot,
      env,
    });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

/** A snapshot file's manifest and its payload's parts, each written to its own file in `dir`. */
export async function splitSnapshot(
  file: string,
  dir: string,
): Promise<{ manifest: SnapshotManifest; parts: PayloadFile[] }> {
  const { manifest, payload } = await readSnapshotHead(createReadStream(file)[Symbol.asyncIterator](), file, undefined);
  const parts: PayloadFile[] = [];
  let chunk: Buffer = Buffer.alloc(0);
  for (const part of manifest.payload.parts) {
    const out = createWriteStream(join(dir, part.name));
    for (let left = part.bytes; left > 0; ) {
      if (chunk.length === 0) {
        const next = await payload.next();
        if (next.done) throw new Error(`${file} ends inside part ${part.name}`);
        chunk = next.value;
      }
      const take = chunk.subarray(0, left);
      chunk = chunk.subarray(take.length);
      left -= take.length;
      if (!out.write(take)) await once(out, "drain");
    }
    out.end();
    await once(out, "finish");
    parts.push({ name: part.name, file: join(dir, part.name) });
  }
  return { manifest, parts };
}

/**
 * Rewrites a snapshot file: another manifest and/or other payload parts (by name), with the payload's parts, size and
 * sha256 made to fit: how an attacker would repack an edited index under the genuine manifest.
 */
export async function forgeSnapshot(
  from: string,
  to: string,
  change: { manifest?: (m: SnapshotManifest) => void; parts?: Record<string, string> },
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "nameindex-forge-"));
  try {
    const { manifest, parts } = await splitSnapshot(from, dir);
    const files = parts.map((p) => ({ name: p.name, file: change.parts?.[p.name] ?? p.file }));
    change.manifest?.(manifest);
    const hash = createHash("sha256");
    for (const p of files) for await (const chunk of createReadStream(p.file)) hash.update(chunk as Buffer);
    const sized = files.map((p) => ({ name: p.name, bytes: statSync(p.file).size }));
    manifest.payload = {
      ...manifest.payload,
      parts: sized,
      bytes: sized.reduce((sum, p) => sum + p.bytes, 0),
      sha256: hash.digest("hex"),
    };
    await writeSnapshotFile(to, manifest, files);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Serves the files of a folder over plain HTTP on 127.0.0.1 (restore's https-url path, as tests can run it), with
 * Range requests as object stores answer them. `cutOnce` names files whose first response the server cuts off after
 * that many bytes, as a dropped connection does; `requests` lists what was asked (`<name> <range or "whole">`).
 */
export async function serveFolder(
  dir: string,
  cutOnce: Record<string, number> = {},
  /** Answer every request with the whole file (200), Range or not, while advertising byte ranges: a proxy in the way. */
  ignoreRange = false,
): Promise<LoopbackServer & { requests: string[] }> {
  const requests: string[] = [];
  const cut = new Map(Object.entries(cutOnce));
  const server = await startLoopbackServer(async (req, res) => {
    const name = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname.slice(1));
    if (name.includes("/") || name.includes("..")) {
      res.writeHead(404).end();
      return;
    }
    let stat: ReturnType<typeof statSync>;
    try {
      stat = statSync(join(dir, name));
    } catch {
      res.writeHead(404).end();
      return;
    }
    const size = stat.size;
    const etag = `"${size}-${stat.mtimeMs}"`;
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? "");
    const start = range && !ignoreRange && (req.headers["if-range"] ?? etag) === etag ? Number(range[1]) : 0;
    requests.push(`${name} ${range ? req.headers.range : "whole"}`);
    const headers = {
      "content-type": "application/octet-stream",
      "content-length": size - start,
      "accept-ranges": "bytes",
      etag,
      ...(start > 0 ? { "content-range": `bytes ${start}-${size - 1}/${size}` } : {}),
    };
    res.writeHead(start > 0 ? 206 : 200, headers);
    const cutAfter = cut.get(name);
    if (cutAfter === undefined) {
      createReadStream(join(dir, name), { start }).pipe(res);
      return;
    }
    cut.delete(name);
    const part = createReadStream(join(dir, name), { start, end: start + cutAfter - 1 });
    part.pipe(res, { end: false });
    part.on("end", () => res.socket?.destroy());
  });
  return { ...server, requests };
}

/** The schemas of a database other than PostgreSQL's own: what a refused restore must leave empty. */
export async function userSchemas(connectionString: string): Promise<string[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      `select nspname as n from pg_namespace where nspname not like 'pg\\_%' and nspname not in ('information_schema', 'public') order by 1`,
    );
    return rows.map((r) => r.n);
  } finally {
    await client.end();
  }
}
