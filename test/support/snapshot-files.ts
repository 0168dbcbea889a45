import { createReadStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { type LoopbackServer, startLoopbackServer } from "../../harness/loopback-server";
import { extractPayload, readSnapshotFile, sha256OfFile, writeSnapshotFile } from "../../snapshot/container";
import { POSTGRES_PAYLOAD } from "../../snapshot/create-postgres";
import type { SnapshotManifest } from "../../snapshot/manifest";
import { runTool } from "../../snapshot/tools";

/** Rewrites a snapshot file: another manifest and/or another payload, with the payload's size and sha256 made to fit. */
export async function forgeSnapshot(
  from: string,
  to: string,
  change: { manifest?: (m: SnapshotManifest) => void; payloadFile?: string },
): Promise<void> {
  const { manifest, payloadOffset } = await readSnapshotFile(from);
  const dir = mkdtempSync(join(tmpdir(), "nameindex-forge-"));
  try {
    const payload = change.payloadFile ?? join(dir, "payload");
    if (!change.payloadFile) await extractPayload(from, payloadOffset, payload);
    change.manifest?.(manifest);
    manifest.payload = { ...manifest.payload, bytes: statSync(payload).size, sha256: await sha256OfFile(payload) };
    await writeSnapshotFile(to, manifest, payload);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A PostgreSQL payload with another pg_dump file and the genuine snapshot's sync rows: how an attacker would repack an
 * edited database under the genuine manifest. Returns the payload's path (a tar in `dir`).
 */
export async function repackPostgresPayload(genuine: string, dumpFile: string, dir: string): Promise<string> {
  const { payloadOffset } = await readSnapshotFile(genuine);
  const work = mkdtempSync(join(dir, "repack-"));
  await extractPayload(genuine, payloadOffset, join(work, "genuine.tar"));
  await runTool("tar", ["-xf", join(work, "genuine.tar"), "-C", work, POSTGRES_PAYLOAD.syncRows]);
  await runTool("cp", [dumpFile, join(work, POSTGRES_PAYLOAD.dump)]);
  const payload = join(work, "payload.tar");
  await runTool("tar", ["-cf", payload, "-C", work, POSTGRES_PAYLOAD.dump, POSTGRES_PAYLOAD.syncRows]);
  return payload;
}

/** Serves the files of a folder over plain HTTP on 127.0.0.1 (restore's https-url path, as tests can run it). */
export function serveFolder(dir: string): Promise<LoopbackServer> {
  return startLoopbackServer(async (req, res) => {
    const name = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname.slice(1));
    if (name.includes("/") || name.includes("..")) {
      res.writeHead(404).end();
      return;
    }
    try {
      const size = statSync(join(dir, name)).size;
      res.writeHead(200, { "content-type": "application/octet-stream", "content-length": size });
      createReadStream(join(dir, name)).pipe(res);
    } catch {
      res.writeHead(404).end();
    }
  });
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
