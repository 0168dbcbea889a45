import { createPublicClient, type Hex, http } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AnvilChain, startAnvil } from "../src/anvil";
import { Chain } from "../src/chain";

// Init code whose runtime code emits LOG1(topic 0xaa) with no data on every call: PUSH1 0xaa PUSH1 0 PUSH1 0 LOG1 STOP.
const EMITTER_INIT: Hex = "0x6760aa60006000a10060005260086018f3";
// Init code that reverts: PUSH1 0 PUSH1 0 REVERT.
const REVERTING_INIT: Hex = "0x60006000fd";
const TOPIC = `0x${"aa".padStart(64, "0")}` as Hex;

let anvil: AnvilChain;
let chain: Chain;

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 31390, pruneHistory: true, txsPerBlock: 10 });
  chain = await Chain.connect(31390, anvil.rpcUrl, 10);
  await chain.syncNonces();
});

afterAll(async () => {
  await anvil?.stop();
});

describe("Chain.send reads each block's outcome from its traces and logs", () => {
  it("returns what eth_getTransactionReceipt says: status, block, created address, logs", async () => {
    const [deployed] = await chain.send([{ from: chain.deployer, data: EMITTER_INIT, note: "deploy emitter" }]);
    const emitter = deployed!.contractAddress!;
    const calls = Array.from({ length: 25 }, (_, i) => ({
      from: chain.accounts[i % 5]!,
      to: emitter,
      data: "0x" as Hex,
      note: `call ${i}`,
    }));
    const receipts = await chain.send(calls);
    expect(receipts).toHaveLength(25);

    const pub = createPublicClient({ transport: http(anvil.rpcUrl) });
    const truth = await pub.getTransactionReceipt({ hash: deployed!.transactionHash });
    expect(emitter).toBe(truth.contractAddress);
    expect(Number(deployed!.blockNumber)).toBe(Number(truth.blockNumber));
    for (const r of receipts) {
      const t = await pub.getTransactionReceipt({ hash: r.transactionHash });
      expect(t.status).toBe("success");
      expect(Number(r.blockNumber)).toBe(Number(t.blockNumber));
      expect(r.contractAddress).toBeNull();
      expect(r.logs.map((l) => [l.address.toLowerCase(), l.topics, Number(l.logIndex)])).toEqual(
        t.logs.map((l) => [l.address.toLowerCase(), l.topics, l.logIndex]),
      );
    }
    // 25 transactions at 10 per block: three blocks.
    expect(new Set(receipts.map((r) => r.blockNumber)).size).toBe(3);
    expect(chain.logTally.get(`${emitter.toLowerCase()}|${TOPIC}`)).toBe(25);
  });

  it("fails, naming the transaction, when one of a block's transactions reverts", async () => {
    const ok = { from: chain.accounts[1]!, to: chain.accounts[2]!, data: "0x" as Hex, value: 1n, note: "a transfer" };
    const bad = { from: chain.accounts[3]!, data: REVERTING_INIT, note: "the reverting deploy" };
    await expect(chain.send([ok, bad])).rejects.toThrow(/"the reverting deploy" reverted/);
  });
});
