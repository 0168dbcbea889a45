import type { SQL } from "drizzle-orm";
import { rowsOf } from "../../lib/sql-rows";
import { IDS_PER_STATEMENT } from "./limits";
import { type EntityDef, entityOf, type FieldDef } from "./model";
import { READ_HEAD, type Reading, readingKey } from "./reading";
import {
  byIdQuery,
  byIdsQuery,
  childrenQuery,
  derivedOneQuery,
  embedKey,
  type ListArgs,
  listQuery,
  type Row,
} from "./sql";

/** The one thing /subgraph needs from a database handle: drizzle's `execute` (node-postgres, PGlite or Ponder's). */
export interface SubgraphDb {
  execute(query: SQL): Promise<unknown>;
}

interface Batch<T> {
  keys: Set<string>;
  waiters: Map<string, { resolve: (v: T) => void; reject: (e: unknown) => void }[]>;
  run: (keys: string[]) => Promise<Map<string, T>>;
  empty: () => T;
}

/**
 * Per-request batching (DataLoader-style): every resolver of the same nested field at one level of the response
 * registers its parent id in the same tick; one statement then loads all of them. So a page of 100 domains with
 * `subdomains { owner { id } }` costs two statements, not 101.
 */
export class Loader {
  private batches = new Map<string, Batch<unknown>>();
  private rowsById = new Map<string, Promise<Row | null>>();
  /**
   * Rows already at hand (embedded in a root statement), by `<entity>:<id>` for refs and
   * `<entity>.<foreign>:<parent id>` for derived one-to-ones. Resolvers return them synchronously, which spares
   * graphql-js a promise per object.
   */
  private known = new Map<string, Row | null>();
  /**
   * What each row read at a past block (or from the history) was read at, so that its relations are read at the
   * same point. Rows of the live tables are not listed.
   */
  private readings = new WeakMap<Row, Reading>();

  /** What `row` was read at: its relations are read there too. */
  readingOf(row: Row): Reading {
    return this.readings.get(row) ?? READ_HEAD;
  }

  private tag(rows: Row[], reading: Reading): Row[] {
    if (reading.at !== null) for (const row of rows) this.readings.set(row, reading);
    return rows;
  }

  /** A row already at hand, or undefined. */
  peekById(entity: EntityDef, id: string, reading: Reading = READ_HEAD): Row | null | undefined {
    return this.known.get(`${readingKey(reading)}${entity.name}:${id}`);
  }

  peekDerivedOne(
    entity: EntityDef,
    foreign: string,
    parentId: string,
    reading: Reading = READ_HEAD,
  ): Row | null | undefined {
    return this.known.get(`${readingKey(reading)}${entity.name}.${foreign}:${parentId}`);
  }
  /** Statements run for this request (tests assert on it). */
  statements = 0;

  constructor(private readonly db: SubgraphDb) {}

  async query(q: SQL): Promise<Record<string, unknown>[]> {
    this.statements++;
    return rowsOf(await this.db.execute(q));
  }

  async list(entity: EntityDef, args: ListArgs, embeds: FieldDef[] = [], reading = READ_HEAD): Promise<Row[]> {
    const rows = this.tag((await this.query(listQuery(entity, args, embeds, reading))) as Row[], reading);
    for (const row of rows) this.unpackEmbeds(row, embeds, reading);
    return rows;
  }

  /** A root `entity(id:)` lookup; with relations to embed it is its own statement, else it joins the batch. */
  async one(entity: EntityDef, id: string, embeds: FieldDef[], reading = READ_HEAD): Promise<Row | null> {
    if (embeds.length === 0 || entity.implementations) return this.byId(entity, id, reading);
    const [row] = this.tag((await this.query(byIdQuery(entity, id, embeds, reading))) as Row[], reading);
    if (!row) return null;
    this.unpackEmbeds(row, embeds, reading);
    return row;
  }

  /** Moves embedded relation rows out of `row` into the caches their resolvers read. */
  private unpackEmbeds(row: Row, embeds: FieldDef[], reading: Reading) {
    const point = readingKey(reading);
    for (const f of embeds) {
      const key = embedKey(f);
      const raw = row[key];
      delete row[key];
      if (f.kind === "scalar" || raw === undefined) continue;
      const embedded = (typeof raw === "string" ? JSON.parse(raw) : raw) as Row | null;
      if (embedded) this.tag([embedded], reading);
      if (f.kind === "ref") {
        const id = row[f.column] as string | null;
        if (id !== null && id !== undefined) this.known.set(`${point}${f.target}:${id}`, embedded);
      } else {
        this.known.set(`${point}${entityOf(f.target).name}.${f.foreign}:${row.id}`, embedded);
      }
    }
  }

  byId(entity: EntityDef, id: string, reading = READ_HEAD): Promise<Row | null> {
    const point = readingKey(reading);
    const cacheKey = `${point}${entity.name}:${id}`;
    const known = this.known.get(cacheKey);
    if (known !== undefined) return Promise.resolve(known);
    let p = this.rowsById.get(cacheKey);
    if (!p) {
      p = this.enqueue<Row | null>(
        `${point}byId:${entity.name}`,
        id,
        async (ids) => {
          const map = new Map<string, Row | null>();
          for (const part of chunks(ids)) {
            const rows = this.tag((await this.query(byIdsQuery(entity, part, reading))) as Row[], reading);
            for (const row of rows) map.set(row.id, row);
          }
          return map;
        },
        () => null,
      );
      this.rowsById.set(cacheKey, p);
    }
    return p;
  }

  derivedOne(entity: EntityDef, foreign: string, parentId: string, reading = READ_HEAD): Promise<Row | null> {
    const known = this.peekDerivedOne(entity, foreign, parentId, reading);
    if (known !== undefined) return Promise.resolve(known);
    return this.enqueue<Row | null>(
      `${readingKey(reading)}one:${entity.name}.${foreign}`,
      parentId,
      async (ids) => {
        const map = new Map<string, Row | null>();
        for (const part of chunks(ids)) {
          const rows = this.tag((await this.query(derivedOneQuery(entity, foreign, part, reading))) as Row[], reading);
          for (const row of rows) map.set(row.__parent as string, row);
        }
        return map;
      },
      () => null,
    );
  }

  children(entity: EntityDef, foreign: string, args: ListArgs, parentId: string, reading = READ_HEAD): Promise<Row[]> {
    return this.enqueue<Row[]>(
      `${readingKey(reading)}many:${entity.name}.${foreign}:${JSON.stringify(args)}`,
      parentId,
      async (ids) => {
        const map = new Map<string, Row[]>();
        for (const part of chunks(ids)) {
          const rows = this.tag(
            (await this.query(childrenQuery(entity, foreign, part, args, reading))) as Row[],
            reading,
          );
          for (const row of rows) {
            const parent = row.__parent as string;
            let list = map.get(parent);
            if (!list) map.set(parent, (list = []));
            list.push(row as Row);
          }
        }
        return map;
      },
      () => [],
    );
  }

  private enqueue<T>(
    batchKey: string,
    key: string,
    run: (keys: string[]) => Promise<Map<string, T>>,
    empty: () => T,
  ): Promise<T> {
    let batch = this.batches.get(batchKey) as Batch<T> | undefined;
    if (!batch) {
      batch = { keys: new Set(), waiters: new Map(), run, empty };
      this.batches.set(batchKey, batch as Batch<unknown>);
      // After the current wave of resolvers (promise jobs first, then the next tick), as DataLoader does.
      const b = batch;
      void Promise.resolve().then(() => process.nextTick(() => this.flush(batchKey, b as Batch<unknown>)));
    }
    batch.keys.add(key);
    return new Promise<T>((resolve, reject) => {
      const list = batch.waiters.get(key) ?? [];
      list.push({ resolve, reject });
      batch.waiters.set(key, list);
    });
  }

  private flush(batchKey: string, batch: Batch<unknown>): void {
    if (this.batches.get(batchKey) === batch) this.batches.delete(batchKey);
    batch.run([...batch.keys]).then(
      (map) => {
        for (const [key, waiters] of batch.waiters) {
          const value = map.has(key) ? map.get(key) : batch.empty();
          for (const w of waiters) w.resolve(value);
        }
      },
      (error) => {
        for (const waiters of batch.waiters.values()) for (const w of waiters) w.reject(error);
      },
    );
  }
}

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += IDS_PER_STATEMENT) out.push(items.slice(i, i + IDS_PER_STATEMENT));
  return out;
}
