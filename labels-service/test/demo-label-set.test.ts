import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ingestDemoLabelSet, openLabelStore } from "../src/index.js";
import { hashOf, tempDir } from "./helpers.js";

describe("demo label set", () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  it("is built from the word list plus extra labels, minus excluded ones, and only once", async () => {
    const dbPath = join(tmp.dir, "demo.sqlite");
    const first = await ingestDemoLabelSet({
      dbPath,
      extraLabels: ["devnet-only-name", "🦄"],
      excludeLabels: ["banana"],
    });
    expect(first).toMatchObject({ created: true, labelSetId: "demo", labelSetVersion: 0 });
    expect(first.created && first.added).toBeGreaterThan(200_000);

    const store = openLabelStore(dbPath);
    try {
      expect(store.heal(hashOf("apple"))).toBe("apple");
      expect(store.heal(hashOf("devnet-only-name"))).toBe("devnet-only-name");
      expect(store.heal(hashOf("🦄"))).toBe("🦄");
      expect(store.heal(hashOf("banana"))).toBeNull();
      const healed = store.healMany([hashOf("zebra"), hashOf("banana")]);
      expect([...healed.values()]).toEqual(["zebra", null]);
    } finally {
      store.close();
    }

    const again = await ingestDemoLabelSet({ dbPath });
    expect(again).toEqual({
      created: false,
      labelSetId: "demo",
      reason: 'the database already holds label set "demo"',
    });
  });
});
