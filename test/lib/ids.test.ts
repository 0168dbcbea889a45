import { describe, expect, it } from "vitest";
import { accountId, domainId, eventId, registrationId, resolverId } from "../../src/lib/ids";
import { labelhashOf } from "../../src/lib/labels";
import { namehash } from "../../src/lib/names";

const mainnet = { ensRootChainId: 1 };
const noRootChain = { ensRootChainId: undefined };
const node = namehash("vitalik.eth");
const address = "0x2AAEcbF301B736859333BE66942CB6dbD3E9CAFe" as const;
const lower = "0x2aaecbf301b736859333be66942cb6dbd3e9cafe";

describe("ids", () => {
  it("domain ids are lowercase namehashes, account ids lowercase addresses", () => {
    expect(domainId(node.toUpperCase().replace("0X", "0x") as `0x${string}`)).toBe(node);
    expect(accountId(address)).toBe(lower);
  });

  it("resolver ids: `<address>-<node>` on the ENS root chain, `-<chainId>` appended on other chains", () => {
    expect(resolverId(mainnet, 1, address, node)).toBe(`${lower}-${node}`);
    expect(resolverId(mainnet, 8453, address, node)).toBe(`${lower}-${node}-8453`);
    expect(resolverId(noRootChain, 1, address, node)).toBe(`${lower}-${node}-1`);
  });

  it("resolver ids parse as the subgraph's clients parse them: the address first, the node second", () => {
    // ensjs getNameHistory: `resolver.id.split('-')[0]`; getSubgraphRecords builds `${address.toLowerCase()}-${node}`.
    for (const chainId of [1, 8453, 59144]) {
      const [first, second] = resolverId(mainnet, chainId, address, node).split("-");
      expect(first).toBe(lower);
      expect(second).toBe(node);
    }
    expect(resolverId(mainnet, 1, address, node)).toBe(`${address.toLowerCase()}-${node}`);
  });

  it("event ids: `<block>-<logIndex>` (and `-<i>` for batch transfers) on the root chain, `-<chainId>` appended elsewhere", () => {
    expect(eventId(mainnet, 1, 123n, 456)).toBe("123-456");
    expect(eventId(mainnet, 1, 123n, 456, 0)).toBe("123-456-0");
    expect(eventId(mainnet, 59144, 123n, 456)).toBe("123-456-59144");
    expect(eventId(mainnet, 8453, 7, 0, 2)).toBe("7-0-2-8453");
    expect(eventId(noRootChain, 1, 7, 0)).toBe("7-0-1");
  });

  it("event ids of different chains never collide within one event table", () => {
    // Same block and log index on three chains, with and without a batch position (WrappedTransfer rows always
    // have one, other event rows never do).
    const chains = [1, 8453, 59144, 10];
    const plain = chains.map((c) => eventId(mainnet, c, 5n, 3));
    const batch = chains.flatMap((c) => [0, 1, 8453].map((i) => eventId(mainnet, c, 5n, 3, i)));
    expect(new Set(plain).size).toBe(plain.length);
    expect(new Set(batch).size).toBe(batch.length);
    // The block number still comes first.
    for (const id of [...plain, ...batch]) expect(id.split("-")[0]).toBe("5");
  });

  it("registration ids: the labelhash for .eth on the root chain, the node elsewhere", () => {
    const lh = labelhashOf("vitalik");
    expect(registrationId(lh, node, true)).toBe(lh);
    const lineaNode = namehash("vitalik.linea.eth");
    expect(registrationId(lh, lineaNode, false)).toBe(lineaNode);
  });
});
