import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countingDb } from "../../harness/subgraph-fixture/pg";
import { createSubgraphApp, ponderCheckpointMeta, ponderHeadToken, QueryCache } from "../../src/api/subgraph";
import { type Harness, startHarness } from "./harness";

/*
 * The query-result cache over HTTP, with the head read the way the API reads it: from a `_ponder_checkpoint` table
 * (Ponder's layout) that these tests write as Ponder does when it indexes a block or follows a reorg.
 */

const CHAIN_ID = 31337;
/** Ponder's checkpoint: timestamp(10) chainId(16) blockNumber(16) transactionIndex(16) eventType(1) eventIndex(16). */
const checkpoint = (block: number, timestamp = 1_700_000_000 + block) =>
  `${String(timestamp).padStart(10, "0")}${String(CHAIN_ID).padStart(16, "0")}${String(block).padStart(16, "0")}${"9".repeat(33)}`;

let h: Harness;
let app: Hono;
let cache: QueryCache;

beforeAll(async () => {
  h = await startHarness(60);
  // The schema has Ponder's (empty) `_ponder_checkpoint` table (harness/subgraph-fixture/schema-ddl.ts).
  await h.t.pool.query(`INSERT INTO _ponder_checkpoint VALUES ('anvil', $1, $2, $2, $3)`, [
    CHAIN_ID,
    checkpoint(100),
    checkpoint(50),
  ]);
  const db = countingDb(h.t);
  cache = new QueryCache({ maxBytes: 4 * 1024 * 1024, head: ponderHeadToken(db) });
  app = new Hono();
  app.route(
    "/subgraph",
    createSubgraphApp({
      db,
      getMeta: ponderCheckpointMeta({ db, chainId: CHAIN_ID }),
      onError: (e) => h.internalErrors.push(e),
      cache,
    }),
  );
});
afterAll(async () => {
  expect(h.internalErrors.map(String)).toEqual([]);
  await h.close();
});

async function post(query: string, variables?: Record<string, unknown>, operationName?: string) {
  const res = await app.request("/subgraph", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables, operationName }),
  });
  expect(res.status).toBe(200);
  return { text: await res.text(), cache: res.headers.get("x-subgraph-cache") };
}

/** Indexes a "block": writes the data and the checkpoint row in one transaction, as Ponder does. */
async function indexBlock(block: number, write: string, params: unknown[] = []) {
  const c = await h.t.pool.connect();
  try {
    await c.query("BEGIN");
    await c.query(write, params);
    await c.query(`UPDATE _ponder_checkpoint SET latest_checkpoint = $1`, [checkpoint(block)]);
    await c.query("COMMIT");
  } finally {
    c.release();
  }
}

const OWNER_QUERY = `query($id: ID!) { domain(id: $id) { id name owner { id } } }`;

describe("query-result cache", () => {
  it("serves a repeated query from the cache with a byte-identical body, whatever its spacing or variable order", async () => {
    const d = h.rows.domain!.find((r) => r.name === "eth")!;
    const first = await post(OWNER_QUERY, { id: d.id });
    expect(first.cache).toBe("miss");
    expect(JSON.parse(first.text).data.domain.name).toBe("eth");
    const statements = h.t.counter.statements;
    const again = await post(OWNER_QUERY, { id: d.id });
    expect(again).toEqual({ text: first.text, cache: "hit" });
    // Only the head was read.
    expect(h.t.counter.statements - statements).toBe(1);
    const respaced = await post(
      `# a comment\nquery ($id: ID!) {\n  domain(id: $id) {\n    id name\n    owner { id } } }`,
      { id: d.id },
    );
    expect(respaced).toEqual({ text: first.text, cache: "hit" });

    const q2 = `query($a: Int, $b: Int) { domains(first: $a, skip: $b, orderBy: id) { id } }`;
    const ab = await post(q2, { a: 3, b: 1 });
    expect(await post(q2, { b: 1, a: 3 })).toEqual({ text: ab.text, cache: "hit" });
    // Other variables, another operation: other answers.
    expect((await post(q2, { a: 2, b: 1 })).cache).toBe("miss");
    const two = `query A { domains(first: 1, orderBy: id) { id } } query B { domains(first: 2, orderBy: id) { id } }`;
    const a = await post(two, undefined, "A");
    const b = await post(two, undefined, "B");
    expect(b.cache).toBe("miss");
    expect(JSON.parse(a.text).data.domains).toHaveLength(1);
    expect(JSON.parse(b.text).data.domains).toHaveLength(2);
  });

  it("answers afresh once a new block is indexed, and _meta names it", async () => {
    const d = h.rows.domain!.find((r) => r.name === "eth")!;
    const meta = `{ _meta { block { number } } }`;
    await post(OWNER_QUERY, { id: d.id });
    expect(JSON.parse((await post(meta)).text).data._meta.block.number).toBe(100);
    const cached = await post(OWNER_QUERY, { id: d.id });
    expect(cached.cache).toBe("hit");

    const newOwner = h.rows.account![3]!.id as string;
    await indexBlock(101, `UPDATE domain SET owner_id = $1 WHERE id = $2`, [newOwner, d.id]);
    const fresh = await post(OWNER_QUERY, { id: d.id });
    expect(fresh.cache).toBe("miss");
    expect(JSON.parse(fresh.text).data.domain.owner.id).toBe(newOwner);
    expect(JSON.parse((await post(meta)).text).data._meta.block.number).toBe(101);
    expect((await post(OWNER_QUERY, { id: d.id })).cache).toBe("hit");
  });

  it("never serves an abandoned branch: a reorg's block at the same number and checkpoint is a new head", async () => {
    const d = h.rows.domain!.find((r) => r.name === "eth")!;
    const ownerA = h.rows.account![5]!.id as string;
    const ownerB = h.rows.account![6]!.id as string;
    await indexBlock(102, `UPDATE domain SET owner_id = $1 WHERE id = $2`, [ownerA, d.id]);
    expect(JSON.parse((await post(OWNER_QUERY, { id: d.id })).text).data.domain.owner.id).toBe(ownerA);
    expect((await post(OWNER_QUERY, { id: d.id })).cache).toBe("hit");
    // Branch B replaces block 102 with one of the same number and timestamp: the checkpoint string is unchanged.
    await indexBlock(102, `UPDATE domain SET owner_id = $1 WHERE id = $2`, [ownerB, d.id]);
    const afterReorg = await post(OWNER_QUERY, { id: d.id });
    expect(afterReorg.cache).toBe("miss");
    expect(JSON.parse(afterReorg.text).data.domain.owner.id).toBe(ownerB);
  });

  it("says when the indexer stopped on an error, though no checkpoint moved, and stops saying it once it runs again", async () => {
    const meta = `{ _meta { hasIndexingErrors block { number } } }`;
    const before = JSON.parse((await post(meta)).text).data._meta;
    expect(before.hasIndexingErrors).toBe(false);
    expect((await post(meta)).cache).toBe("hit");
    // What the ponder patch's unlock hook writes when a fatal error stops `ponder start`.
    await h.t.pool.query(
      `UPDATE _ponder_meta SET value = jsonb_set(value, '{indexing_error}', to_jsonb('boom'::text)) WHERE key = 'app'`,
    );
    const stopped = await post(meta);
    expect(stopped.cache).toBe("miss");
    expect(JSON.parse(stopped.text).data._meta).toEqual({ ...before, hasIndexingErrors: true });
    // A new start writes a new meta value, without the error.
    await h.t.pool.query(`UPDATE _ponder_meta SET value = '{"is_locked": 1}' WHERE key = 'app'`);
    expect(JSON.parse((await post(meta)).text).data._meta.hasIndexingErrors).toBe(false);
  });

  it("does not cache errors", async () => {
    const bad = `{ domains(block: { number: 1 }) { id } }`;
    const first = await post(bad);
    expect(JSON.parse(first.text).errors).toBeDefined();
    expect(first.cache).toBe("miss");
    expect((await post(bad)).cache).toBe("miss");
  });

  it("runs concurrent identical queries once", async () => {
    const q = `{ domains(first: 50, orderBy: createdAt, orderDirection: desc) { id name owner { id } subdomains(first: 3) { id } } }`;
    await indexBlock(103, `SELECT 1`);
    const once = (await h.raw(q)).statements;
    expect(once).toBeGreaterThan(1);
    const before = h.t.counter.statements;
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(q)));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(answers.filter((a) => a.cache === "miss")).toHaveLength(1);
    expect(answers.filter((a) => a.cache === "shared")).toHaveLength(19);
    // One head read (shared by all), then the query's own statements once.
    expect(h.t.counter.statements - before).toBe(1 + once);
  });

  it("keeps within its byte budget, evicting the least recently used answers", async () => {
    const db = countingDb(h.t);
    const small = new QueryCache({ maxBytes: 64 * 1024, head: ponderHeadToken(db) });
    const smallApp = createSubgraphApp({ db, getMeta: h.options.getMeta, cache: small });
    const ids = h.rows.domain!.slice(0, 200).map((r) => r.id as string);
    let maxSeen = 0;
    for (const id of ids) {
      const res = await smallApp.request("/", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          query: `query($id: ID!) { domain(id: $id) { id name labelName labelhash createdAt owner { id } subdomains { id name } } }`,
          variables: { id },
        }),
      });
      expect(res.status).toBe(200);
      maxSeen = Math.max(maxSeen, small.bytes);
    }
    expect(maxSeen).toBeLessThanOrEqual(64 * 1024);
    expect(small.stats.evictions).toBeGreaterThan(0);
    expect(small.size).toBeGreaterThan(10);
    expect(small.size).toBeLessThan(ids.length);
  });
});
