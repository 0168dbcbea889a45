/*
 * The seeded PostgreSQL fixture the GraphQL benches serve (bench:graphql, bench:omnigraph), and the child process that
 * serves it: forked so that autocannon does not compete with the server for one event loop, asked over IPC for its
 * CPU time (and, when it counts them, its SQL statements) around each timed run.
 */
import { type ChildProcess, fork } from "node:child_process";
import { buildFixture, FIXTURE_HEAD } from "../../harness/subgraph-fixture/fixture";
import { createTestDatabase, type TestDatabase } from "../../harness/subgraph-fixture/pg";
import { withProductionNodeEnv } from "../../scripts/lib/production-node-env";

export type FixtureRows = ReturnType<typeof buildFixture>;

/** A fresh schema with the fixture's rows (`secondLevel` .eth names and their subtrees) and a checkpoint at its head. */
export async function seedFixture(
  prefix: string,
  secondLevel: number,
): Promise<{ db: TestDatabase; rows: FixtureRows }> {
  const t0 = Date.now();
  const db = await createTestDatabase(prefix);
  const rows = buildFixture({ secondLevel, accounts: 500 });
  await db.insert(rows);
  await db.pool.query(`INSERT INTO _ponder_checkpoint VALUES ('anvil', 31337, '0', $1, '0')`, [
    `${FIXTURE_HEAD.timestamp}${"31337".padStart(16, "0")}${String(FIXTURE_HEAD.number).padStart(16, "0")}${"9".repeat(33)}`,
  ]);
  const events = Object.entries(rows)
    .filter(([t]) => !["domain", "account", "resolver", "registration", "wrapped_domain"].includes(t))
    .reduce((n, [, r]) => n + r.length, 0);
  console.log(
    `seeded ${rows.domain!.length} domains, ${rows.registration!.length} registrations, ${rows.resolver!.length} resolvers, ${events} events in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  return { db, rows };
}

/** What the served child reports: its CPU time in ms and the SQL statements it has sent so far. */
export interface ServerStats {
  cpuMs: number;
  statements: number;
}

export interface ForkedServer {
  port: number;
  stats(): Promise<ServerStats>;
  stop(): Promise<void>;
}

/** Forks `script --serve <args…>` (which calls `serveOverIpc`), as the app's servers run (NODE_ENV=production). */
export async function forkServer(script: string, args: string[]): Promise<ForkedServer> {
  const child: ChildProcess = fork(script, ["--serve", ...args], {
    execArgv: [
      "--import",
      "tsx",
      ...(process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
    ],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: withProductionNodeEnv(process.env),
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (m) => resolve((m as { port: number }).port));
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    port,
    stats: () =>
      new Promise<ServerStats>((resolve) => {
        child.once("message", (m) => {
          const { cpu, statements } = m as { cpu: NodeJS.CpuUsage; statements?: number };
          resolve({ cpuMs: (cpu.user + cpu.system) / 1000, statements: statements ?? 0 });
        });
        child.send("cpu");
      }),
    stop: async () => {
      if (!child.pid || !child.connected) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.disconnect();
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    },
  };
}

/** Child side: reports the port once listening, answers stats requests, and ends when the parent disconnects. */
export function serveOverIpc(
  server: { address(): unknown; close(): void },
  statements: () => number,
  onEnd: () => Promise<void>,
): void {
  process.send!({ port: (server.address() as { port: number }).port });
  process.on("message", (m) => {
    if (m === "cpu") process.send!({ cpu: process.cpuUsage(), statements: statements() });
  });
  process.on("disconnect", () => {
    // Let requests autocannon left in flight finish before the pool goes away.
    server.close();
    setTimeout(() => void onEnd().then(() => process.exit(0)), 2000);
  });
}

/** A bench script's entry: the forked child serves (`--serve <schema>`), the parent runs the bench. */
export function serveOrRun(serve: (schemaName: string) => unknown, main: () => Promise<void>): void {
  if (process.argv[2] === "--serve") {
    void serve(process.argv[3]!);
  } else {
    main().catch((e) => {
      console.error(e);
      process.exit(1);
    });
  }
}
