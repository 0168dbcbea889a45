import type { Agent } from "node:http";
import type { RecordedCall } from "../../../harness/recording-rpc";
import { seededRandom } from "../../../harness/seeded-random";
import { send } from "./fuzz-inputs";

/*
 * A hostile probe of /subgraph's `block:` arguments: malformed hashes, numbers out of range, as many blocks in one
 * query as its aliases allow, one unknown hash repeated, then a flood of unknown hashes. Each request's answer must
 * come within 1 s and name its problem (or be data, for the blocks that exist); the chain lookups they cause are
 * counted at the root chain's RPC and compared with the bound docs/api.md documents.
 */

/** docs/api.md, "/subgraph at a past block": what /subgraph asks the RPC for blocks, per process. */
export const DOCUMENTED_BOUND = { burst: 30, perSecond: 5 };

const FLOOD = 300;
const FLOOD_CONCURRENCY = 8;

interface Case {
  query: string;
  variables?: Record<string, unknown>;
  /** What the answer must show: its first error's message, or (a function) whatever the case checks. */
  expect: RegExp | ((body: Answer) => string | undefined);
}

interface Answer {
  data?: Record<string, unknown>;
  errors?: { message: string }[];
}

export interface ProbeResult {
  /** What was tried and what held, one line per stage and one for the total. */
  lines: string[];
  problems: string[];
  /** The slowest answer, ms. */
  slowest: number;
  /** Calls /subgraph made to the root chain's RPC while the probe ran. */
  rpcCalls: number;
  /** The documented bound for the probe's duration. */
  bound: number;
  /** Flood requests refused by the lookups' budget (rather than answered "no block with that hash found"). */
  refused: number;
}

export async function blockInputProbe(
  base: string,
  agent: Agent,
  blockCalls: () => RecordedCall[],
): Promise<ProbeResult> {
  const ask = async (c: Omit<Case, "expect">) => {
    const res = await send(
      base,
      {
        route: "/subgraph",
        method: "POST",
        path: "/subgraph",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: c.query, variables: c.variables }),
        what: "block-input",
      },
      agent,
    );
    let body: Answer = {};
    try {
      body = JSON.parse(res.body) as Answer;
    } catch {
      body = { errors: [{ message: `not JSON (${res.status}): ${res.body.slice(0, 100)}` }] };
    }
    return { ms: res.ms, status: res.status, body };
  };
  const headAnswer = await ask({ query: "{ _meta { block { number } } }" });
  const head = (headAnswer.body.data!._meta as { block: { number: number } }).block.number;
  // A full budget to start from, whatever the tests before asked.
  await new Promise((r) => setTimeout(r, (DOCUMENTED_BOUND.burst / DOCUMENTED_BOUND.perSecond) * 1000 + 500));

  const lines: string[] = [];
  const problems: string[] = [];
  let slowest = 0;
  let refused = 0;
  const callsAtStart = blockCalls().length;
  const started = performance.now();

  const stage = async (name: string, cases: Case[], concurrency = 1) => {
    const callsBefore = blockCalls().length;
    const ms: number[] = [];
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const c = cases[next++]!;
        const answer = await ask(c);
        ms.push(answer.ms);
        const message = answer.body.errors?.[0]?.message;
        if (message && /is refused for now/.test(message)) refused++;
        const problem =
          answer.status !== 200
            ? `HTTP ${answer.status}`
            : typeof c.expect === "function"
              ? c.expect(answer.body)
              : message === undefined
                ? "no error"
                : c.expect.test(message)
                  ? undefined
                  : `"${message.slice(0, 160)}" does not match ${c.expect}`;
        if (problem) problems.push(`${name}: ${c.query.slice(0, 100)}: ${problem}`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    ms.sort((a, b) => a - b);
    slowest = Math.max(slowest, ms.at(-1) ?? 0);
    const calls = blockCalls().length - callsBefore;
    lines.push(
      `${name}: ${cases.length} requests, p50 ${ms[Math.floor(ms.length / 2)]!.toFixed(0)} ms, max ${ms.at(-1)!.toFixed(0)} ms, ${calls} RPC calls`,
    );
    return calls;
  };

  const hex = (bytes: number, digits = bytes * 2) => `0x${"ab".repeat(bytes + 1).slice(0, digits)}`;
  const malformed = ["0x", "0x123", hex(31), hex(33), hex(33, 65)];
  const notAHash = /^Failed to decode `block\.hash` value: `".*" is not a block hash: a block hash is 32 bytes/;
  const malformedCalls = await stage(
    "malformed hashes (0x, 0x123, 31 and 33 bytes, 65 hex digits) on domains and _meta",
    malformed.flatMap((hash) => [
      { query: `{ domains(block: { hash: "${hash}" }) { id } }`, expect: notAHash },
      {
        query: `query($h: Bytes) { _meta(block: { hash: $h }) { deployment } }`,
        variables: { h: hash },
        expect: notAHash,
      },
    ]),
  );
  if (malformedCalls > 0) problems.push(`malformed hashes reached the RPC: ${malformedCalls} calls`);

  const notYet = (n: number) =>
    new RegExp(
      `has only indexed up to block number ${head} and data for block number ${n} is therefore not yet available`,
    );
  await stage("numbers out of range (past the head, negative, over 32 bits, _change_block)", [
    { query: `{ domains(block: { number: ${head + 1} }) { id } }`, expect: notYet(head + 1) },
    { query: `{ _meta(block: { number_gte: ${head + 1_000_000} }) { deployment } }`, expect: notYet(head + 1_000_000) },
    {
      query: `{ domains(block: { number: -1 }) { id } }`,
      expect: /^Failed to decode `block\.number` value: `-1 is not/,
    },
    { query: `{ domains(block: { number: 2147483648 }) { id } }`, expect: /Int cannot represent non 32-bit/ },
    {
      query: `{ domains(where: { _change_block: { number_gte: -7 } }) { id } }`,
      expect: /^Failed to decode `_change_block\.number_gte` value: `-7 is not a block number/,
    },
  ]);

  // As many blocks as a query may name (its aliases): every one answered when the budget is full.
  const numbers = [...new Set(Array.from({ length: 30 }, (_, i) => 1 + Math.floor((i * (head - 1)) / 30)))];
  await stage(`${numbers.length} past blocks in one query`, [
    {
      query: `{ ${numbers.map((n, i) => `b${i}: _meta(block: { number: ${n} }) { block { number hash } }`).join(" ")} }`,
      expect: (body) => {
        if (body.errors) return `errors: ${body.errors[0]!.message.slice(0, 160)}`;
        const wrong = numbers.filter((n, i) => {
          const block = (body.data?.[`b${i}`] as { block: { number: number; hash: string | null } } | undefined)?.block;
          return block?.number !== n || !/^0x[0-9a-f]{64}$/.test(block.hash ?? "");
        });
        return wrong.length ? `blocks ${wrong.join(", ")} not answered with their hash` : undefined;
      },
    },
  ]);

  const random = seededRandom(68);
  const unknownHash = () =>
    `0x${Array.from({ length: 32 }, () =>
      Math.floor(random() * 256)
        .toString(16)
        .padStart(2, "0"),
    ).join("")}`;
  const notFound = /^Failed to decode `block\.hash` value: `no block with that hash found`$/;
  const repeated = unknownHash();
  const repeatedCalls = await stage(
    "one unknown hash, 20 times",
    Array.from({ length: 20 }, () => ({
      query: `{ domains(block: { hash: "${repeated}" }) { id } }`,
      expect: notFound,
    })),
  );
  if (repeatedCalls > 1) problems.push(`one unknown hash asked ${repeatedCalls} times, not once`);

  const flood = Array.from({ length: FLOOD }, () => ({
    query: `{ domains(block: { hash: "${unknownHash()}" }) { id } }`,
    expect:
      /^Failed to decode `block\.hash` value: `no block with that hash found`$|^Looking up the block 0x[0-9a-f]{64} is refused for now: .*at most 5 blocks a second/,
  }));
  await stage(`a flood of ${FLOOD} unknown hashes, ${FLOOD_CONCURRENCY} at a time`, flood, FLOOD_CONCURRENCY);

  const seconds = (performance.now() - started) / 1000;
  const rpcCalls = blockCalls().length - callsAtStart;
  const bound = DOCUMENTED_BOUND.burst + DOCUMENTED_BOUND.perSecond * Math.ceil(seconds);
  lines.push(
    `RPC calls for blocks: ${rpcCalls} in ${seconds.toFixed(1)} s (documented bound ${DOCUMENTED_BOUND.burst} + ${DOCUMENTED_BOUND.perSecond}/s = ${bound}); flood requests refused by the budget: ${refused}; slowest answer ${slowest.toFixed(0)} ms`,
  );
  return { lines, problems, slowest, rpcCalls, bound, refused };
}
