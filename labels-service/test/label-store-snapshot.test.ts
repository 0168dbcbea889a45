import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ingestFile, openLabelStore } from "../src/index.js";
import { hashOf, tempDir, writeText } from "./helpers.js";

describe("a store kept open while another connection ingests", () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  it("serves a newly committed version from the next read on, without reopening", async () => {
    const dbPath = join(tmp.dir, "labels.sqlite");
    await ingestFile({ dbPath, file: writeText(join(tmp.dir, "v0.txt"), ["first"]), labelSetId: "snapshots" });
    const store = openLabelStore(dbPath);
    try {
      expect(store.heal(hashOf("first"))).toBe("first");
      expect(store.heal(hashOf("second"))).toBeNull();
      expect(store.config()).toMatchObject({ highestLabelSetVersion: 0, recordsCount: 1 });

      await ingestFile({ dbPath, file: writeText(join(tmp.dir, "v1.txt"), ["second"]) });
      expect(store.heal(hashOf("second"))).toBe("second");
      expect(store.heal(hashOf("second"), { labelSetId: "snapshots", labelSetVersion: 0 })).toBeNull();
      expect(store.config()).toMatchObject({ highestLabelSetVersion: 1, recordsCount: 2 });
    } finally {
      store.close();
    }
  });
});
