/**
 * A cache of at most `capacity` entries that keeps the recently used ones, for caches read on every event (label
 * verdicts, healed labels): two generations of at most half the capacity each. A set, and a hit in the older
 * generation, put the entry in the younger one; when the younger one is full it becomes the older one and the older
 * one is dropped. Any entry used since the last `capacity / 2` entries went in is kept, and a hit in the younger
 * generation costs one lookup, where an exact LRU (BoundedMap with refreshOnRead) deletes and sets the entry in a Map of
 * the whole capacity at every hit (docs/benchmarks.md, "COPY text in small buffers").
 */
export class RecentMap<K, V> {
  private young = new Map<K, V>();
  private old = new Map<K, V>();
  private readonly half: number;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new Error(`a recent map's capacity must be a positive integer, got ${capacity}`);
    this.half = Math.max(1, Math.floor(capacity / 2));
  }

  get size(): number {
    return this.young.size + this.old.size;
  }

  has(key: K): boolean {
    return this.young.has(key) || this.old.has(key);
  }

  /** The value, or undefined when absent (a stored null stays null: "known to be unknown" is a result too). */
  get(key: K): V | undefined {
    const value = this.young.get(key);
    if (value !== undefined) return value;
    const older = this.old.get(key);
    if (older === undefined) return undefined;
    this.old.delete(key);
    this.putYoung(key, older);
    return older;
  }

  set(key: K, value: V): this {
    if (this.young.has(key)) this.young.set(key, value);
    else {
      this.old.delete(key);
      this.putYoung(key, value);
    }
    return this;
  }

  delete(key: K): boolean {
    return this.young.delete(key) || this.old.delete(key);
  }

  private putYoung(key: K, value: V): void {
    if (this.young.size >= this.half) {
      // With a capacity of 1 there is no room for an older generation.
      this.old = this.capacity > 1 ? this.young : new Map();
      this.young = new Map();
    }
    this.young.set(key, value);
  }
}
