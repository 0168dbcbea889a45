import { once } from "node:events";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REGISTRY_ROLES } from "../../devnet/src/ensv2-roles";
import { type CanonicalDump, diffDumps, dumpPglite, dumpPostgres, summarizeDump } from "../../harness/canonical-dump";
import { type DevnetWithLabels, startDevnetWithLabels } from "../../harness/devnet-fixture";
import { indexerOptionsFor, type RunningIndexer, startIndexer } from "../../harness/indexer-harness";
import { ensv2TruthOf, indexedRolesOn } from "./support/ensv2-truth";
import { metaBlock, reorgMetric, reorgsLogged, subgraph, waitForHead } from "./support/follow-head";
import { type BranchFacts, ReorgDriver } from "./support/reorg-scenario";
import { bySize, report } from "./support/scale";

/*
 * Issue #8, reorgs: the indexer follows the devnet's ENS root chain, which we fork with evm_snapshot/evm_revert. Branch A
 * registers names, sets records and transfers a name; the index shows it; then the chain returns to the fork point and
 * mines branch B (other names, owners, records, and more blocks, so it is the longest chain). Once the index reaches B's
 * head, /subgraph must show B and nothing of A, and the whole index must equal a fresh index of the same chain.
 * Ponder 0.17.7 treats the newest 30 blocks of an unknown chain as unfinalized (see docs/operations.md), so a reorg up
 * to 30 blocks deep is within finality. The ensv2 plugin runs too: each branch registers its names in the ENSv2 .eth
 * registry as well (resolvers, a role grant that regenerates a token), and on PostgreSQL that registry's rows must
 * equal the chain (eth_call) after every branch, with nothing of the abandoned one.
 */

interface Round {
  /** Blocks of branch A (the reorg's depth) and of branch B. */
  depthA: number;
  blocksB: number;
}

const SHALLOW: Round = { depthA: 3, blocksB: 4 };
const DEEP: Round = { depthA: 14, blocksB: 17 };
const ROUNDS: Round[] = bySize({
  ci: [SHALLOW, DEEP],
  full: [SHALLOW, DEEP, SHALLOW, { depthA: 25, blocksB: 27 }, SHALLOW],
});
const DATABASES = bySize<("postgres" | "pglite")[]>({ ci: ["postgres"], full: ["postgres", "pglite"] });

interface DomainView {
  id: string;
  name: string | null;
  owner: { id: string };
  resolver: { address: string; texts: string[] | null } | null;
  resolvedAddress: { id: string } | null;
  registration: { registrant: { id: string } } | null;
}

const domainsQuery = (ids: string[]) =>
  `{ domains(first: 1000, where: { id_in: [${ids.map((id) => JSON.stringify(id)).join(",")}] }) {
        id name owner { id } resolver { address texts } resolvedAddress { id } registration { registrant { id } } } }`;

async function readDomains(url: string, ids: string[]): Promise<Map<string, DomainView>> {
  const data = await subgraph<{ domains: DomainView[] }>(url, domainsQuery(ids));
  return new Map(data.domains.map((d) => [d.id, d]));
}

/** Asks until /subgraph answers `query` from its query-result cache (a block indexed in between starts it over). */
async function expectCached(url: string, query: string): Promise<void> {
  const seen: (string | null)[] = [];
  for (let i = 0; i < 5 && seen.at(-1) !== "hit"; i++) {
    const res = await fetch(`${url}/subgraph`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query }),
    });
    await res.arrayBuffer();
    seen.push(res.headers.get("x-subgraph-cache"));
  }
  expect(seen.at(-1), `cache outcomes ${seen.join(", ")}`).toBe("hit");
}

/** TextChanged events with this key (each branch writes its own key), as "node key=value". */
async function textEvents(url: string, key: string): Promise<string[]> {
  const data = await subgraph<{
    textChangeds: { key: string; value: string | null; resolver: { domain: { id: string } | null } }[];
  }>(
    url,
    `{ textChangeds(first: 1000, where: { key: ${JSON.stringify(key)} }) { key value resolver { domain { id } } } }`,
  );
  return data.textChangeds.map((t) => `${t.resolver.domain?.id} ${t.key}=${t.value}`);
}

const lower = (a: string) => a.toLowerCase();

/** Everything the branch wrote is visible through /subgraph. */
async function expectBranchVisible(url: string, facts: BranchFacts): Promise<void> {
  const domains = await readDomains(url, [...facts.registered.map((r) => r.node), facts.transferred.node]);
  for (const r of facts.registered) {
    const d = domains.get(r.node);
    expect(d, `${facts.tag}: ${r.label}.eth indexed`).toBeDefined();
    expect(d!.name).toBe(`${r.label}.eth`);
    expect(d!.owner.id).toBe(lower(r.owner));
    expect(d!.registration?.registrant.id).toBe(lower(r.owner));
    expect(d!.resolver?.texts).toEqual([facts.textKey]);
    expect(d!.resolvedAddress?.id).toBe(lower(r.owner));
  }
  expect(domains.get(facts.transferred.node)?.owner.id, `${facts.tag}: ${facts.transferred.name} transferred`).toBe(
    lower(facts.transferred.to),
  );
  expect((await textEvents(url, facts.textKey)).sort()).toEqual(
    facts.registered.map((r) => `${r.node} ${facts.textKey}=${facts.textValue}`).sort(),
  );
}

const rootRpcUrl = (env: DevnetWithLabels) => env.devnet.manifest.chains["31337"]!.rpcUrl;

/**
 * The ENSv2 .eth registry's rows equal the chain, the branch's names are there with its owner and resolver and the
 * role it granted, and (after a reorg) the abandoned branch's own names are gone. PostgreSQL only: PGlite cannot be
 * read while its indexer runs (its final dump is compared with a fresh index instead).
 */
async function expectEnsv2Branch(
  env: DevnetWithLabels,
  indexer: RunningIndexer,
  facts: BranchFacts,
  abandoned?: BranchFacts,
): Promise<string> {
  const v2 = facts.ensv2!;
  if (!indexer.env.DATABASE_URL) return "ENSv2 rows not read (PGlite)";
  const truth = await ensv2TruthOf(indexer, rootRpcUrl(env), v2.registry);
  expect(truth.differences, `${facts.tag}: ENSv2 .eth registry index against eth_call`).toEqual([]);
  for (const label of v2.labels) {
    const d = truth.domains.get(label);
    expect(d, `${facts.tag}: ${label}.eth in ensv2_domain`).toBeDefined();
    expect([d!.status, d!.owner, d!.resolver], `${facts.tag}: ${label}.eth`).toEqual([
      "registered",
      lower(v2.owner),
      lower(v2.resolver),
    ]);
  }
  const granted = await indexedRolesOn(indexer, rootRpcUrl(env), v2.registry, v2.labels[0]!, v2.granted);
  expect(granted & REGISTRY_ROLES.SET_RESOLVER, `${facts.tag}: ROLE_SET_RESOLVER granted on ${v2.labels[0]}.eth`).toBe(
    REGISTRY_ROLES.SET_RESOLVER,
  );
  if (abandoned) {
    const gone = abandoned.ensv2!.labels.filter((l) => !v2.labels.includes(l));
    expect(
      gone.filter((l) => truth.domains.has(l)),
      `${abandoned.tag}: its own ENSv2 names must be gone`,
    ).toEqual([]);
    if (abandoned.ensv2!.granted !== v2.granted) {
      expect(
        await indexedRolesOn(indexer, rootRpcUrl(env), v2.registry, v2.labels[0]!, abandoned.ensv2!.granted),
        `${abandoned.tag}: its role grant must be gone`,
      ).toBe(0n);
    }
  }
  return `ENSv2: ${truth.namesCompared} names, ${truth.rolesCompared} role entries of the .eth registry equal eth_call`;
}

/** Nothing only the abandoned branch wrote is visible: its own names, its records, its owners. */
async function expectBranchGone(url: string, abandoned: BranchFacts, canonical: BranchFacts): Promise<void> {
  const canonicalNodes = new Set(canonical.registered.map((r) => r.node));
  const domains = await readDomains(
    url,
    abandoned.registered.map((r) => r.node),
  );
  for (const r of abandoned.registered) {
    const d = domains.get(r.node);
    if (canonicalNodes.has(r.node)) {
      // The name both branches registered: only the canonical owner and records remain.
      expect(d!.owner.id).toBe(lower(canonical.registered.find((c) => c.node === r.node)!.owner));
      expect(d!.resolver?.texts ?? []).not.toContain(abandoned.textKey);
    } else {
      expect(d, `${abandoned.tag}: ${r.label}.eth must be gone`).toBeUndefined();
    }
  }
  expect(await textEvents(url, abandoned.textKey), `${abandoned.tag}: text records gone`).toEqual([]);
}

for (const database of DATABASES) {
  describe(`reorgs on ${database}`, () => {
    let env: DevnetWithLabels;
    let indexer: RunningIndexer;
    let driver: ReorgDriver;
    // Debug logs carry Ponder's "Reconciled reorg" lines.
    const start = () =>
      startIndexer(
        indexerOptionsFor(env, { plugins: ["subgraph", "ensv2"], database, extraEnv: { PONDER_LOG_LEVEL: "debug" } }),
      );

    beforeAll(async () => {
      env = await startDevnetWithLabels({ seed: 8, names: 12 });
      driver = await ReorgDriver.connect(env.devnet.manifest);
      indexer = await start();
      await indexer.process.ready();
      await waitForHead(indexer.url, await driver.head(), "initial sync");
    }, 400_000);

    afterAll(async () => {
      await indexer?.stop();
      await env?.stop();
    });

    it(
      `converges to the longest branch after ${ROUNDS.length} reorgs (depths ${ROUNDS.map((r) => r.depthA).join(", ")}) and never shows the abandoned one`,
      async () => {
        const [, , , , , , , ownerA, ownerB, other] = driver.accounts;
        for (const [i, round] of ROUNDS.entries()) {
          const shared = driver.freshLabel();
          const fork = await driver.snapshot();
          const a = await driver.playBranch({
            tag: `A${i}`,
            blocks: round.depthA,
            ownNames: 2,
            sharedLabel: shared,
            owner: ownerA!,
            transferTo: ownerA!,
            ensv2: true,
          });
          const tA = await waitForHead(indexer.url, a.head, `round ${i} branch A`);
          await expectBranchVisible(indexer.url, a);
          await expectEnsv2Branch(env, indexer, a);

          // The query expectBranchGone repeats after the reorg, cached now at A's head: it must not be served on B.
          await expectCached(indexer.url, domainsQuery(a.registered.map((r) => r.node)));

          const reorgsBefore = reorgsLogged(indexer).length;
          const reorgMetricBefore = await reorgMetric(indexer.url);
          await driver.revert(fork);
          // B first reaches A's height: Ponder sees another block at a number it indexed (and /subgraph's _meta must
          // name B's block there, not a remembered hash of A's), then B grows past A.
          const b = await driver.playBranch({
            tag: `B${i}`,
            blocks: round.depthA,
            ownNames: 2,
            sharedLabel: shared,
            owner: ownerB!,
            transferTo: other!,
            ensv2: true,
          });
          const tSame = await waitForHead(indexer.url, b.head, `round ${i} branch B at A's height`);
          // Same block number as A's head, another branch: nothing cached at A's head may answer.
          await expectBranchGone(indexer.url, a, b);
          b.head = await driver.extend(round.blocksB - round.depthA);
          const tB = tSame + (await waitForHead(indexer.url, b.head, `round ${i} branch B`));
          await expectBranchGone(indexer.url, a, b);
          await expectBranchVisible(indexer.url, b);
          const ensv2Outcome = await expectEnsv2Branch(env, indexer, b, a);
          // The abandoned head's number now holds B's block, and _meta names that one.
          expect(await driver.blockHash(a.head.number)).not.toBe(a.head.hash);
          const reorgs = reorgsLogged(indexer).slice(reorgsBefore);
          expect(reorgs.length, "Ponder reconciled the reorg").toBeGreaterThanOrEqual(1);
          // Monitoring sees each reconciled reorg on the counter.
          expect((await reorgMetric(indexer.url)) - reorgMetricBefore, "ponder_realtime_reorg_total").toBe(
            reorgsLogged(indexer).length - reorgsBefore,
          );
          report(
            "reorg",
            `${database} round ${i}: fork at ${fork.block}, A ${fork.block + 1}-${a.head.number} (depth ${round.depthA}, ` +
              `${a.registered.length} names, indexed in ${tA} ms), B ${fork.block + 1}-${b.head.number} (${round.blocksB} blocks, ` +
              `caught up in ${tB} ms, Ponder: ${reorgs.map((l) => l.replace(/^.*?(reorg_depth\S*).*$/, "$1")).join(", ")}): A's names/records/owners gone, B's visible, _meta at B's head; ${ensv2Outcome}`,
          );
        }
      },
      ROUNDS.length * 150_000,
    );

    it("equals a fresh index of the same chain after the reorgs", async () => {
      const head = await driver.head();
      const fresh = await start();
      try {
        await fresh.process.ready();
        await waitForHead(fresh.url, head, "fresh index");
        const [reorged, clean] = await Promise.all([dumpIndex(indexer), dumpIndex(fresh)]);
        const problems = diffDumps(clean, reorged);
        report(
          "reorg",
          `${database} at block ${head.number}: reorged ${summarizeDump(reorged)}; fresh ${summarizeDump(clean)}; ${problems.length} differences`,
        );
        expect(problems).toEqual([]);
        expect(reorged.domain?.rows ?? 0).toBeGreaterThan(10);
        // The ENSv2 tables took part: the scenario's names and every branch's surviving ones.
        expect(reorged.ensv2_domain?.rows ?? 0).toBeGreaterThan(10);
      } finally {
        await fresh.stop();
      }
    }, 300_000);

    /** PostgreSQL is read in one snapshot while running; PGlite is single-process, so its indexer stops first. */
    async function dumpIndex(target: RunningIndexer): Promise<CanonicalDump> {
      if (target.env.DATABASE_URL) return dumpPostgres(target.env.DATABASE_URL, target.schema);
      await target.process.stop();
      return dumpPglite(target.env.PGLITE_DIRECTORY!, target.schema);
    }
  });
}

describe("a reorg deeper than finality (Ponder: 30 blocks on a devnet chain)", () => {
  // Ponder's own unfinalized window is 30 to 59 blocks (it finalizes in steps of 30), so 65 is beyond it whatever the
  // phase; the guard stops at anything deeper than 30.
  const DEPTH = 65;
  let env: DevnetWithLabels;
  let indexer: RunningIndexer;
  let driver: ReorgDriver;

  beforeAll(async () => {
    env = await startDevnetWithLabels({ seed: 9, names: 12 });
    driver = await ReorgDriver.connect(env.devnet.manifest);
    indexer = await startIndexer(indexerOptionsFor(env, { plugins: ["subgraph"], database: "postgres" }));
    await indexer.process.ready();
    await waitForHead(indexer.url, await driver.head(), "initial sync");
  }, 400_000);

  afterAll(async () => {
    await indexer?.stop();
    await env?.stop();
  });

  it(`stops the indexer with a clear error (exit code 1) after a ${DEPTH}-block reorg`, async () => {
    const [, , , , , , , ownerA, ownerB] = driver.accounts;
    const shared = driver.freshLabel();
    const fork = await driver.snapshot();
    const a = await driver.playBranch({
      tag: "deepA",
      blocks: DEPTH,
      ownNames: 1,
      sharedLabel: shared,
      owner: ownerA!,
      transferTo: ownerA!,
    });
    await waitForHead(indexer.url, a.head, "branch A");
    await expectBranchVisible(indexer.url, a);
    // The guard looks every 2 s: let it see A's head, so A's block 30 below it is the one it holds final.
    await new Promise((r) => setTimeout(r, 5_000));

    const child = indexer.process.child;
    const exited = new Promise<number | null>((resolve) => {
      if (child.exitCode !== null) resolve(child.exitCode);
      else child.once("exit", (code) => resolve(code));
    });
    const started = Date.now();
    await driver.revert(fork);
    const b = await driver.playBranch({
      tag: "deepB",
      blocks: DEPTH + 5,
      ownNames: 1,
      sharedLabel: shared,
      owner: ownerB!,
      transferTo: ownerB!,
    });
    const code = await Promise.race([exited, new Promise<"running">((r) => setTimeout(() => r("running"), 60_000))]);
    let serving = "";
    if (code === "running") {
      const shown = await readDomains(
        indexer.url,
        [...a.registered, ...b.registered].map((r) => r.node),
      );
      serving = `; /subgraph shows ${[...shown.values()].map((d) => `${d.name} (owner ${d.owner.id.slice(0, 8)})`).join(", ")}`;
    }
    const log = readFileSync(indexer.logFile, "utf8");
    const ponderSaw = log.includes("Encountered unrecoverable");
    report(
      "reorg",
      `beyond finality: fork at ${fork.block}, A ${fork.block + 1}-${a.head.number} (depth ${DEPTH}) indexed, B to ${b.head.number}; ` +
        `indexer ${code === "running" ? "still running after 60 s" : `exited with code ${code} after ${Date.now() - started} ms`}; ` +
        `Ponder's own "unrecoverable reorg" warning ${ponderSaw ? "logged" : "not logged"}${serving}`,
    );
    expect(code, "the indexer stops").toBe(1);
    expect(log).toMatch(
      /Reorg deeper than finality on chain devnetRoot \(31337\): block \d+ was 0x[0-9a-f]{64} and is now/,
    );
    expect(log).toContain("reindex into a new DATABASE_SCHEMA");

    // A supervisor restarting it must not resume on the abandoned branch's final rows: the restart refuses to run.
    const logBefore = readFileSync(indexer.logFile, "utf8").length;
    await indexer.restart();
    const restarted = indexer.process.child;
    const restartCode = await Promise.race([
      once(restarted, "exit").then(([c]) => c as number | null),
      new Promise<"running">((r) => setTimeout(() => r("running"), 45_000)),
    ]);
    const restartLog = readFileSync(indexer.logFile, "utf8").slice(logBefore);
    report(
      "reorg",
      `restarted after it: exited with code ${restartCode}: ${restartLog.match(/cannot be resumed[^\n]{0,160}/)?.[0]}`,
    );
    expect(restartCode).toBe(1);
    expect(restartLog).toMatch(
      /cannot be resumed: the last run stopped on "Reorg deeper than finality on chain devnetRoot/,
    );
    expect(restartLog).toContain("Reindex into a new schema (DATABASE_SCHEMA)");
  }, 180_000);
});
