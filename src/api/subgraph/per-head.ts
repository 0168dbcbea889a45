import { BoundedMap } from "../../lib/bounded-map";
import type { BlockRef } from "./at-block";

/**
 * Answers that hold while the indexed head stays the same block (a new block or a reorg empties them), each loaded
 * once however many requests ask at a time; a failed load is asked again next time. At most `max` kept.
 */
export function perHeadMemo<K, V>(max = 1000): (head: BlockRef, key: K, load: () => Promise<V>) => Promise<V> {
  let headKey = "";
  const known = new BoundedMap<K, Promise<V>>(max);
  return (head, key, load) => {
    const current = `${head.number}:${head.hash}`;
    if (current !== headKey) {
      headKey = current;
      known.clear();
    }
    let pending = known.get(key);
    if (!pending) {
      pending = load();
      known.set(key, pending);
      const settled = pending;
      settled.catch(() => known.get(key) === settled && known.delete(key));
    }
    return pending;
  };
}
