import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../harness/subgraph-fixture/pg";
import { entityOf } from "../../src/api/subgraph/model";
import type { ReadPoint } from "../../src/api/subgraph/reading";
import { byIdsQuery, type ListArgs, listQuery } from "../../src/api/subgraph/sql";
import { unchangedTablesOf } from "../../src/api/subgraph/unchanged-tables";
import { validToTriggerSql } from "../../src/lib/entity-history/valid-to-trigger";
import { rowsOf } from "../../src/lib/sql-rows";

/*
 * A query at a block reads each id's version valid then (history.ts): by its `valid_to`, which a database trigger
 * fills in (src/lib/entity-history/valid-to-trigger.ts) or the backfill's batch settles; a table nothing changed in since the block is read from its live table. The e2e tests check them on the devnet's blocks;
 * here on one small table whose versions hold every case: changed, deleted and created after the block, deleted
 * before it, unchanged.
 */

const BEFORE = 100n;
const UP_TO = 150n;
const AFTER = 200n;
const HEAD_BLOCK = { number: 1, hash: "0x01", timestamp: 1 };
const domain = entityOf("Domain");
let t: TestDatabase;

const ids = Array.from({ length: 30 }, (_, i) => `0x${i.toString(16).padStart(64, "0")}`);
const PARENT = `0x${"f".repeat(64)}`;
const OWNER = `0x${"a".repeat(40)}`;
const CREATED_AFTER = `0x${"e".repeat(64)}`;
const [RENAMED, DELETED_AFTER, DELETED_BEFORE, MOVED_AWAY] = [ids[3]!, ids[5]!, ids[7]!, ids[11]!];

interface Version {
  id: string;
  version: bigint;
  deleted?: boolean;
  name?: string;
  parent?: string;
}

// Each domain is created at BEFORE; then the changes above and below the block.
const versions: Version[] = [
  ...ids.map((id, i) => ({ id, version: BEFORE, name: `n${i}.eth`, parent: PARENT })),
  { id: DELETED_BEFORE, version: BEFORE + 10n, deleted: true },
  { id: RENAMED, version: AFTER, name: "renamed.eth", parent: PARENT },
  { id: DELETED_AFTER, version: AFTER, deleted: true },
  { id: MOVED_AWAY, version: AFTER, name: "n11.eth", parent: CREATED_AFTER },
  { id: CREATED_AFTER, version: AFTER, name: "new.eth", parent: PARENT },
];

beforeAll(async () => {
  t = await createTestDatabase("sg_history_forms");
  const createdAt = (id: string) => BigInt(ids.indexOf(id) + 1) * 12n;
  for (const statement of validToTriggerSql(t.schemaName, "domain_history")) await t.pool.query(statement);
  // As the indexer writes them (valid_to pending, for the trigger to fill in), the later versions first: the trigger
  // must close a version whichever of the two arrives first (a version put back by a revert comes after its successor).
  for (const v of [...versions].reverse()) {
    await t.pool.query(
      `INSERT INTO domain_history (id, version, deleted, name, parent_id, created_at, owner_id, subdomain_count, is_migrated, valid_to)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 0, true, -1)`,
      [
        v.id,
        v.version.toString(),
        v.deleted ?? false,
        v.name ?? null,
        v.parent ?? null,
        createdAt(v.id).toString(),
        OWNER,
      ],
    );
  }
  // The live table: each id's last version, unless it deletes the domain.
  await t.pool.query(`
    INSERT INTO domain (id, name, parent_id, created_at, owner_id, subdomain_count, is_migrated)
    SELECT DISTINCT ON (id) id, name, parent_id, created_at, owner_id, subdomain_count, is_migrated FROM domain_history
    ORDER BY id, version DESC`);
  await t.pool.query(`DELETE FROM domain WHERE id IN (SELECT id FROM domain_history h WHERE h.deleted AND h.version =
    (SELECT max(version) FROM domain_history n WHERE n.id = h.id))`);
}, 60_000);

afterAll(async () => {
  await t?.drop();
});

const reading = (at: ReadPoint) => ({ at, blockStarts: new Map<number, bigint>() });

async function rows(query: ReturnType<typeof listQuery>): Promise<string[]> {
  return rowsOf(await t.db.execute(query)).map((r) => `${r.id} ${r.name} ${r.parentId}`);
}

const pages: [string, ListArgs][] = [
  ["every domain by id", { first: 100, skip: 0 }],
  [
    "a parent's children newest first, second page",
    { where: { parent: PARENT }, orderBy: "createdAt", orderDirection: "desc", first: 5, skip: 5 },
  ],
  ["by name: the old name", { where: { name: "n3.eth" }, first: 10, skip: 0 }],
  ["by name: the new name", { where: { name: "renamed.eth" }, first: 10, skip: 0 }],
  ["an owner's domains by name", { where: { owner: OWNER }, orderBy: "name", first: 10, skip: 0 }],
  [
    "names in a set",
    { where: { name_in: ["n5.eth", "n7.eth", "new.eth", "n11.eth"] }, orderBy: "name", first: 10, skip: 0 },
  ],
];

describe("each version's valid_to", () => {
  it("is the id's next version, NULL for its last, filled in by the database as the versions arrive", async () => {
    const { rows } = await t.pool.query(`SELECT id, version::text, valid_to::text AS "validTo",
        (lead(version) OVER (PARTITION BY id ORDER BY version))::text AS next FROM domain_history`);
    expect(rows.length).toBe(versions.length);
    for (const row of rows) expect(row.validTo, `${row.id} ${row.version}`).toBe(row.next);
    expect(rows.filter((r) => r.validTo !== null).length, "the versions closed by a later one").toBe(4);
  });

  it("keeps the table's value when a row is written again with it pending (a cached row), and a restored one's", async () => {
    const closed = `SELECT valid_to::text AS v FROM domain_history WHERE id = '${RENAMED}' AND version = ${BEFORE}`;
    await t.pool.query(
      `UPDATE domain_history SET valid_to = -1, name = name WHERE id = '${RENAMED}' AND version = ${BEFORE}`,
    );
    expect((await t.pool.query(closed)).rows[0].v).toBe(AFTER.toString());
    // Ponder's revert puts rows back with the values they had: a version reopened, as before its successor came.
    await t.pool.query(`UPDATE domain_history SET valid_to = NULL WHERE id = '${RENAMED}' AND version = ${BEFORE}`);
    expect((await t.pool.query(closed)).rows[0].v).toBe(null);
    await t.pool.query(`UPDATE domain_history SET valid_to = ${AFTER} WHERE id = '${RENAMED}' AND version = ${BEFORE}`);
  });
});

describe("a read at a block", async () => {
  it("finds the history tables with no version above the block", async () => {
    const all = [
      "domain_history",
      "account_history",
      "resolver_history",
      "registration_history",
      "wrapped_domain_history",
    ];
    expect([...(await unchangedTablesOf(t.db)(UP_TO, HEAD_BLOCK))].sort()).toEqual(
      all.filter((n) => n !== "domain_history").sort(),
    );
    expect([...(await unchangedTablesOf(t.db)(AFTER, HEAD_BLOCK))].sort()).toEqual(all.sort());
  });

  it.each(pages)("%s: the rows the block held", async (_, args) => {
    const atBlock = await rows(listQuery(domain, args, [], reading({ upTo: UP_TO })));
    const latest = await rows(listQuery(domain, args, [], reading({ upTo: null })));
    expect(latest).toEqual(await rows(listQuery(domain, args, [], reading(null))));
    // What the block held: no domain deleted before it or created after it, each with its name then.
    const joined = atBlock.join("\n");
    expect(joined).not.toContain(DELETED_BEFORE);
    expect(joined).not.toContain(CREATED_AFTER);
    expect(joined).not.toContain("renamed.eth");
  });

  it("at a block nothing changed since, reads the live table: the same rows as at the head", async () => {
    const unchanged = await unchangedTablesOf(t.db)(AFTER, HEAD_BLOCK);
    for (const [, args] of pages) {
      const live = listQuery(domain, args, [], reading({ upTo: AFTER, unchanged }));
      expect(new PgDialect().sqlToQuery(live).sql).not.toContain('"domain_history"');
      expect(await rows(live)).toEqual(await rows(listQuery(domain, args, [], reading(null))));
      expect(await rows(live)).toEqual(await rows(listQuery(domain, args, [], reading({ upTo: AFTER }))));
    }
    const byIds = byIdsQuery(domain, [RENAMED, DELETED_AFTER, ids[0]!], reading({ upTo: AFTER, unchanged }));
    expect((await rows(byIds)).sort()).toEqual(
      (await rows(byIdsQuery(domain, [RENAMED, DELETED_AFTER, ids[0]!]))).sort(),
    );
  });

  it("rows by id at the block: the version then", async () => {
    const wanted = [RENAMED, DELETED_AFTER, DELETED_BEFORE, CREATED_AFTER, ids[0]!];
    expect((await rows(byIdsQuery(domain, wanted, reading({ upTo: UP_TO })))).sort()).toEqual(
      [`${ids[0]} n0.eth ${PARENT}`, `${RENAMED} n3.eth ${PARENT}`, `${DELETED_AFTER} n5.eth ${PARENT}`].sort(),
    );
  });
});
