/**
 * A Map that keeps at most `capacity` entries, for the caches of every layer: past it, the oldest entry goes (a Map
 * iterates in insertion order), and setting a key makes it the newest. With `refreshOnRead` a hit makes it the
 * newest too, so the least recently used goes first (an LRU); without, the first set goes first.
 */
export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(
    readonly capacity: number,
    private readonly refreshOnRead = false,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new Error(`a bounded map's capacity must be a positive integer, got ${capacity}`);
  }

  get size(): number {
    return this.entries.size;
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  /** The value, or undefined when absent (a stored null stays null: "known to be unknown" is a result too). */
  get(key: K): V | undefined {
    const value = this.entries.get(key);
    // No stored value is undefined (`set` takes a V), so undefined is a miss: one lookup, where `has` first made two.
    if (!this.refreshOnRead || value === undefined) return value;
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: K, value: V): this {
    if (this.entries.has(key)) this.entries.delete(key);
    else if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, value);
    return this;
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
