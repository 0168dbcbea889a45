import { FIXTURE_NAMESPACE as NAMESPACE, type Rows } from "../../harness/subgraph-fixture/fixture";
import { createTestDatabase, type TestDatabase } from "../../harness/subgraph-fixture/pg";
import type { OmnigraphOptions } from "../../src/api/omnigraph";
import { ResolutionService } from "../../src/api/shared/resolution/service";

/**
 * A fresh PostgreSQL schema holding `rows`, and the Omnigraph's options over it: no chain (nothing resolves), and every
 * internal error collected so a test can require none.
 */
export async function seededOmnigraph(
  prefix: string,
  rows: Rows,
): Promise<{ t: TestDatabase; options: OmnigraphOptions; internalErrors: unknown[] }> {
  const t = await createTestDatabase(prefix);
  await t.insert(rows);
  const resolution = new ResolutionService({
    indexingStatus: { snapshot: async () => undefined },
    namespace: NAMESPACE,
    rpcUrls: new Map(),
    accelerationIndexed: false,
  });
  const internalErrors: unknown[] = [];
  const options: OmnigraphOptions = {
    db: t.db,
    namespace: NAMESPACE,
    resolution,
    onError: (e) => internalErrors.push(e),
  };
  return { t, options, internalErrors };
}
