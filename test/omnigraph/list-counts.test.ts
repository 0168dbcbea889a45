import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { indexerOptionsFor, type RunningIndexer, settledStatus, startIndexer } from "../../harness/indexer-harness";
import { LIST_RECOUNT_SQL } from "../../harness/subgraph-fixture/list-recount";

/*
 * `totalCount` of the Omnigraph's unfiltered domain lists is what the indexer keeps in `domain_list_count`. On the
 * devnet's whole scenario (ENSv1 registrations, transfers, re-registrations after expiry, wrapped and unwrapped names,
 * Basenames, Lineanames, 3DNS, ENSv2 registrations, transfers, burns and re-parenting), indexed from scratch: every
 * kept count equals a recount of the list's rows, and over HTTP every parent's, registry's and account's list, walked
 * page by page, holds exactly `totalCount` domains. (Reorgs: test/reliability/reorg.system.test.ts compares the whole
 * index, this table included, with a fresh index of the new branch.)
 */

const PLUGINS = ["subgraph", "basenames", "lineanames", "threedns", "registrars", "ensv2"];
const ROOT = `0x${"00".repeat(32)}`;

let env: DevnetWithLabels;
let indexer: RunningIndexer;
let db: pg.Client;

beforeAll(async () => {
  env = await startDevnetWithLabels({ seed: 3, names: 30 });
  indexer = await startIndexer(indexerOptionsFor(env, { plugins: PLUGINS, database: "postgres" }));
  await settledStatus(indexer, 3_000, 400_000);
  db = new pg.Client({ connectionString: indexer.env.DATABASE_URL, options: `-c search_path="${indexer.schema}"` });
  await db.connect();
}, 600_000);

afterAll(async () => {
  await db?.end();
  await indexer?.stop();
  await env?.stop();
});

async function rows<T>(query: string): Promise<T[]> {
  return (await db.query(query)).rows as T[];
}

/** Non-zero counts by id: a list everything left keeps a row at 0, which a recount does not have. */
const nonZero = (list: { id: string; count: number }[]) =>
  new Map(list.filter((r) => Number(r.count) !== 0).map((r) => [r.id, Number(r.count)]));

async function omnigraph<T>(query: string, variables: Record<string, unknown>): Promise<T> {
  const res = await fetch(`${indexer.url}/api/omnigraph`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data?: T; errors?: unknown[] };
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data!;
}

interface Page {
  totalCount: number;
  edges: { node: { id: string } }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const PAGE = "totalCount edges { node { id } } pageInfo { hasNextPage endCursor }";

/** Walks a list to its end, 50 a page; returns every `totalCount` it was told and the ids it listed. */
async function walk(
  query: string,
  variables: Record<string, unknown>,
  pageOf: (data: any) => Page | null,
): Promise<{ totals: number[]; ids: string[] }> {
  const totals: number[] = [];
  const ids: string[] = [];
  let after: string | null = null;
  for (;;) {
    const page = pageOf(await omnigraph(query, { ...variables, after }));
    if (!page) throw new Error(`no list for ${JSON.stringify(variables)}`);
    totals.push(page.totalCount);
    ids.push(...page.edges.map((e) => e.node.id));
    if (!page.pageInfo.hasNextPage) return { totals, ids };
    after = page.pageInfo.endCursor;
  }
}

/** Runs `work` over `items`, `n` at a time. */
async function eachLimited<T>(items: T[], n: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/** The recount of one list as the map's key, the kept count, and what walking it over HTTP found. */
async function expectListMatches(
  kept: Map<string, number>,
  recount: Map<string, number>,
  id: string,
  walked: { totals: number[]; ids: string[] },
): Promise<void> {
  const expected = recount.get(id) ?? 0;
  expect(kept.get(id) ?? 0, `kept ${id}`).toBe(expected);
  expect(new Set(walked.ids).size, `walked ${id}: no repeats`).toBe(walked.ids.length);
  expect(walked.ids.length, `walked ${id}`).toBe(expected);
  for (const total of walked.totals) expect(total, `totalCount of ${id}`).toBe(expected);
}

describe("totalCount of unfiltered domain lists, kept by the indexer (devnet, whole scenario)", () => {
  it("every kept count equals a recount of its list's rows", async () => {
    const kept = nonZero(await rows("select id, count from domain_list_count"));
    const recount = nonZero(await rows(LIST_RECOUNT_SQL));
    expect(Object.fromEntries(kept)).toEqual(Object.fromEntries(recount));
    // The scenario moved names between owners (counts that went back to 0) and has every kind of list.
    const zeros = await rows<{ n: number }>("select count(*)::int as n from domain_list_count where count = 0");
    expect(zeros[0]!.n).toBeGreaterThan(0);
    for (const list of ["v1-children", "v1-owner", "v2-registry", "v2-owner"])
      expect(
        [...kept.keys()].some((k) => k.startsWith(`${list}:`)),
        list,
      ).toBe(true);
    // What the scenario exercised: wrapped names, burnt ENSv2 tokens, names whose registrant is not the registry owner.
    const [facts] = await rows<{ wrapped: number; burnt: number; registrant: number }>(`select
      (select count(*)::int from domain where wrapped_owner_id is not null) as wrapped,
      (select count(*)::int from ensv2_token where mint_status = 'burned') as burnt,
      (select count(*)::int from domain where registrant_id is not null and registrant_id <> owner_id) as registrant`);
    expect(facts!.wrapped).toBeGreaterThan(0);
    expect(facts!.burnt).toBeGreaterThan(0);
    expect(facts!.registrant).toBeGreaterThan(0);
  });

  it("every ENSv1 parent's subdomains, walked over HTTP, hold totalCount domains", async () => {
    const kept = nonZero(await rows("select id, count from domain_list_count"));
    const recount = nonZero(await rows(LIST_RECOUNT_SQL));
    const parents = await rows<{ id: string }>(
      `select distinct p.id from domain c join domain p on p.id = c.parent_id where c.id <> '${ROOT}'`,
    );
    expect(parents.length).toBeGreaterThan(10);
    await eachLimited(parents, 4, async ({ id }) => {
      const walked = await walk(
        `query($id: DomainId!, $after: String) { domain(by: { id: $id }) { subdomains(first: 50, after: $after) { ${PAGE} } } }`,
        { id },
        (d) => d.domain?.subdomains ?? null,
      );
      await expectListMatches(kept, recount, `v1-children:${id}`, walked);
    });
  });

  it("every ENSv2 registry's domains, walked over HTTP, hold totalCount domains", async () => {
    const kept = nonZero(await rows("select id, count from domain_list_count"));
    const recount = nonZero(await rows(LIST_RECOUNT_SQL));
    const registries = await rows<{ id: string }>("select id from ensv2_registry");
    expect(registries.length).toBeGreaterThan(1);
    await eachLimited(registries, 4, async ({ id }) => {
      const walked = await walk(
        `query($id: RegistryId!, $after: String) { registry(by: { id: $id }) { domains(first: 50, after: $after) { ${PAGE} } } }`,
        { id },
        (d) => d.registry?.domains ?? null,
      );
      await expectListMatches(kept, recount, `v2-registry:${id}`, walked);
    });
  });

  it("every account's domains (both versions, and each version alone), walked over HTTP, hold totalCount domains", async () => {
    const kept = nonZero(await rows("select id, count from domain_list_count"));
    const recount = nonZero(await rows(LIST_RECOUNT_SQL));
    const accounts = await rows<{ address: string }>(`
      select coalesce(wrapped_owner_id, registrant_id, owner_id) as address from domain where id <> '${ROOT}'
      union select owner from ensv2_domain where owner is not null
      union select id from account`);
    expect(accounts.length).toBeGreaterThan(5);
    const pageOf = (d: any) => d.account?.domains ?? null;
    await eachLimited(accounts, 4, async ({ address }) => {
      const v1 = await walk(
        `query($a: Address!, $after: String) { account(by: { address: $a }) { domains(first: 50, after: $after, where: { version: ENSv1 }) { ${PAGE} } } }`,
        { a: address },
        pageOf,
      );
      await expectListMatches(kept, recount, `v1-owner:${address}`, v1);
      const v2 = await walk(
        `query($a: Address!, $after: String) { account(by: { address: $a }) { domains(first: 50, after: $after, where: { version: ENSv2 }) { ${PAGE} } } }`,
        { a: address },
        pageOf,
      );
      await expectListMatches(kept, recount, `v2-owner:${address}`, v2);
      const both = await walk(
        `query($a: Address!, $after: String) { account(by: { address: $a }) { domains(first: 50, after: $after) { ${PAGE} } } }`,
        { a: address },
        pageOf,
      );
      const expected = (recount.get(`v1-owner:${address}`) ?? 0) + (recount.get(`v2-owner:${address}`) ?? 0);
      expect(both.ids.length, `both versions of ${address}`).toBe(expected);
      for (const total of both.totals) expect(total, `totalCount of both versions of ${address}`).toBe(expected);
    });
  });

  it("a filtered list's totalCount is its count of matches (counted, not kept)", async () => {
    const [eth] = await rows<{ id: string }>("select id from domain where name = 'eth'");
    const [matches] = await rows<{ n: number }>(
      `select count(*)::int as n from domain where parent_id = '${eth!.id}' and split_part(name, '.', 1) like 'a%'`,
    );
    const n = matches!.n;
    const walked = await walk(
      `query($id: DomainId!, $after: String) { domain(by: { id: $id }) { subdomains(first: 50, after: $after, where: { name: { starts_with: "a" } }) { ${PAGE} } } }`,
      { id: eth!.id },
      (d) => d.domain?.subdomains ?? null,
    );
    expect(walked.ids.length).toBe(n);
    for (const total of walked.totals) expect(total).toBe(n);
  });
});
