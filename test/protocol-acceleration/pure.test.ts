import { type Address, type Hex, keccak256, namehash, stringToBytes, zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { interpretAddress, interpretText } from "../../src/api/shared/resolution/interpret";
import { ancestorsOf, nearestResolver, routeName } from "../../src/api/shared/resolution/routing";
import { coinTypeForChain, DEFAULT_EVM_COIN_TYPE, isEvmCoinType } from "../../src/lib/coin-types";
import { dnsEncode } from "../../src/lib/dns-wire";
import { ROOT_NODE } from "../../src/lib/names";
import { effectiveResolver, recordExistsAfterOwnerWrite } from "../../src/lib/registry-fallback";
import { recordKeyId, registryNodeId, resolverRecordsId, reverseNameId } from "../../src/lib/resolution-ids";
import { ADDR_REVERSE_NODE, legacyReverseNode, reversedAddress, reverseLabel } from "../../src/lib/reverse-nodes";
import { mainnetNamespace } from "../../src/namespaces/mainnet";

const A = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" as Address;
const B = "0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc" as Address;
const R1 = "0x1111111111111111111111111111111111111111" as Address;
const R2 = "0x2222222222222222222222222222222222222222" as Address;

describe("coin types (ENSIP-9, ENSIP-11)", () => {
  it("maps chains to coin types", () => {
    expect(coinTypeForChain(1, 1)).toBe(60n);
    expect(coinTypeForChain(31337, 31337)).toBe(60n); // the devnet's ENS root chain stands for mainnet
    expect(coinTypeForChain(8453, 1)).toBe(2147492101n);
    expect(coinTypeForChain(59144, 1)).toBe(2147542792n);
    expect(coinTypeForChain(10, 1)).toBe(2147483658n);
    expect(DEFAULT_EVM_COIN_TYPE).toBe(2147483648n);
  });
  it("knows which coin types hold EVM addresses", () => {
    expect([60n, 2147483648n, 2147492101n].map(isEvmCoinType)).toEqual([true, true, true]);
    expect([0n, 2n, 501n, 2n ** 32n].map(isEvmCoinType)).toEqual([false, false, false, false]);
  });
});

describe("legacy reverse nodes (ENSIP-3)", () => {
  it("computes <hex>.addr.reverse from the address", () => {
    expect(reverseLabel(A)).toBe("70997970c51812dc3a010c7d01b50e0d17dc79c8");
    expect(ADDR_REVERSE_NODE).toBe(namehash("addr.reverse"));
    expect(legacyReverseNode(A)).toBe(namehash("70997970c51812dc3a010c7d01b50e0d17dc79c8.addr.reverse"));
  });
  it("finds which candidate a new addr.reverse subnode reverses by its labelhash", () => {
    const label = keccak256(stringToBytes(reverseLabel(A)));
    expect(reversedAddress(label, [B, A])).toBe(A.toLowerCase());
    expect(reversedAddress(label, [B])).toBeUndefined();
  });
});

describe("ids", () => {
  it("are lowercase and put free-form keys last", () => {
    expect(registryNodeId(1, R1, "0xAB" as Hex)).toBe(`1-${R1}-0xab`);
    const records = resolverRecordsId(8453, A, "0x01" as Hex);
    expect(records).toBe(`8453-${A.toLowerCase()}-0x01`);
    expect(recordKeyId(records, 2n, "com.twitter-x")).toBe(`${records}-2-com.twitter-x`);
    expect(reverseNameId(A, 2147483648n)).toBe(`${A.toLowerCase()}-2147483648`);
  });
});

describe("routing", () => {
  it("sends names under base.eth and linea.eth to their L2 registries, the managed names themselves to the root", () => {
    expect(routeName("jesse.base.eth", mainnetNamespace).registry).toEqual({
      chainId: 8453,
      registry: "0xb94704422c2a1e396835a571837aa5ae53285a95",
    });
    expect(routeName("a.b.linea.eth", mainnetNamespace).registry?.chainId).toBe(59144);
    const root = routeName("base.eth", mainnetNamespace);
    expect(root.registry).toEqual({
      chainId: 1,
      registry: "0x00000000000c2e074ec69a0dfb2997ba6c7d2e1e",
      oldRegistry: "0x314159265dd8dbb310642f98f50c066173c1259b",
    });
  });
  it("tries 3DNS first for names outside .eth and .reverse (registrations and their subnames), exact node only", () => {
    for (const name of ["example.xyz", "a.example.xyz", "b.a.example.box"]) {
      expect(
        routeName(name, mainnetNamespace).threedns.map((s) => [s.chainId, s.exactOnly]),
        name,
      ).toEqual([
        [10, true],
        [8453, true],
      ]);
    }
    expect(routeName("xyz", mainnetNamespace).threedns).toEqual([]);
    expect(routeName("vitalik.eth", mainnetNamespace).threedns).toEqual([]);
    expect(routeName("x.base.eth", mainnetNamespace).threedns).toEqual([]);
    expect(routeName("abc.addr.reverse", mainnetNamespace).threedns).toEqual([]);
  });
  it("walks from the name up to its TLD (ENSIP-10), nearest first", () => {
    expect(ancestorsOf("a.b.eth")).toEqual([
      { name: "a.b.eth", node: namehash("a.b.eth") },
      { name: "b.eth", node: namehash("b.eth") },
      { name: "eth", node: namehash("eth") },
    ]);
  });
  it("picks the nearest resolver", () => {
    expect(nearestResolver([{ resolver: null }, { resolver: R1 }, { resolver: R2 }])).toEqual({
      resolver: R1,
      index: 1,
    });
    expect(nearestResolver([{ resolver: R2 }])).toEqual({ resolver: R2, index: 0 });
    expect(nearestResolver([{ resolver: null }])).toBeUndefined();
  });
  it("applies the registry with fallback's rule: its own record once it exists, else the old registry's", () => {
    const node = namehash("alice.eth");
    const own = (resolver: Address | null) => ({ resolver, recordExists: true });
    expect(effectiveResolver(node, own(R1), own(R2), true)).toBe(R1);
    expect(effectiveResolver(node, own(null), own(R2), true)).toBeNull();
    expect(effectiveResolver(node, undefined, own(R2), true)).toBe(R2);
    // Burned in the registry with fallback (owner 0x0): it stored itself as the owner, so its record still answers.
    expect(recordExistsAfterOwnerWrite(zeroAddress, true)).toBe(true);
    expect(effectiveResolver(node, own(R1), own(R2), true)).toBe(R1);
    expect(effectiveResolver(node, own(null), own(R2), true)).toBeNull();
    // A registry without fallback stores the zero owner: its record is gone, and it has nothing to defer to.
    expect(recordExistsAfterOwnerWrite(zeroAddress, false)).toBe(false);
    expect(effectiveResolver(node, { resolver: R1, recordExists: false }, undefined, false)).toBe(R1);
    // The root's record exists from the registry's constructor, before any event.
    expect(effectiveResolver(ROOT_NODE, undefined, own(R2), true)).toBeNull();
  });
});

describe("record interpretation", () => {
  it("treats unset reads as null", () => {
    expect(interpretAddress(60n, "0x")).toBeNull();
    expect(interpretAddress(60n, "0x0000000000000000000000000000000000000000")).toBeNull();
    expect(interpretAddress(2147492101n, "0x0000000000000000000000000000000000000000")).toBeNull();
    expect(interpretAddress(60n, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8")).toBe(A.toLowerCase());
    // Non-EVM coin types keep their bytes, even all-zero ones.
    expect(interpretAddress(0n, "0x0014AB")).toBe("0x0014ab");
    expect(interpretText("")).toBeNull();
    expect(interpretText("x")).toBe("x");
  });
  it("DNS-encodes names for ENSIP-10 resolve()", () => {
    expect(dnsEncode("a.eth")).toBe("0x016103657468" + "00");
  });
});
