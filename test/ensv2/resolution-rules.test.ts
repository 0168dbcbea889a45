import { type Address, type Hex, labelhash, namehash, toHex } from "viem";
import { describe, expect, it } from "vitest";
import {
  AliasUnanswerable,
  chainFromCoinType,
  ensv2LabelsOf,
  literalNamehash,
  type RegistryStep,
  resolveAlias,
  walkEnsv2,
} from "../../src/api/shared/resolution/ensv2";
import { decodeDnsWireName, dnsEncode } from "../../src/lib/dns-wire";

/*
 * ENSv2's resolution rules as src/api/resolution/ensv2.ts writes them down from contracts-v2: LibRegistry's walk,
 * NameCoder's literal label hashing, ENSIP19.chainFromCoinType and PermissionedResolver.getAlias. The devnet test
 * (test/e2e/ensv2-resolution.system.test.ts) holds the same rules against the deployed contracts.
 */

const ROOT = "0x0000000000000000000000000000000000000001" as Address;
const ETH = "0x0000000000000000000000000000000000000002" as Address;
const SUB = "0x0000000000000000000000000000000000000003" as Address;
const R1 = "0x00000000000000000000000000000000000000a1" as Address;
const R2 = "0x00000000000000000000000000000000000000a2" as Address;

/** Registries as maps of label → (resolver, subregistry). */
function tree(entries: Record<string, Record<string, Partial<RegistryStep>>>) {
  const asked: string[] = [];
  const step = async (registry: Address, label: { text: string }): Promise<RegistryStep> => {
    asked.push(`${registry.slice(-2)}:${label.text}`);
    const e = entries[registry]?.[label.text];
    return { resolver: e?.resolver ?? null, subregistry: e?.subregistry ?? null };
  };
  return { asked, step };
}

describe("LibRegistry.findResolver", () => {
  const t = () =>
    tree({
      [ROOT]: { eth: { subregistry: ETH } },
      [ETH]: { alice: { resolver: R1, subregistry: SUB }, bob: { resolver: R2 } },
      [SUB]: { sub: { resolver: R2 }, plain: {} },
    });

  it("finds the deepest resolver on the way down, with its label index", async () => {
    const { step } = t();
    const walk = (name: string) => walkEnsv2(ROOT, ensv2LabelsOf(name).labels, step);
    expect(await walk("alice.eth")).toEqual({ resolver: R1, index: 0 });
    expect(await walk("sub.alice.eth")).toEqual({ resolver: R2, index: 0 });
    // No resolver of its own in the subregistry: the parent's (ENSIP-10), one label up.
    expect(await walk("plain.alice.eth")).toEqual({ resolver: R1, index: 1 });
    expect(await walk("x.y.alice.eth")).toEqual({ resolver: R1, index: 2 });
    expect(await walk("nobody.eth")).toBeUndefined();
    expect(await walk("eth")).toBeUndefined();
    expect(await walk("alice.com")).toBeUndefined();
  });

  it("stops asking where a registry has no subregistry for the label", async () => {
    const { asked, step } = t();
    await walkEnsv2(ROOT, ensv2LabelsOf("a.b.bob.eth").labels, step);
    expect(asked).toEqual(["01:eth", "02:bob"]);
  });

  it("hashes a [labelhash] label as its 66 characters (NameCoder at the pin reads no encoded labelhash)", async () => {
    const { step } = t();
    const encoded = `[${labelhash("alice").slice(2)}]`;
    expect(await walkEnsv2(ROOT, ensv2LabelsOf(`${encoded}.eth`).labels, step)).toBeUndefined();
    const { labels } = ensv2LabelsOf(`${encoded}.eth`);
    expect(labels[0]!.text).toBe(encoded);
    expect(literalNamehash(labels)).not.toBe(namehash(`${encoded}.eth`));
    expect(literalNamehash(ensv2LabelsOf("alice.eth").labels)).toBe(namehash("alice.eth"));
  });
});

describe("ENSIP19.chainFromCoinType", () => {
  it("is 1 for 60, the chain of an ENSIP-11 coin type, and 0 for the default type and other coins", () => {
    expect(chainFromCoinType(60n)).toBe(1n);
    expect(chainFromCoinType(0x80000000n | 8453n)).toBe(8453n);
    expect(chainFromCoinType(0x80000000n)).toBe(0n);
    expect(chainFromCoinType(0n)).toBe(0n);
    expect(chainFromCoinType(2n ** 40n)).toBe(0n);
  });
});

describe("PermissionedResolver.getAlias", () => {
  const node = (name: string) => namehash(name);
  /** Aliases by source name; the lookup answers the nodes asked. */
  const aliases = (map: Record<string, string>) => {
    const byNode = new Map<Hex, Hex>(Object.entries(map).map(([from, to]) => [node(from), dnsEncode(to)]));
    return async (nodes: Hex[]) => new Map(nodes.filter((n) => byNode.has(n)).map((n) => [n, byNode.get(n)!]));
  };
  const decode = (wire: Hex | undefined) =>
    decodeDnsWireName(wire ?? "0x")
      ?.map((l) => l.text)
      .join(".");

  it("has none without an alias", async () => {
    expect(decode(await resolveAlias(dnsEncode("alice.eth"), aliases({})))).toBeUndefined();
  });

  it("rewrites the name, or the longest aliased suffix keeping the labels before it", async () => {
    const lookup = aliases({ "alice.eth": "bob.eth", "team.eth": "org.xyz" });
    expect(decode(await resolveAlias(dnsEncode("alice.eth"), lookup))).toBe("bob.eth");
    expect(decode(await resolveAlias(dnsEncode("a.b.team.eth"), lookup))).toBe("a.b.org.xyz");
  });

  it("follows an alias of an alias, and stops when the same alias matches twice running", async () => {
    expect(decode(await resolveAlias(dnsEncode("a.eth"), aliases({ "a.eth": "b.eth", "b.eth": "c.eth" })))).toBe(
      "c.eth",
    );
    // x.eth → sub.x.eth matches x.eth again (a suffix): the resolver stops there with the first rewrite.
    expect(decode(await resolveAlias(dnsEncode("x.eth"), aliases({ "x.eth": "sub.x.eth" })))).toBe("sub.x.eth");
  });

  it("gives up on a cycle, as the resolver's own loop would run out of gas", async () => {
    await expect(
      resolveAlias(dnsEncode("a.eth"), aliases({ "a.eth": "b.eth", "b.eth": "a.eth" })),
    ).rejects.toBeInstanceOf(AliasUnanswerable);
  });

  it("gives up on a target that is not a DNS-encoded name", async () => {
    const lookup = async (nodes: Hex[]) => new Map(nodes.slice(0, 1).map((n) => [n, toHex("not a name")]));
    await expect(resolveAlias(dnsEncode("a.eth"), lookup)).rejects.toBeInstanceOf(AliasUnanswerable);
  });
});
