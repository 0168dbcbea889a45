import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { IngestConflictError, ingestFile, type LabelStore, MalformedInputError, openLabelStore } from "../src/index.js";
import { hashOf, sqlRow, tempDir, writeCsv, writeEnsrainbow, writeSqlDump, writeText } from "./helpers.js";

const ODD = ["", "a.b", "🦄.eth", "nul\0byte", "back\\slash", "tab\tand\nnewline", "Ünïcödé", 'say "hi", ok'];

describe("ingest formats", () => {
  let tmp: ReturnType<typeof tempDir>;
  let dbPath: string;
  const stores: LabelStore[] = [];
  const open = () => {
    const store = openLabelStore(dbPath);
    stores.push(store);
    return store;
  };

  beforeEach(() => {
    tmp = tempDir();
    dbPath = join(tmp.dir, "labels.sqlite");
  });
  afterEach(() => {
    for (const s of stores.splice(0)) s.close();
    tmp.cleanup();
  });

  it("plain text: one label per line, CRLF endings removed, blank lines skipped, duplicates counted as skipped", async () => {
    const file = join(tmp.dir, "labels.txt");
    writeFileSync(file, "alpha\r\nbeta\n\ngamma.delta\nalpha\n😀");
    const result = await ingestFile({ dbPath, file, labelSetId: "words" });
    expect(result).toEqual({ labelSetId: "words", labelSetVersion: 0, added: 4, skipped: 1, recordsCount: 4 });
    const store = open();
    expect(store.heal(hashOf("alpha"))).toBe("alpha");
    expect(store.heal(hashOf("gamma.delta"))).toBe("gamma.delta");
    expect(store.heal(hashOf("😀"))).toBe("😀");
    expect(store.heal(hashOf("alpha\r"))).toBeNull();
  });

  it("CSV: quoted fields keep empty, NUL, comma, quote and newline labels byte for byte", async () => {
    await ingestFile({ dbPath, file: writeCsv(join(tmp.dir, "odd.csv"), ODD), labelSetId: "odd" });
    const store = open();
    for (const label of ODD) expect(store.heal(hashOf(label)), JSON.stringify(label)).toBe(label);
    expect(store.config().recordsCount).toBe(ODD.length);
  });

  it("CSV: a second column must be the label's labelhash", async () => {
    await ingestFile({ dbPath, file: writeCsv(join(tmp.dir, "h.csv"), ["one", "two"], true), labelSetId: "odd" });
    expect(open().heal(hashOf("two"))).toBe("two");
    const bad = join(tmp.dir, "bad.csv");
    writeFileSync(bad, `three,${hashOf("three")}\nfour,${hashOf("five")}\n`);
    await expect(ingestFile({ dbPath, file: bad })).rejects.toThrow(
      `${bad}: line 2: the labelhash does not equal keccak256 of the label`,
    );
  });

  it(".ensrainbow: header sets id and version; records heal byte for byte", async () => {
    const file = writeEnsrainbow(
      join(tmp.dir, "set.ensrainbow"),
      { labelSetId: "subgraph", labelSetVersion: 0 },
      ODD.map((label) => ({ label })),
    );
    expect(await ingestFile({ dbPath, file })).toMatchObject({
      labelSetId: "subgraph",
      labelSetVersion: 0,
      added: ODD.length,
    });
    const store = open();
    for (const label of ODD) expect(store.heal(hashOf(label))).toBe(label);

    const next = writeEnsrainbow(join(tmp.dir, "v1.ensrainbow"), { labelSetId: "subgraph", labelSetVersion: 1 }, [
      { label: "later" },
    ]);
    expect(await ingestFile({ dbPath, file: next })).toMatchObject({ labelSetVersion: 1, added: 1 });
    expect(store.heal(hashOf("later"), { labelSetId: "subgraph", labelSetVersion: 0 })).toBeNull();
    expect(store.heal(hashOf("later"), { labelSetId: "subgraph", labelSetVersion: 1 })).toBe("later");
  });

  it(".ensrainbow: rejects a wrong version, a wrong id, a bad header and a record whose hash does not match", async () => {
    await ingestFile({
      dbPath,
      file: writeEnsrainbow(join(tmp.dir, "a.ensrainbow"), { labelSetId: "subgraph", labelSetVersion: 0 }, [
        { label: "a" },
      ]),
    });
    const cases: [
      string,
      Parameters<typeof writeEnsrainbow>[1],
      { label: string; labelhash?: `0x${string}` }[],
      RegExp,
    ][] = [
      [
        "skip.ensrainbow",
        { labelSetId: "subgraph", labelSetVersion: 2 },
        [{ label: "b" }],
        /exactly one higher.*highest version 0.*version 2/,
      ],
      [
        "other.ensrainbow",
        { labelSetId: "other", labelSetVersion: 1 },
        [{ label: "b" }],
        /Label set id mismatch.*"subgraph".*"other"/,
      ],
      [
        "fmt.ensrainbow",
        { labelSetId: "subgraph", labelSetVersion: 1, formatIdentifier: "nope" },
        [],
        /not an \.ensrainbow file/,
      ],
      [
        "ver.ensrainbow",
        { labelSetId: "subgraph", labelSetVersion: 1, fileFormatVersion: 9 },
        [],
        /file format version 9 is not supported/,
      ],
      [
        "hash.ensrainbow",
        { labelSetId: "subgraph", labelSetVersion: 1 },
        [{ label: "b" }, { label: "c", labelhash: hashOf("d") }],
        /hash.ensrainbow: record 2: the labelhash does not equal keccak256 of the label/,
      ],
    ];
    for (const [name, header, records, message] of cases) {
      await expect(
        ingestFile({ dbPath, file: writeEnsrainbow(join(tmp.dir, name), header, records) }),
        name,
      ).rejects.toThrow(message);
    }
    const truncated = join(tmp.dir, "cut.ensrainbow");
    writeEnsrainbow(truncated, { labelSetId: "subgraph", labelSetVersion: 1 }, [{ label: "b" }]);
    const { readFileSync } = await import("node:fs");
    writeFileSync(truncated, readFileSync(truncated).subarray(0, -3));
    await expect(ingestFile({ dbPath, file: truncated })).rejects.toThrow(/ends inside a message/);
    const store = open();
    expect(store.config()).toMatchObject({ highestLabelSetVersion: 0, recordsCount: 1 });
    expect(store.heal(hashOf("b"))).toBeNull();
  });

  it('gzipped SQL dump: COPY rows with PostgreSQL escapes; the set defaults to id "subgraph"', async () => {
    const labels = ["vitalik", "tab\there", "new\nline", "back\\slash", "nul\0byte", "😀"];
    const file = writeSqlDump(
      join(tmp.dir, "ens_names.sql.gz"),
      labels.map((l) => sqlRow(l)),
    );
    expect(await ingestFile({ dbPath, file })).toMatchObject({
      labelSetId: "subgraph",
      labelSetVersion: 0,
      added: labels.length,
    });
    const store = open();
    for (const label of labels) expect(store.heal(hashOf(label))).toBe(label);
  });

  it("gzipped SQL dump: octal and hex escapes decode to bytes", async () => {
    const file = writeSqlDump(join(tmp.dir, "esc.sql.gz"), [`${hashOf("Aé")}\t\\101\\xc3\\xa9`]);
    await ingestFile({ dbPath, file });
    expect(open().heal(hashOf("Aé"))).toBe("Aé");
  });

  it("gzipped SQL dump: a truncated dump, a bad row or a wrong hash is rejected with its line", async () => {
    const truncated = writeSqlDump(join(tmp.dir, "cut.sql.gz"), [sqlRow("a")], { terminate: false });
    await expect(ingestFile({ dbPath, file: truncated })).rejects.toThrow(/end-of-data/);
    const wrong = writeSqlDump(join(tmp.dir, "wrong.sql.gz"), [sqlRow("a"), sqlRow("b", hashOf("c"))]);
    await expect(ingestFile({ dbPath, file: wrong })).rejects.toThrow(
      `${wrong}: line 8: the labelhash does not equal keccak256 of the label`,
    );
    const columns = writeSqlDump(join(tmp.dir, "cols.sql.gz"), [sqlRow("a"), `${hashOf("b")}`]);
    await expect(ingestFile({ dbPath, file: columns })).rejects.toThrow(
      /line 8: expected 2 tab-separated columns, found 1/,
    );
  });

  it("--format overrides the file extension", async () => {
    const file = writeCsv(join(tmp.dir, "labels.data"), ["x,y"]);
    await ingestFile({ dbPath, file, format: "csv", labelSetId: "fmt" });
    expect(open().heal(hashOf("x,y"))).toBe("x,y");
  });

  it("a malformed line rejects the whole version with file and line, leaving the database as it was", async () => {
    await ingestFile({ dbPath, file: writeText(join(tmp.dir, "v0.txt"), ["kept"]), labelSetId: "lines" });
    const bad = join(tmp.dir, "bad.txt");
    writeFileSync(
      bad,
      Buffer.concat([Buffer.from("fine\nalso-fine\n"), Buffer.from([0x66, 0xff, 0xfe, 0x0a]), Buffer.from("after\n")]),
    );
    const error = await ingestFile({ dbPath, file: bad }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MalformedInputError);
    expect((error as Error).message).toBe(`${bad}: line 3: the label is not valid UTF-8`);
    const store = open();
    expect(store.config()).toMatchObject({ labelSetId: "lines", highestLabelSetVersion: 0, recordsCount: 1 });
    expect(store.heal(hashOf("fine"))).toBeNull();

    const csv = join(tmp.dir, "bad.csv");
    writeFileSync(csv, 'ok\n"unterminated\nmore\n');
    await expect(ingestFile({ dbPath, file: csv })).rejects.toThrow(`${csv}: line 2: a quoted field is never closed`);
    writeFileSync(csv, "a,b,c\n");
    await expect(ingestFile({ dbPath, file: csv })).rejects.toThrow(`${csv}: line 1: expected 1 or 2 columns`);
    expect(store.config().recordsCount).toBe(1);
  });

  it("requires a label set id for the first ingest and refuses a different id later", async () => {
    const file = writeText(join(tmp.dir, "a.txt"), ["a"]);
    await expect(ingestFile({ dbPath, file })).rejects.toThrow(IngestConflictError);
    await ingestFile({ dbPath, file, labelSetId: "first" });
    await expect(ingestFile({ dbPath, file, labelSetId: "second" })).rejects.toThrow(
      'Label set id mismatch: the database holds "first" but the input is "second"',
    );
    await expect(ingestFile({ dbPath, file, labelSetId: "Bad_Id" })).rejects.toThrow(
      /Invalid label set id "Bad_Id": label set id must be 1-50 characters/,
    );
  });

  it("a failed first ingest leaves the database not ready, and a later ingest can still create version 0", async () => {
    const bad = join(tmp.dir, "bad.csv");
    writeFileSync(bad, "ok\na,b,c\n");
    await expect(ingestFile({ dbPath, file: bad, labelSetId: "retry" })).rejects.toThrow(MalformedInputError);
    const store = open();
    expect(store.readiness()).toMatchObject({ ready: false, reason: expect.stringMatching(/first ingest failed/) });
    await ingestFile({ dbPath, file: writeText(join(tmp.dir, "ok.txt"), ["ok"]), labelSetId: "retry" });
    expect(store.readiness()).toMatchObject({ ready: true, highestVersion: 0, recordsCount: 1 });
  });
});
