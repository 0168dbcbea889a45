/*
 * Per-request batching: every load of the same batcher made while graphql-js resolves one level of the answer is
 * collected, and one call (one SQL statement) answers them all. That keeps a request's statements proportional to
 * its depth, not to its page sizes.
 */
export class Batcher<K, V> {
  private pending: { key: K; resolve: (v: V) => void; reject: (e: unknown) => void }[] = [];

  constructor(
    private readonly run: (keys: K[]) => Promise<Map<K, V>>,
    private readonly fallback: V,
    private readonly keyOf: (key: K) => string = (k) => String(k),
  ) {}

  load(key: K): Promise<V> {
    return new Promise<V>((resolve, reject) => {
      if (this.pending.length === 0) {
        // After the current tick's resolvers have all registered (as DataLoader schedules).
        Promise.resolve().then(() => process.nextTick(() => void this.dispatch()));
      }
      this.pending.push({ key, resolve, reject });
    });
  }

  private async dispatch(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    const unique = new Map<string, K>();
    for (const p of batch) unique.set(this.keyOf(p.key), p.key);
    try {
      const found = await this.run([...unique.values()]);
      const byKey = new Map<string, V>();
      for (const [k, v] of found) byKey.set(this.keyOf(k), v);
      for (const p of batch) p.resolve(byKey.get(this.keyOf(p.key)) ?? this.fallback);
    } catch (error) {
      for (const p of batch) p.reject(error);
    }
  }
}
