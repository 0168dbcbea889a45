import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { exitCodeOf, indexerOptionsFor, startIndexer, waitFor } from "../../harness/indexer-harness";
import { ingestDemoLabelSet, startLabelsServer } from "../../labels-service/src/index";

/*
 * A restart with a flipped output-changing setting must never resume the old schema (its rows were written under the
 * other interpretation): it is refused with the setting named, the old rows stay as they were, and the flipped
 * settings make a new Ponder build. Before the build record, SUBGRAPH_COMPAT and the label-set pin reached neither
 * Ponder's build id nor any check, so both flips below resumed the old index.
 */

interface SubgraphLabels {
  url: string;
  close(): Promise<void>;
}

/** A second label service serving the set "subgraph" (SUBGRAPH_COMPAT's pin), with the devnet's scenario labels. */
async function startSubgraphLabels(env: DevnetWithLabels): Promise<SubgraphLabels> {
  const dir = mkdtempSync(join(tmpdir(), "nameindex-labels-subgraph-"));
  const scenario = env.devnet.manifest.scenario as { labels?: string[]; unhealableLabels?: string[] };
  const dbPath = join(dir, "labels.sqlite");
  await ingestDemoLabelSet({
    dbPath,
    labelSetId: "subgraph",
    extraLabels: scenario.labels ?? [],
    excludeLabels: scenario.unhealableLabels ?? [],
  });
  const server = await startLabelsServer({ dbPath, port: 0, host: "127.0.0.1" });
  return {
    url: server.url,
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function query<T extends pg.QueryResultRow>(databaseUrl: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

const buildIdOf = async (databaseUrl: string, schema: string) =>
  (
    await query<{ value: { build_id: string } }>(
      databaseUrl,
      `select value from "${schema}"._ponder_meta where key = 'app'`,
    )
  )[0]?.value.build_id;
const domainsOf = async (databaseUrl: string, schema: string) =>
  Number((await query<{ n: string }>(databaseUrl, `select count(*) as n from "${schema}".domain`))[0]!.n);

describe("restarting with a flipped output-changing setting", () => {
  let env: DevnetWithLabels;
  let subgraphLabels: SubgraphLabels;

  beforeAll(async () => {
    env = await startDevnetWithLabels({ seed: 17, names: 6 });
    subgraphLabels = await startSubgraphLabels(env);
  }, 300_000);

  afterAll(async () => {
    await subgraphLabels?.close();
    await env?.stop();
  });

  it("SUBGRAPH_COMPAT (PostgreSQL): refused with the setting named, old rows kept, a new build id; same settings resume", async () => {
    const compat = { SUBGRAPH_COMPAT: "true", LABEL_SET_ID: "subgraph", LABELS_SERVICE_URL: subgraphLabels.url };
    const indexer = await startIndexer({
      ...indexerOptionsFor(env, { plugins: ["subgraph"], database: "postgres" }),
      extraEnv: compat,
    });
    try {
      await indexer.process.ready();
      const databaseUrl = indexer.env.DATABASE_URL!;
      const buildId = await buildIdOf(databaseUrl, indexer.schema);
      const domains = await domainsOf(databaseUrl, indexer.schema);
      expect(domains).toBeGreaterThan(6);
      await indexer.process.stop();

      indexer.env.SUBGRAPH_COMPAT = "false";
      await indexer.restart();
      expect(await exitCodeOf(indexer, 120_000)).not.toBe(0);
      const log = readFileSync(indexer.logFile, "utf8");
      expect(log).toContain(
        `Schema "${indexer.schema}" holds an index built with other settings that change indexed rows: SUBGRAPH_COMPAT was true, now false.`,
      );
      expect(await buildIdOf(databaseUrl, indexer.schema)).toBe(buildId);
      expect(await domainsOf(databaseUrl, indexer.schema)).toBe(domains);

      // The flipped settings on a schema of their own: Ponder sees another build.
      const flipped = await startIndexer({
        ...indexerOptionsFor(env, { plugins: ["subgraph"], database: "postgres" }),
        extraEnv: { LABEL_SET_ID: "subgraph", LABELS_SERVICE_URL: subgraphLabels.url },
        reuse: { databaseUrl },
      });
      try {
        await waitFor(
          async () => (await buildIdOf(databaseUrl, flipped.schema)) !== undefined,
          120_000,
          "the flipped build's _ponder_meta",
        );
        expect(await buildIdOf(databaseUrl, flipped.schema)).not.toBe(buildId);
      } finally {
        await flipped.stop();
      }

      indexer.env.SUBGRAPH_COMPAT = "true";
      await indexer.restart();
      await indexer.process.ready();
      expect(await buildIdOf(databaseUrl, indexer.schema)).toBe(buildId);
      expect(readFileSync(indexer.logFile, "utf8")).toMatch(/Detected crash recovery/);
      // Crash recovery rewrites Ponder's own metadata; the record must outlive it (and a kill) for the next restart.
      await indexer.kill();
      await indexer.restart();
      await indexer.process.ready();
    } finally {
      await indexer.stop();
    }
  }, 600_000);

  it("the label-set pin (PGlite): refused with LABEL_SET_ID/LABEL_SET_VERSION named; same settings resume", async () => {
    const indexer = await startIndexer(indexerOptionsFor(env, { plugins: ["subgraph"], database: "pglite" }));
    try {
      await indexer.process.ready();
      const before = await (
        await fetch(`${indexer.url}/subgraph`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: "{ domains(first: 1000, orderBy: id) { id name } }" }),
        })
      ).json();
      await indexer.process.stop();

      Object.assign(indexer.env, { LABEL_SET_ID: "subgraph", LABELS_SERVICE_URL: subgraphLabels.url });
      await indexer.restart();
      expect(await exitCodeOf(indexer, 120_000)).not.toBe(0);
      expect(readFileSync(indexer.logFile, "utf8")).toContain(
        "holds an index built with other settings that change indexed rows: LABEL_SET_ID/LABEL_SET_VERSION was demo@0, now subgraph@0.",
      );

      delete indexer.env.LABEL_SET_ID;
      indexer.env.LABELS_SERVICE_URL = env.labelsUrl;
      await indexer.restart();
      await indexer.process.ready();
      const after = await (
        await fetch(`${indexer.url}/subgraph`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: "{ domains(first: 1000, orderBy: id) { id name } }" }),
        })
      ).json();
      expect(after).toEqual(before);
    } finally {
      await indexer.stop();
    }
  }, 600_000);
});
