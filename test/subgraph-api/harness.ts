import { buildFixture, FIXTURE_HEAD, type Rows } from "../../harness/subgraph-fixture/fixture";
import { countingDb, createTestDatabase, type TestDatabase } from "../../harness/subgraph-fixture/pg";
import { createSubgraphApp, executeSubgraphRequest, type SubgraphOptions } from "../../src/api/subgraph";
import type { SubgraphMeta } from "../../src/api/subgraph/schema";

export interface Harness {
  t: TestDatabase;
  rows: Rows;
  options: SubgraphOptions & { getMeta: () => Promise<SubgraphMeta> };
  app: ReturnType<typeof createSubgraphApp>;
  /** Runs a query; fails the test on GraphQL errors unless `allowErrors`. */
  q<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>): Promise<T>;
  raw(query: string, variables?: Record<string, unknown>): ReturnType<typeof executeSubgraphRequest>;
  /** Unexpected (non-query) errors the endpoint hit; every test file checks it stays empty. */
  internalErrors: unknown[];
  close(): Promise<void>;
}

export async function startHarness(secondLevel = 200): Promise<Harness> {
  const t = await createTestDatabase();
  const rows = buildFixture({ secondLevel, accounts: 12 });
  await t.insert(rows);
  const meta: SubgraphMeta = { block: FIXTURE_HEAD, deployment: "nameindex-test", hasIndexingErrors: false };
  const internalErrors: unknown[] = [];
  const options = {
    db: countingDb(t),
    getMeta: async () => meta,
    onError: (e: unknown) => internalErrors.push(e),
  };
  const app = createSubgraphApp(options);
  const raw = (query: string, variables?: Record<string, unknown>) =>
    executeSubgraphRequest({ query, variables }, options);
  return {
    t,
    rows,
    options,
    app,
    raw,
    internalErrors,
    async q<T>(query: string, variables?: Record<string, unknown>) {
      const r = await raw(query, variables);
      if (r.body.errors) throw new Error(`GraphQL errors: ${JSON.stringify(r.body.errors)}`);
      return r.body.data as T;
    },
    close: () => t.drop(),
  };
}

/** Byte-wise string order, as PostgreSQL compares under the C collation. */
export const byteCompare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
