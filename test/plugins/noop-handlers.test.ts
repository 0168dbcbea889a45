import type { Address, Hex } from "viem";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fullDevnet, writeManifest } from "../config/fixtures";
import { FakeStore } from "../lib/fake-store";

/*
 * The benchmark's switches on every handler (NAMEINDEX_NOOP_HANDLERS): `true` registers each as a no-op (Ponder's
 * floor), `log` as one that writes only its log's `indexed_log` row (the write floor). Either way the plugin's own
 * logic never runs, or the floor would measure our code.
 */

type Registered = (args: { event: unknown; context: unknown }) => Promise<void>;
const registered = vi.hoisted(() => new Map<string, Registered>());
vi.mock("ponder:registry", () => ({
  ponder: {
    on(name: string, fn: Registered) {
      registered.set(name, fn);
    },
  },
}));
vi.mock("ponder:schema", async () => await import("../../ponder.schema"));

const EMITTER: Address = "0x00000000000000000000000000000000000000e1";
const NAME = "subgraph/Registry:NewOwner";
const event = {
  block: { number: 10n, timestamp: 1_010n, hash: `0x${"0a".repeat(32)}` as Hex },
  log: { address: EMITTER, logIndex: 3, topics: [`0x${"01".repeat(32)}`], data: "0x" },
  transaction: { hash: `0x${"ab".repeat(32)}`, transactionIndex: 0, from: EMITTER, to: EMITTER },
};

async function runHandlerWith(noopHandlers: string) {
  vi.stubEnv("NAMESPACE", "devnet");
  vi.stubEnv("DEVNET_MANIFEST", writeManifest(fullDevnet));
  vi.stubEnv("NAMEINDEX_NOOP_HANDLERS", noopHandlers);
  const { on } = await import("../../src/plugins/shared/register");
  const store = new FakeStore();
  const rowsWhenLogicRan: number[] = [];
  const logic = vi.fn(async () => {
    rowsWhenLogicRan.push(store.tables.get("indexed_log")?.size ?? 0);
  });
  on(NAME, logic);
  await registered.get(NAME)!({ event, context: { db: store.db, chain: { id: 31337 } } });
  return {
    logic,
    rowsWhenLogicRan,
    tables: Object.fromEntries([...store.tables].map(([name, rows]) => [name, rows.size])),
  };
}

describe("NAMEINDEX_NOOP_HANDLERS", () => {
  beforeEach(() => {
    vi.resetModules();
    registered.clear();
  });
  afterEach(() => vi.unstubAllEnvs());

  it("true: the handler writes nothing and runs none of the plugin's logic", async () => {
    const { logic, tables } = await runHandlerWith("true");
    expect(logic).not.toHaveBeenCalled();
    expect(tables).toEqual({});
  });

  it("log: the handler writes its log's indexed_log row and nothing else", async () => {
    const { logic, tables } = await runHandlerWith("log");
    expect(logic).not.toHaveBeenCalled();
    expect(tables).toEqual({ indexed_log: 1 });
  });

  it("false: the plugin's logic runs, after the log's row is written", async () => {
    vi.stubEnv("SUBGRAPH_HISTORY_BLOCKS", "none");
    const { logic, rowsWhenLogicRan, tables } = await runHandlerWith("false");
    expect(logic).toHaveBeenCalledTimes(1);
    expect(rowsWhenLogicRan).toEqual([1]);
    expect(tables).toEqual({ indexed_log: 1 });
  });
});
