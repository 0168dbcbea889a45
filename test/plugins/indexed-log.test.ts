import type { Address, Hex } from "viem";
import { beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("ponder:schema", async () => await import("../../ponder.schema"));

import type { LogEvent } from "../../src/plugins/shared/indexed-log";
import { FakeStore } from "../lib/fake-store";

/*
 * The writer of `indexed_log` as Ponder drives it: one log object handed to several plugins' handlers, one block
 * proxy for every event, chains interleaved, a failed batch re-run with the same objects after its rows were rolled
 * back, a log a handler fetched itself. The table is insert-only (no read before an insert, on PGlite either), so a key
 * written twice is a unique-key error at Ponder's flush (FakeStore throws it at once); a key never written is an
 * event the Omnigraph cannot answer.
 */

const EMITTER: Address = "0x00000000000000000000000000000000000000e1";
const SENDER: Address = "0x00000000000000000000000000000000000000a1";
const PLUGINS = ["subgraph/Resolver:AddrChanged", "protocol-acceleration/Resolver:AddrChanged"];

type Writer = typeof import("../../src/plugins/shared/indexed-log");
let writer: Writer;
let store: FakeStore;

beforeEach(async () => {
  store = new FakeStore();
  vi.resetModules();
  writer = await import("../../src/plugins/shared/indexed-log");
});

const blockOf = (number: bigint) => ({
  number,
  timestamp: 1_000n + number,
  hash: `0x${number.toString(16).padStart(64, "0")}` as Hex,
});

const eventOf = (number: bigint, logIndex: number): LogEvent => ({
  block: blockOf(number),
  log: { address: EMITTER, logIndex, topics: [`0x${"01".repeat(32)}`, `0x${"02".repeat(32)}`, null, null], data: "0x" },
  transaction: { hash: `0x${"ab".repeat(32)}`, transactionIndex: 0, from: SENDER, to: EMITTER },
});

/** Ponder 0.17 hands every event one block proxy, pointed at the event's block (indexing/index.ts, createEventProxy). */
const blockProxy = {} as LogEvent["block"];

/** Each plugin indexing the log's contract runs its handler on the same event, one after another. */
async function handle(chainId: number, event: LogEvent) {
  Object.assign(blockProxy, event.block);
  const handed = { ...event, block: blockProxy };
  for (const handler of PLUGINS)
    await writer.recordLog(handler as never, { db: store.db, chain: { id: chainId } } as never, handed as never);
}

const rows = () => [...(store.tables.get("indexed_log")?.values() ?? [])];
const places = () => rows().map((r) => `${r.chainId}-${r.blockNumber}-${r.logIndex}`);

describe("indexed_log's writer", () => {
  it("writes each log once, whichever plugins handle it, with chains interleaved", async () => {
    await handle(1, eventOf(10n, 0));
    await handle(2, eventOf(7n, 1));
    await handle(1, eventOf(10n, 3));
    expect(places()).toEqual(["1-10-0", "2-7-1", "1-10-3"]);
    expect(rows()[0]).toMatchObject({
      blockHash: blockOf(10n).hash,
      blockTimestamp: 1_010n,
      transactionFrom: SENDER,
      address: EMITTER,
      topics: `0x${"01".repeat(32)}${"02".repeat(32)}`,
      data: "0x",
    });
  });

  it("writes the rows again when Ponder re-runs a failed batch with the same objects", async () => {
    const events = [eventOf(20n, 0), eventOf(20n, 1), eventOf(21n, 0)];
    for (const e of events) await handle(1, e);
    // The batch failed: its rows were rolled back; Ponder hands out the same log objects again.
    store.tables.clear();
    for (const e of events) await handle(1, e);
    expect(places()).toEqual(["1-20-0", "1-20-1", "1-21-0"]);
  });

  it("keeps a fetched log's row once, whether Ponder delivered it too or not", async () => {
    const delivered = eventOf(30n, 0);
    await handle(1, delivered);
    const context = { db: store.db, chain: { id: 1 } } as never;
    await writer.recordFetchedLog(context, eventOf(30n, 0), "fetched");
    await writer.recordFetchedLog(context, eventOf(29n, 2), "fetched");
    expect(places()).toEqual(["1-30-0", "1-29-2"]);
  });
});
