import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, dropDatabase, LOCAL_POSTGRES_URL } from "../../harness/indexer-harness";
import { autovacuumWarning } from "../../src/api/server/autovacuum-check";

/*
 * Without autovacuum an index keeps the room its updated rows leave (docs/benchmarks.md, "Where a table's bytes go"),
 * and the indexer warns its operator at start-up. This machine's server runs with autovacuum off, as some managed and
 * test servers do; `track_counts`, which autovacuum also needs, can be turned off for one database on any server.
 */

const readSqlOn = (url: string) => async (query: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(query)).rows as Record<string, unknown>[];
  } finally {
    await client.end();
  }
};

const database = `autovacuum_check_${process.pid}_${Date.now().toString(36)}`;
let untrackedUrl: string;

beforeAll(async () => {
  untrackedUrl = await createDatabase(database);
  await readSqlOn(LOCAL_POSTGRES_URL)(`ALTER DATABASE "${database}" SET track_counts = off`);
});
afterAll(async () => {
  await dropDatabase(database);
});

describe("the start-up check of the server's autovacuum", () => {
  it("warns exactly when the server runs no autovacuum", async () => {
    const [settings] = await readSqlOn(LOCAL_POSTGRES_URL)(
      "SELECT current_setting('autovacuum') AS autovacuum, current_setting('track_counts') AS track_counts",
    );
    const runs = settings!.autovacuum === "on" && settings!.track_counts === "on";
    const warning = await autovacuumWarning(readSqlOn(LOCAL_POSTGRES_URL));
    if (runs) expect(warning).toBeUndefined();
    else expect(warning).toMatch(/autovacuum is off on this server.*not reused for new rows.*Turn autovacuum on/);
  });

  it("warns on a database whose activity counters are off, which autovacuum needs", async () => {
    const [row] = await readSqlOn(untrackedUrl)("SELECT current_setting('track_counts') AS track_counts");
    expect(row).toEqual({ track_counts: "off" });
    expect(await autovacuumWarning(readSqlOn(untrackedUrl))).toMatch(/autovacuum is off on this server/);
  });
});
