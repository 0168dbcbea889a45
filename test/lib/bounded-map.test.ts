import { describe, expect, it } from "vitest";
import { BoundedMap } from "../../src/lib/bounded-map";

describe("BoundedMap", () => {
  it("keeps at most its capacity, the first set going first", () => {
    const map = new BoundedMap<string, number>(2);
    map.set("a", 1).set("b", 2);
    expect(map.get("a")).toBe(1); // a read without refreshOnRead leaves the order
    map.set("c", 3);
    expect([map.has("a"), map.has("b"), map.has("c"), map.size]).toEqual([false, true, true, 2]);
  });

  it("with refreshOnRead, the least recently used goes first", () => {
    const map = new BoundedMap<string, number | null>(2, true);
    map.set("a", null).set("b", 2);
    expect(map.get("a")).toBeNull(); // a stored null is a hit
    map.set("c", 3);
    expect([map.has("a"), map.has("b"), map.has("c")]).toEqual([true, false, true]);
  });

  it("setting a key again makes it the newest, without evicting", () => {
    const map = new BoundedMap<string, number>(2);
    map.set("a", 1).set("b", 2).set("b", 20);
    expect([map.has("a"), map.size]).toEqual([true, 2]);
    map.set("a", 10).set("c", 3);
    expect([map.get("a"), map.has("b"), map.has("c")]).toEqual([10, false, true]);
  });

  it("refuses a capacity that is not a positive integer", () => {
    expect(() => new BoundedMap(0)).toThrow(/positive integer/);
  });
});
