import type { OmnigraphOptions } from "../../src/api/omnigraph";
import { ResolutionService } from "../../src/api/resolution/service";
import { FIXTURE_NAMESPACE as NAMESPACE } from "../subgraph-api/fixture";
import type { TestDatabase } from "../subgraph-api/pg";

/** /api/omnigraph over a seeded test database, with no chain (nothing resolves or reads logs); errors collected. */
export function omnigraphOverTestDb(t: TestDatabase, internalErrors: unknown[]): OmnigraphOptions {
  const resolution = new ResolutionService({
    indexingStatus: { snapshot: async () => undefined },
    namespace: NAMESPACE,
    rpcUrls: new Map(),
    accelerationIndexed: false,
  });
  return { db: t.db, namespace: NAMESPACE, rpcUrls: new Map(), resolution, onError: (e) => internalErrors.push(e) };
}
