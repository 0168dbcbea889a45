import type { SQL } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { type LoopbackServer, startLoopbackServer } from "../../harness/loopback-server";
import { executeSubgraphRequest } from "../../src/api/subgraph";
import { blockBudget, rpcChainBlocks } from "../../src/api/subgraph/chain-blocks";

/*
 * `block:` and `_change_block` inputs no block can have are refused before any work (no statement, no read of the
 * head), with an error naming the argument and the problem; the chain is asked within a budget, once per lookup,
 * within a timeout (src/api/subgraph/block-input.ts, chain-blocks.ts; docs/api.md, "/subgraph at a past block").
 */

const HEAD = { number: 100, timestamp: 1_700_000_000, hash: `0x${"aa".repeat(32)}` };

/** /subgraph over a database and a head that count what the request did. */
function endpoint() {
  const work = { statements: 0, heads: 0 };
  const options = {
    db: {
      async execute(_query: SQL) {
        work.statements++;
        return [];
      },
    },
    getMeta: async () => {
      work.heads++;
      return { block: HEAD, deployment: "nameindex-test", hasIndexingErrors: false };
    },
  };
  const ask = async (query: string, variables?: Record<string, unknown>) => {
    const started = performance.now();
    const r = await executeSubgraphRequest({ query, variables }, options);
    return { ...r, ms: performance.now() - started };
  };
  return { work, ask };
}

const hex = (digits: number) => `0x${"ab".repeat(Math.ceil(digits / 2)).slice(0, digits)}`;

describe("block: and _change_block inputs", () => {
  const malformed: [string, string, RegExp][] = [
    ["0x", `{ hash: "0x" }`, /`block\.hash` value: `"0x" is not a block hash: .*32 bytes.*\(this is 0 bytes\)`/],
    ["0x123", `{ hash: "0x123" }`, /`"0x123" is not a block hash.*\(this is 1\.5 bytes\)/],
    ["31 bytes", `{ hash: "${hex(62)}" }`, /is not a block hash.*\(this is 31 bytes\)/],
    ["33 bytes", `{ hash: "${hex(66)}" }`, /is not a block hash.*\(this is 33 bytes\)/],
    ["65 hex digits", `{ hash: "${hex(65)}" }`, /is not a block hash.*\(this is 32\.5 bytes\)/],
    ["a negative number", `{ number: -1 }`, /`block\.number` value: `-1 is not a block number/],
  ];

  it("refuses a malformed block at once, on every root field and _meta, before reading anything", async () => {
    const { work, ask } = endpoint();
    for (const [what, block, message] of malformed) {
      for (const query of [
        `{ domains(block: ${block}) { id } }`,
        `{ domain(id: "x", block: ${block}) { id } }`,
        `{ _meta(block: ${block}) { block { number } } }`,
      ]) {
        const r = await ask(query);
        expect(r.status, what).toBe(200);
        expect(r.body.data, what).toBeUndefined();
        const error = r.body.errors?.[0]?.message;
        expect(error, query).toMatch(/^Failed to decode `block\.(hash|number)` value: `/);
        expect(error, query).toMatch(message);
        expect(r.ms, what).toBeLessThan(1_000);
      }
    }
    expect(work).toEqual({ statements: 0, heads: 0 });
  });

  it("refuses them given as variables, and a negative _change_block at any depth of a filter", async () => {
    const { work, ask } = endpoint();
    const byVariable = await ask(`query($b: Block_height) { domains(block: $b) { id } }`, { b: { hash: "0x" } });
    expect(byVariable.body.errors?.[0]?.message).toMatch(/^Failed to decode `block\.hash` value: `"0x" is not/);
    const hashVariable = await ask(`query($h: Bytes) { _meta(block: { hash: $h }) { deployment } }`, { h: "0x12" });
    expect(hashVariable.body.errors?.[0]?.message).toMatch(/`"0x12" is not a block hash/);
    const nested = await ask(`query($w: Domain_filter) { domains { subdomains(where: $w) { id } } }`, {
      w: { or: [{ name: "a" }, { _change_block: { number_gte: -5 } }] },
    });
    expect(nested.body.errors?.[0]?.message).toBe(
      "Failed to decode `_change_block.number_gte` value: `-5 is not a block number: a block number is a whole number, 0 or more`",
    );
    expect(work).toEqual({ statements: 0, heads: 0 });
  });

  it("shows a long hash cut short", async () => {
    const { ask } = endpoint();
    const r = await ask(`{ domains(block: { hash: "${hex(20_000)}" }) { id } }`);
    const message = r.body.errors?.[0]?.message ?? "";
    expect(message).toMatch(/… \(20002 characters\) is not a block hash/);
    expect(message.length).toBeLessThan(300);
  });

  it("takes a well-formed hash in any case, with or without 0x, to the head's check", async () => {
    const { ask } = endpoint();
    for (const hash of [HEAD.hash, HEAD.hash.toUpperCase().replace("0X", "0x"), HEAD.hash.slice(2)]) {
      const r = await ask(`{ _meta(block: { hash: "${hash}" }) { block { number } } }`);
      expect(r.body.errors, hash).toBeUndefined();
      expect(r.body.data).toEqual({ _meta: { block: { number: HEAD.number } } });
    }
  });
});

describe("the chain's blocks, asked within bounds", () => {
  it("spends a burst, then a few a second, and refuses the rest naming the bound", () => {
    let now = 0;
    const budget = blockBudget({ perSecond: 5, burst: 30 }, () => now);
    const query = { hash: `0x${"cd".repeat(32)}` };
    for (let i = 0; i < 30; i++) budget.spend(query);
    expect(() => budget.spend(query)).toThrow(
      /^Looking up the block 0xcdcd\S+ is refused for now: this endpoint looks up at most 5 blocks a second .*\(after a burst of 30\)/,
    );
    now = 1_000;
    for (let i = 0; i < 5; i++) budget.spend(query);
    expect(() => budget.spend({ number: 7 })).toThrow(/^Looking up block number 7 is refused for now/);
  });

  const servers: LoopbackServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  /** An RPC endpoint that counts requests and answers each with `answer` (undefined: never). */
  async function rpc(answer: (method: string) => unknown) {
    const seen: string[] = [];
    const server = await startLoopbackServer(async (_req, res, body) => {
      const { id, method } = JSON.parse(body.toString()) as { id: number; method: string };
      seen.push(method);
      const reply = answer(method);
      if (reply === undefined) return; // hangs: the client's timeout ends it
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id, ...(reply as object) }));
    });
    servers.push(server);
    return { url: server.url, seen };
  }

  it("reads a block, and 'none' as null", async () => {
    const block = {
      number: "0x2a",
      hash: `0x${"11".repeat(32)}`,
      parentHash: `0x${"22".repeat(32)}`,
      timestamp: "0x64",
    };
    const known = await rpc(() => ({ result: block }));
    expect(await rpcChainBlocks(known.url).block({ number: 42 })).toEqual({
      number: 42,
      hash: block.hash,
      parentHash: block.parentHash,
      timestamp: 100,
    });
    const unknown = await rpc(() => ({ result: null }));
    expect(await rpcChainBlocks(unknown.url).block({ hash: block.hash })).toBeNull();
    expect(unknown.seen).toEqual(["eth_getBlockByHash"]);
  });

  it("asks once, without retrying an error, and gives up at its timeout", async () => {
    const failing = await rpc(() => ({ error: { code: -32000, message: "header not found" } }));
    await expect(rpcChainBlocks(failing.url).block({ number: 1 })).rejects.toThrow(
      /^The chain's RPC failed to look up block number 1; try again later$/,
    );
    expect(failing.seen).toEqual(["eth_getBlockByNumber"]);

    const silent = await rpc(() => undefined);
    const started = performance.now();
    await expect(rpcChainBlocks(silent.url, 500).block({ number: 2 })).rejects.toThrow(
      /^The chain's RPC did not answer for block number 2 within 0\.5 s/,
    );
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(silent.seen).toEqual(["eth_getBlockByNumber"]);
  });
});
