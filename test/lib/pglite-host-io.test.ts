import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/*
 * The PGlite patch NodeFS-protocol-file-in-memory (fs/nodefs.js, docs/patches.md): PostgreSQL opens and truncates `.s.PGSQL.5432.out` in
 * its data directory on every query, though PGlite's protocol never goes through it; on a host directory that was
 * four file-system calls per query. The patch keeps the file in memory. What must hold: the host never sees the file,
 * and answers, small or larger than PGlite's shared-memory buffer, still arrive whole.
 */

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "pglite-host-io-test-"));
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe("PGlite on a host directory", () => {
  it("answers queries without writing .s.PGSQL.5432.out to the host", async () => {
    const directory = join(work, "data");
    const pglite = new PGlite(directory);
    try {
      for (let n = 0; n < 50; n++)
        expect((await pglite.query<{ n: number }>("SELECT $1::int AS n", [n])).rows).toEqual([{ n }]);
      // 24 MB of result, more than the shared-memory buffer PGlite answers through.
      const { rows } = await pglite.query<{ big: string }>("SELECT repeat('x', 24000000) AS big");
      expect(rows[0]!.big.length).toBe(24_000_000);
      expect(existsSync(join(directory, "PG_VERSION"))).toBe(true);
      expect(existsSync(join(directory, ".s.PGSQL.5432.out"))).toBe(false);
    } finally {
      await pglite.close();
    }
    expect(existsSync(join(directory, ".s.PGSQL.5432.out"))).toBe(false);
  }, 120_000);
});
