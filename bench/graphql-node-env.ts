/**
 * graphql-js in production mode against development mode, on /subgraph's own schema: `npm run bench:graphql-mode`.
 *
 * graphql-js reads NODE_ENV once, at import; outside "production" every `instanceof` it does also looks for a
 * same-named class of another graphql copy (scripts/lib/production-node-env.ts). Each round runs two child processes,
 * one per mode, in alternating order; each parses, validates and executes the introspection query against the
 * subgraph schema (no database: the work is graphql-js's alone) and prints the CPU time per operation, after a warm-up.
 *
 *   BENCH_ROUNDS=4  BENCH_OPERATIONS=300
 */
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const OPERATIONS = Number(process.env.BENCH_OPERATIONS ?? 300);
const MODES = ["production", "development"] as const;

async function child(): Promise<void> {
  const { execute, getIntrospectionQuery, parse, validate } = await import("graphql");
  const { subgraphSchema } = await import("../src/api/subgraph");
  const schema = subgraphSchema();
  const text = getIntrospectionQuery();
  const once = () => {
    const document = parse(text);
    if (validate(schema, document).length > 0) throw new Error("introspection query does not validate");
    const result = execute({ schema, document });
    if ("then" in result || result.errors) throw new Error("introspection failed");
  };
  for (let i = 0; i < 30; i++) once();
  const start = process.cpuUsage();
  for (let i = 0; i < OPERATIONS; i++) once();
  const { user, system } = process.cpuUsage(start);
  console.log(JSON.stringify({ msPerOperation: (user + system) / 1000 / OPERATIONS }));
}

async function main(): Promise<void> {
  const self = fileURLToPath(import.meta.url);
  const results: Record<string, number[]> = { production: [], development: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? MODES : [...MODES].reverse();
    for (const mode of order) {
      const out = execFileSync(process.execPath, ["--import", "tsx", self, "--child"], {
        env: { ...process.env, NODE_ENV: mode, BENCH_OPERATIONS: String(OPERATIONS) },
        encoding: "utf8",
      });
      results[mode]!.push(JSON.parse(out.trim().split("\n").pop()!).msPerOperation);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const load = (await import("node:os"))
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
  console.log(
    `introspection parse + validate + execute on the subgraph schema, ${OPERATIONS} per run, ${ROUNDS} runs per mode, load ${load}`,
  );
  console.table(
    MODES.map((mode) => ({
      NODE_ENV: mode,
      "CPU ms per operation (median)": median(results[mode]!).toFixed(3),
      runs: results[mode]!.map((x) => x.toFixed(3)).join(" "),
    })),
  );
  console.log(`production / development: ${(median(results.production!) / median(results.development!)).toFixed(2)}×`);
}

if (process.argv.includes("--child")) await child();
else await main();
