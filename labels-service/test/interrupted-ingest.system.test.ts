import { once } from "node:events";
import { createWriteStream, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestFile, type LabelsServer, startLabelsServer } from "../src/index.js";
import { startCli, startFedIngest, waitForIngestTransaction } from "./cli-helpers.js";
import { getJson, hashOf, tempDir, writeText } from "./helpers.js";

const BIG_LABELS = 2_000_000;
const bigLabel = (i: number) => `big-${i}`;

async function writeBigInput(path: string): Promise<string> {
  const out = createWriteStream(path);
  const perChunk = 50_000;
  for (let start = 0; start < BIG_LABELS; start += perChunk) {
    let text = "";
    for (let i = start; i < start + perChunk; i++) text += `${bigLabel(i)}\n`;
    if (!out.write(text)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  return path;
}

/** An ingest fed the first half of the big input through a pipe left open (`startFedIngest`). */
function startHalfFedIngest(big: string, args: string[]) {
  const bytes = readFileSync(big);
  return startFedIngest(bytes.subarray(0, bytes.length >> 1), args);
}

describe("an interrupted ingest", () => {
  const tmp = tempDir();
  let big: string;

  beforeAll(async () => {
    big = await writeBigInput(join(tmp.dir, "big.txt"));
  });
  afterAll(() => tmp.cleanup());

  it("killed mid-way (SIGKILL) leaves the previous version serving with its count", async () => {
    const dbPath = join(tmp.dir, "killed.sqlite");
    await ingestFile({
      dbPath,
      file: writeText(join(tmp.dir, "v0.txt"), ["alpha", "beta", "gamma"]),
      labelSetId: "kill-test",
    });
    const server: LabelsServer = await startLabelsServer({ dbPath, port: 0 });
    try {
      const ingest = await startHalfFedIngest(big, ["--db", dbPath]);
      await waitForIngestTransaction(dbPath, ingest);
      await new Promise((r) => setTimeout(r, 1500)); // well into the records it was given
      // While it runs, the server keeps answering from version 0.
      expect((await getJson(`${server.url}/v1/labels/count`)).body.count).toBe(3);
      ingest.child.kill("SIGKILL");
      expect((await ingest.done).signal).toBe("SIGKILL");

      expect((await getJson(`${server.url}/v1/labels/count`)).body).toMatchObject({ status: "success", count: 3 });
      expect((await getJson(`${server.url}/v1/config`)).body).toMatchObject({
        labelSet: { labelSetId: "kill-test", highestLabelSetVersion: 0 },
        recordsCount: 3,
      });
      expect((await getJson(`${server.url}/v1/heal/${hashOf("beta")}`)).body).toEqual({
        status: "success",
        label: "beta",
      });
      expect((await getJson(`${server.url}/v1/heal/${hashOf(bigLabel(0))}`)).status).toBe(404);

      // The database is healthy afterwards: the next ingest becomes version 1.
      const next = await ingestFile({ dbPath, file: writeText(join(tmp.dir, "v1.txt"), ["delta"]) });
      expect(next).toMatchObject({ labelSetVersion: 1, added: 1, recordsCount: 4 });
      expect((await getJson(`${server.url}/v1/labels/count`)).body.count).toBe(4);
    } finally {
      await server.close();
    }
  });

  it("stopped with Ctrl-C (SIGINT) rolls back and says the database is unchanged", async () => {
    const dbPath = join(tmp.dir, "sigint.sqlite");
    await ingestFile({ dbPath, file: writeText(join(tmp.dir, "s0.txt"), ["one"]), labelSetId: "sigint-test" });
    const ingest = await startHalfFedIngest(big, ["--db", dbPath]);
    await waitForIngestTransaction(dbPath, ingest);
    await new Promise((r) => setTimeout(r, 500));
    ingest.child.kill("SIGINT");
    const run = await ingest.done;
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Ingest interrupted; the database is unchanged");
    const count = startCli(["count", "--db", dbPath]);
    expect((await count.done).stdout).toContain('1 labels (label set "sigint-test", highest version 0)');
  });

  it("stopped with SIGTERM while its pipe is idle, rolls back at once instead of waiting for more input", async () => {
    const dbPath = join(tmp.dir, "idle-pipe.sqlite");
    await ingestFile({ dbPath, file: writeText(join(tmp.dir, "i0.txt"), ["one"]), labelSetId: "idle-test" });
    const ingest = await startFedIngest(Buffer.from("two\nthree\n"), ["--db", dbPath]);
    await waitForIngestTransaction(dbPath, ingest);
    const signalled = Date.now();
    ingest.child.kill("SIGTERM");
    const run = await ingest.done;
    expect(run.code).toBe(1);
    expect(Date.now() - signalled).toBeLessThan(5_000);
    expect(run.stderr).toContain("Ingest interrupted; the database is unchanged");
    const count = startCli(["count", "--db", dbPath]);
    expect((await count.done).stdout).toContain('1 labels (label set "idle-test", highest version 0)');
  }, 30_000);

  it("killed during the first ingest leaves a database that answers 503 until an ingest completes", async () => {
    const dbPath = join(tmp.dir, "first.sqlite");
    const server = await startLabelsServer({ dbPath, port: 0 });
    try {
      const ingest = await startHalfFedIngest(big, ["--db", dbPath, "--label-set-id", "first"]);
      await waitForIngestTransaction(dbPath, ingest);
      await new Promise((r) => setTimeout(r, 600)); // past the server's retry delay for opening a new file
      const during = await getJson(`${server.url}/v1/heal/${hashOf(bigLabel(1))}`);
      expect(during.status).toBe(503);
      expect(during.body.error).toMatch(/first ingest is in progress or was interrupted/);
      ingest.child.kill("SIGKILL");
      await ingest.done;

      expect((await getJson(`${server.url}/v1/labels/count`)).status).toBe(503);
      expect((await getJson(`${server.url}/health`)).body).toEqual({ status: "ok" });

      await ingestFile({ dbPath, file: writeText(join(tmp.dir, "f0.txt"), ["finally"]), labelSetId: "first" });
      expect((await getJson(`${server.url}/v1/heal/${hashOf("finally")}`)).body).toEqual({
        status: "success",
        label: "finally",
      });
      expect((await getJson(`${server.url}/v1/config`)).body).toMatchObject({
        labelSet: { highestLabelSetVersion: 0 },
        recordsCount: 1,
      });
    } finally {
      await server.close();
    }
  });
});
