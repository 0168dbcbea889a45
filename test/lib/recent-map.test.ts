import { describe, expect, it } from "vitest";
import { RecentMap } from "../../src/lib/recent-map";

describe("RecentMap", () => {
  it("never holds more than its capacity, whatever is set", () => {
    for (const capacity of [1, 2, 3, 7, 10]) {
      const map = new RecentMap<number, number>(capacity);
      for (let i = 0; i < 50; i++) {
        map.set(i, i);
        if (i % 3 === 0) map.get(i - 2);
        expect(map.size, `capacity ${capacity} after ${i}`).toBeLessThanOrEqual(capacity);
      }
      expect(map.has(49) && map.get(49)).toBe(49);
    }
  });

  it("keeps an entry read since the last capacity/2 entries went in, and drops one left unread", () => {
    const map = new RecentMap<string, number>(4);
    map.set("a", 1).set("b", 2);
    map.set("c", 3).set("d", 4); // a and b are now the older generation
    expect(map.get("a")).toBe(1); // read: back in the younger one
    map.set("e", 5);
    expect([map.has("a"), map.has("b"), map.has("e")]).toEqual([true, false, true]);
    map.set("f", 6).set("g", 7).set("h", 8); // two generations on, nobody read a
    expect([map.has("a"), map.has("c"), map.has("d"), map.has("e")]).toEqual([false, false, false, false]);
    expect([map.get("f"), map.get("g"), map.get("h")]).toEqual([6, 7, 8]);
  });

  it("answers a stored null as a hit, and a set of a held key replaces it in place", () => {
    const map = new RecentMap<string, number | null>(4);
    map.set("a", null).set("b", 2).set("b", 20);
    expect([map.get("a"), map.get("b"), map.get("x"), map.size]).toEqual([null, 20, undefined, 2]);
    map.set("c", 3).set("a", 10); // a from the older generation, set again: one entry, the new value
    expect([map.get("a"), map.size]).toEqual([10, 3]);
    expect(map.delete("a")).toBe(true);
    expect([map.has("a"), map.delete("a")]).toEqual([false, false]);
  });

  it("refuses a capacity that is not a positive integer", () => {
    expect(() => new RecentMap(0)).toThrow(/positive integer/);
    expect(() => new RecentMap(2.5)).toThrow(/positive integer/);
  });
});
