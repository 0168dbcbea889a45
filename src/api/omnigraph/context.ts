import type { SQL } from "drizzle-orm";
import { rowsOf } from "../../lib/sql-rows";
import type { Namespace } from "../../namespaces/types";
import type { SqlDb } from "../shared/read-db";
import type { ResolutionService } from "../shared/resolution/service";
import type { Batcher } from "./batch";

export interface OmnigraphDeps {
  db: SqlDb;
  namespace: Namespace;
  resolution: ResolutionService;
}

/** What every resolver of one request shares: the database (counted), the request's batchers, its budgets. */
export class OmnigraphContext {
  statements = 0;
  resolutions = 0;
  private readonly batchers = new Map<string, unknown>();
  /** The database handle resolution backends use, counted with ours. */
  readonly countedDb: SqlDb;

  constructor(readonly deps: OmnigraphDeps) {
    this.countedDb = {
      execute: (q: SQL) => {
        this.statements++;
        return deps.db.execute(q);
      },
    };
  }

  async query<T = Record<string, unknown>>(q: SQL): Promise<T[]> {
    return rowsOf(await this.countedDb.execute(q)) as T[];
  }

  /** The request's batcher of that name, made on first use. */
  batcher<K, V>(name: string, make: () => Batcher<K, V>): Batcher<K, V> {
    return this.shared(name, make);
  }

  /** The request's object of that name (a batcher, a gatherer), made on first use. */
  shared<T>(name: string, make: () => T): T {
    let b = this.batchers.get(name);
    if (b === undefined) this.batchers.set(name, (b = make()));
    return b as T;
  }
}
