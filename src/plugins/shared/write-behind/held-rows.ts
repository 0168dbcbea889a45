import type { PgTable } from "drizzle-orm/pg-core";
import { keyOf, type Row } from "./rows";

/*
 * One insert-only table's rows of a batch, in the order they were first written. Most of these tables are only ever
 * appended to (`indexed_log`, the subgraph's event tables): a plain insert builds no key and checks nothing, and the
 * database's unique key refuses a key taken twice at the batch's COPY, as it refuses one an earlier batch took.
 * The keys are built the first time something asks by key (a read, `onConflictDo…`, an update: the entity history's
 * versions rewritten within a block), and kept from then on.
 */
export class HeldRows {
  readonly rows: Row[] = [];
  /** Each key's place in `rows`, once something has asked by key. */
  private places: Map<string, number> | undefined;

  constructor(private readonly table: PgTable) {}

  get size(): number {
    return this.rows.length;
  }

  /** A plain insert: appended; a key taken twice is refused here once the keys are built, else at the COPY. */
  append(row: Row): void {
    if (this.places !== undefined) this.place(keyOf(this.table, row), this.places);
    this.rows.push(row);
  }

  get(key: string): Row | undefined {
    const place = this.keyed().get(key);
    return place === undefined ? undefined : this.rows[place];
  }

  has(key: string): boolean {
    return this.keyed().has(key);
  }

  /** Holds `row` under `key`: a new key goes last, a held key keeps its place (an upsert of a row of this batch). */
  set(key: string, row: Row): void {
    const places = this.keyed();
    const place = places.get(key);
    if (place === undefined) {
      places.set(key, this.rows.length);
      this.rows.push(row);
    } else this.rows[place] = row;
  }

  private keyed(): Map<string, number> {
    if (this.places === undefined) {
      const places = new Map<string, number>();
      for (let i = 0; i < this.rows.length; i++) {
        places.set(keyOf(this.table, this.rows[i]!), i);
        if (places.size <= i) throw insertedTwice(keyOf(this.table, this.rows[i]!));
      }
      this.places = places;
    }
    return this.places;
  }

  private place(key: string, places: Map<string, number>): void {
    if (places.has(key)) throw insertedTwice(key);
    places.set(key, this.rows.length);
  }
}

const insertedTwice = (key: string) =>
  new Error(`Unique constraint failed: ${key.replaceAll("\u0000", " ")} inserted twice`);
