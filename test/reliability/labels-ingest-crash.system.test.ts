import { once } from "node:events";
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Random } from "../../devnet/src/scenario/random";
import { ingestFile, type LabelsServer, labelhashOf, startLabelsServer } from "../../labels-service/src/index";
import { runCli, startCli, startFedIngest } from "../../labels-service/test/cli-helpers";
import { bySize, report } from "./support/scale";

/*
 * Issue #8, label service side: SIGKILL an ingest of a new label set version at seeded random points while a
 * poller keeps asking the service for its count and for labels. The previous version must keep serving (same
 * count, no errors, its labels heal), the killed version's labels must never appear, and a final complete ingest
 * must change count and version exactly once.
 *
 * The killed ingests read the new version from a pipe (`ingest -`) that this test writes: a kill point is a seeded
 * share of the input written, then a short wait while the ingest works on it. The pipe is never closed, so the
 * ingest cannot have reached its commit when it is killed, however fast or slow the machine runs.
 */

const SEED = 8;
const LABEL_SET_ID = "crash-test";
const V0_LABELS = 2_000;
const size = bySize({ ci: { kills: 3, v1Labels: 400_000 }, full: { kills: 10, v1Labels: 2_000_000 } });
const v0Label = (i: number) => `v0-${i}`;
const v1Label = (i: number) => `v1-${i}`;

async function writeLabels(path: string, count: number, label: (i: number) => string): Promise<string> {
  const out = createWriteStream(path);
  for (let start = 0; start < count; start += 50_000) {
    let text = "";
    for (let i = start; i < Math.min(count, start + 50_000); i++) text += `${label(i)}\n`;
    if (!out.write(text)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
  return path;
}

interface Observations {
  polls: number;
  counts: number[];
  failures: string[];
  v1Seen: number;
}

/**
 * Hits /v1/labels/count, heals a v0 label and a v1 label in a loop until stopped; v1 labels may heal only once
 * allowV1() was called. Any other unexpected answer is recorded as a failure.
 */
function startPoller(url: string, random: Random) {
  const seen: Observations = { polls: 0, counts: [], failures: [], v1Seen: 0 };
  let running = true;
  let expectV1 = false;
  const loop = (async () => {
    while (running) {
      seen.polls += 1;
      try {
        const count = await fetch(`${url}/v1/labels/count`);
        const body = (await count.json()) as { count?: number };
        if (count.status !== 200 || typeof body.count !== "number")
          seen.failures.push(`count: ${count.status} ${JSON.stringify(body)}`);
        else if (seen.counts.at(-1) !== body.count) seen.counts.push(body.count);
        const old = v0Label(random.int(V0_LABELS));
        const healed = await fetch(`${url}/v1/heal/${labelhashOf(old)}`);
        const healedBody = (await healed.json()) as { label?: string };
        if (healed.status !== 200 || healedBody.label !== old)
          seen.failures.push(`heal ${old}: ${healed.status} ${JSON.stringify(healedBody)}`);
        const fresh = v1Label(random.int(size.v1Labels));
        const res = await fetch(`${url}/v1/heal/${labelhashOf(fresh)}`);
        if (res.status === 200) {
          seen.v1Seen += 1;
          if (!expectV1) seen.failures.push(`heal ${fresh}: a label of an unfinished ingest answered 200`);
        } else if (res.status !== 404) seen.failures.push(`heal ${fresh}: ${res.status}`);
      } catch (error) {
        seen.failures.push(`request failed: ${(error as Error).message}`);
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  return {
    seen,
    allowV1() {
      expectV1 = true;
    },
    async stop() {
      running = false;
      await loop;
    },
  };
}

describe("label service while ingests are SIGKILLed", () => {
  let dir: string;
  let dbPath: string;
  let v1File: string;
  let server: LabelsServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "labels-crash-"));
    dbPath = join(dir, "labels.sqlite");
    await ingestFile({
      dbPath,
      file: await writeLabels(join(dir, "v0.txt"), V0_LABELS, v0Label),
      labelSetId: LABEL_SET_ID,
    });
    v1File = await writeLabels(join(dir, "v1.txt"), size.v1Labels, v1Label);
    server = await startLabelsServer({ dbPath, port: 0 });
  }, 600_000);

  afterAll(async () => {
    await server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(
    `keeps serving version 0 through ${size.kills} killed ingests, then moves to version 1 once`,
    async () => {
      const random = new Random(SEED);
      const poller = startPoller(server.url, new Random(SEED + 1));
      const kills: string[] = [];
      const v1Bytes = readFileSync(v1File);
      try {
        for (let k = 0; k < size.kills; k++) {
          // Anywhere from the first bytes to all of them (the pipe still open), then up to 300 ms of the ingest's work.
          const written = Math.floor((0.02 + random.next() * 0.98) * v1Bytes.length);
          const workMs = random.int(300);
          const ingest = await startFedIngest(v1Bytes.subarray(0, written), ["--db", dbPath]);
          await new Promise((r) => setTimeout(r, workMs));
          ingest.child.kill("SIGKILL");
          const run = await ingest.done;
          const at = `${((100 * written) / v1Bytes.length).toFixed(0)} % written + ${workMs} ms`;
          kills.push(at);
          expect(run.signal, `ingest ${k} exited before the kill (${at}): ${run.stderr}`).toBe("SIGKILL");
          const config = (await (await fetch(`${server.url}/v1/config`)).json()) as {
            labelSet: { highestLabelSetVersion: number };
            recordsCount: number;
          };
          expect(config, `after ingest ${k} was killed at ${at}`).toMatchObject({
            labelSet: { highestLabelSetVersion: 0 },
            recordsCount: V0_LABELS,
          });
        }
        const validate = await runCli(["validate", "--db", dbPath]);
        expect(validate.code, validate.stderr).toBe(0);
        const duringKills = { ...poller.seen, counts: [...poller.seen.counts], failures: [...poller.seen.failures] };

        // From here on v1 may appear at any moment: the ingest commits before its process exits.
        poller.allowV1();
        const final = startCli(["ingest", v1File, "--db", dbPath]);
        const run = await final.done;
        expect(run.code, run.stderr).toBe(0);
        const pollsAtCommit = poller.seen.polls;
        await new Promise((r) => setTimeout(r, 1000));
        await poller.stop();
        const config = (await (await fetch(`${server.url}/v1/config`)).json()) as {
          labelSet: { highestLabelSetVersion: number };
          recordsCount: number;
        };

        report(
          "labels-ingest-crash",
          `v0 ${V0_LABELS} labels, v1 ${size.v1Labels} labels; killed at [${kills.join(", ")}]; ` +
            `${duringKills.polls} polls during the kills: counts seen ${JSON.stringify(duringKills.counts)}, ${duringKills.v1Seen} v1 heals, ` +
            `${duringKills.failures.length} failures; validate ok; final ingest exit ${run.code}, ${poller.seen.polls - pollsAtCommit} polls after it: ` +
            `counts seen overall ${JSON.stringify(poller.seen.counts)}, version ${config.labelSet.highestLabelSetVersion}, ${config.recordsCount} records; ` +
            `failures ${JSON.stringify(poller.seen.failures.slice(0, 5))}`,
        );
        expect(duringKills.counts).toEqual([V0_LABELS]);
        expect(duringKills.v1Seen).toBe(0);
        expect(poller.seen.failures).toEqual([]);
        expect(poller.seen.counts).toEqual([V0_LABELS, V0_LABELS + size.v1Labels]);
        expect(config).toMatchObject({
          labelSet: { highestLabelSetVersion: 1 },
          recordsCount: V0_LABELS + size.v1Labels,
        });
        expect(poller.seen.v1Seen).toBeGreaterThan(0);
      } finally {
        await poller.stop();
      }
    },
    bySize({ ci: 240_000, full: 1_200_000 }),
  );
});
