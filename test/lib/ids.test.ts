import { describe, expect, it } from "vitest";
import { accountId, domainId, eventId, registrationId, resolverId } from "../../src/lib/ids";
import { labelhashOf } from "../../src/lib/labels";
import { namehash } from "../../src/lib/names";

const compat = { isSubgraphCompatible: true };
const interpreted = { isSubgraphCompatible: false };
const node = namehash("vitalik.eth");
const address = "0x2AAEcbF301B736859333BE66942CB6dbD3E9CAFe" as const;

describe("ids", () => {
  it("domain ids are lowercase namehashes, account ids lowercase addresses", () => {
    expect(domainId(node.toUpperCase().replace("0X", "0x") as `0x${string}`)).toBe(node);
    expect(accountId(address)).toBe("0x2aaecbf301b736859333be66942cb6dbd3e9cafe");
  });

  it("resolver ids: `<address>-<node>` in compatible mode, chain-prefixed otherwise", () => {
    expect(resolverId(compat, 1, address, node)).toBe(`0x2aaecbf301b736859333be66942cb6dbd3e9cafe-${node}`);
    expect(resolverId(interpreted, 8453, address, node)).toBe(`8453-0x2aaecbf301b736859333be66942cb6dbd3e9cafe-${node}`);
  });

  it("event ids: `<block>-<logIndex>` (and `-<i>` for batch transfers), chain-prefixed otherwise", () => {
    expect(eventId(compat, 1, 123n, 456)).toBe("123-456");
    expect(eventId(compat, 1, 123n, 456, 0)).toBe("123-456-0");
    expect(eventId(interpreted, 59144, 123n, 456)).toBe("59144-123-456");
    expect(eventId(interpreted, 1, 7, 0, 2)).toBe("1-7-0-2");
  });

  it("registration ids: the labelhash for .eth on the root chain, the node elsewhere", () => {
    const lh = labelhashOf("vitalik");
    expect(registrationId(lh, node, true)).toBe(lh);
    const lineaNode = namehash("vitalik.linea.eth");
    expect(registrationId(lh, lineaNode, false)).toBe(lineaNode);
  });
});
