import { type Address, type Hex, keccak256, stringToBytes, zeroAddress } from "viem";
import { beforeEach, describe, expect, it, vi } from "vitest";
import * as schema from "../../ponder.schema";
import { FakeStore } from "../lib/fake-store";

// The logic imports Ponder's virtual schema module; here it is the schema file itself.
vi.mock("ponder:schema", () => import("../../ponder.schema"));

const { setHandlerSettings } = await import("../../src/plugins/shared/ens-handlers/context");
const { setEnsv2Anchors } = await import("../../src/plugins/ensv2/lib/context");
const { labelRegisteredOrReserved, subregistryUpdated, tokensTransferred, labelUnregistered } = await import(
  "../../src/plugins/ensv2/lib/lifecycle"
);
const { declareParent } = await import("../../src/plugins/ensv2/lib/canonical");
const { canonicalLink, joinLabel, MAX_TREE_DEPTH } = await import("../../src/plugins/ensv2/lib/tree");
const { domainIdOf, storageIdOf, versionOf, withVersion } = await import("../../src/lib/ensv2-ids");

const ROOT = "0x00000000000000000000000000000000000000aa" as Address;
const ETH = "0x00000000000000000000000000000000000000bb" as Address;
const OWNER = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8" as Address;
const reg = (n: number) => `0x${(0x10000 + n).toString(16).padStart(40, "0")}` as Address;
const labelhash = (l: string) => keccak256(stringToBytes(l));

let store: FakeStore;
let block = 0;
let healed: Record<string, string>;
const context = () => ({ db: store.db as never, chain: { id: 31337 } });
const event = <A>(address: Address, args: A) => {
  block++;
  return {
    args,
    block: { number: BigInt(block), timestamp: BigInt(1_000 + block) },
    log: { logIndex: 0, address },
    transaction: { hash: keccak256(stringToBytes(`tx${block}`)) as Hex, from: OWNER },
  };
};

async function register(registry: Address, label: string, subregistry?: Address, version = 0n) {
  const tokenId = withVersion(BigInt(labelhash(label)), version);
  await labelRegisteredOrReserved(
    context(),
    event(registry, { tokenId, labelHash: labelhash(label), label, owner: OWNER, expiry: 10_000_000n, sender: OWNER }),
  );
  if (subregistry) await link(registry, label, subregistry);
}
const link = (registry: Address, label: string, subregistry: Address) =>
  subregistryUpdated(context(), event(registry, { tokenId: BigInt(labelhash(label)), subregistry }));
const nameOf = (registry: Address, label: string) =>
  store.get(schema.ensv2Domain, domainIdOf(31337, registry, BigInt(labelhash(label))))?.name as
    | string
    | null
    | undefined;
const registryName = (registry: Address) =>
  store.get(schema.ensv2Registry, `31337-${registry}`)?.canonicalName as string | null | undefined;

beforeEach(async () => {
  store = new FakeStore();
  block = 0;
  healed = {};
  setHandlerSettings({
    isSubgraphCompatible: false,
    labelMode: "normalized",
    ensRootChainId: 31337,
    heal: async (h) => healed[h] ?? null,
    noteBlock: () => {},
  });
  setEnsv2Anchors({ rootRegistry: ROOT, ethRegistry: ETH });
  await register(ROOT, "eth", ETH);
});

describe("ensv2 ids and the canonical-link rule", () => {
  it("clears and reads the 32 version bits", () => {
    const id = withVersion(BigInt(labelhash("foo")), 7n);
    expect(versionOf(id)).toBe(7n);
    expect(storageIdOf(id)).toBe(storageIdOf(BigInt(labelhash("foo"))));
  });

  it("prefers the link the registry's ParentUpdated names, else the oldest link", () => {
    const links = [
      { domainId: "a", registry: "0x1", labelhash: "0xaa" },
      { domainId: "b", registry: "0x2", labelhash: "0xbb" },
    ];
    expect(canonicalLink(links, null)?.domainId).toBe("a");
    expect(canonicalLink(links, { registry: "0x2", labelhash: "0xbb" })?.domainId).toBe("b");
    // Declared but not linked from there: the declaration alone does not place the registry.
    expect(canonicalLink(links, { registry: "0x3", labelhash: "0xcc" })?.domainId).toBe("a");
    expect(canonicalLink([], { registry: "0x3", labelhash: "0xcc" })).toBeUndefined();
    expect([joinLabel("eth", ""), joinLabel("foo", "eth"), joinLabel("foo", null)]).toEqual(["eth", "foo.eth", null]);
  });
});

describe("ensv2 canonical names in the store", () => {
  it("names registries and domains from the root as they are linked, three levels deep", async () => {
    await register(ETH, "foo", reg(1));
    await register(reg(1), "sub", reg(2));
    await register(reg(2), "deep");
    expect([registryName(ROOT), registryName(ETH), registryName(reg(1)), registryName(reg(2))]).toEqual([
      "",
      "eth",
      "foo.eth",
      "sub.foo.eth",
    ]);
    expect(nameOf(reg(2), "deep")).toBe("deep.sub.foo.eth");
  });

  it("moves the names below a re-parented registry, and drops them when it is unlinked", async () => {
    await register(ETH, "foo", reg(1));
    await register(reg(1), "sub", reg(2));
    await register(reg(1), "alt");
    await register(reg(2), "deep", reg(3));
    await register(reg(3), "deeper");
    await link(reg(1), "alt", reg(2));
    // Two links: the oldest (sub) stays canonical until the registry names alt as its parent.
    expect(nameOf(reg(3), "deeper")).toBe("deeper.deep.sub.foo.eth");
    await declareParent(context(), reg(2), reg(1), "alt", BigInt(++block));
    expect(nameOf(reg(3), "deeper")).toBe("deeper.deep.alt.foo.eth");
    await link(reg(1), "alt", zeroAddress);
    // The declared link is gone: back to the remaining link.
    expect(nameOf(reg(2), "deep")).toBe("deep.sub.foo.eth");
    await link(reg(1), "sub", zeroAddress);
    expect([registryName(reg(2)), nameOf(reg(2), "deep"), nameOf(reg(3), "deeper")]).toEqual([null, null, null]);
  });

  it("keeps a registry under its oldest link when that link is set again", async () => {
    await register(ETH, "x", reg(1));
    await register(ETH, "y", reg(1));
    await register(reg(1), "sub");
    await link(ETH, "x", reg(1));
    expect(nameOf(reg(1), "sub")).toBe("sub.x.eth");
    await link(ETH, "x", zeroAddress);
    expect(nameOf(reg(1), "sub")).toBe("sub.y.eth");
  });

  it("gives no name to a cycle of registries and ends every walk", async () => {
    await register(reg(1), "a", reg(2));
    await register(reg(2), "b", reg(1));
    expect([registryName(reg(1)), registryName(reg(2)), nameOf(reg(2), "b")]).toEqual([null, null, null]);
    // Linking one of them under .eth names the cycle from there, and the way back does not loop.
    // Linked under .eth too: the oldest link (inside the cycle) stays canonical, until the registry names c.eth.
    await register(ETH, "c", reg(1));
    expect(registryName(reg(1))).toBeNull();
    await declareParent(context(), reg(1), ETH, "c", BigInt(++block));
    expect([registryName(reg(1)), registryName(reg(2)), nameOf(reg(2), "b")]).toEqual([
      "c.eth",
      "a.c.eth",
      "b.a.c.eth",
    ]);
    // reg(2)'s name "b" links reg(1), which is not reg(1)'s canonical link: the walk down stops there.
    expect(nameOf(reg(1), "a")).toBe("a.c.eth");
    // A registry linked under itself.
    await register(reg(3), "self", reg(3));
    expect(registryName(reg(3))).toBeNull();
  });

  it("treats a chain deeper than MAX_TREE_DEPTH as unreachable", async () => {
    for (let i = 1; i <= MAX_TREE_DEPTH + 1; i++) await register(reg(i), "x", reg(i + 1));
    await register(ETH, "top", reg(1));
    expect(registryName(reg(5))).toBe("x.x.x.x.top.eth");
    // reg(i)'s names have i + 2 labels (…x.top.eth): the deepest allowed is reg(MAX_TREE_DEPTH - 2)'s.
    expect(nameOf(reg(MAX_TREE_DEPTH - 2), "x")?.split(".").length).toBe(MAX_TREE_DEPTH);
    // reg(MAX_TREE_DEPTH - 1) still has a name (its parent domain's); its own names would be one label too deep.
    expect(registryName(reg(MAX_TREE_DEPTH - 1))?.split(".").length).toBe(MAX_TREE_DEPTH);
    expect([
      nameOf(reg(MAX_TREE_DEPTH - 1), "x"),
      registryName(reg(MAX_TREE_DEPTH)),
      registryName(reg(MAX_TREE_DEPTH + 2)),
    ]).toEqual([null, null, null]);
  });

  it("a re-registration resets the label's subregistry, unlinking what was below it", async () => {
    await register(ETH, "foo", reg(1));
    await register(reg(1), "sub");
    await register(ETH, "foo", undefined, 1n);
    expect(nameOf(reg(1), "sub")).toBeNull();
  });

  it("spells a label the event gets wrong as healing finds it, else as [labelhash]", async () => {
    const hash = labelhash("real");
    await labelRegisteredOrReserved(
      context(),
      event(ETH, { tokenId: BigInt(hash), labelHash: hash, label: "fake", owner: OWNER, expiry: 1n, sender: OWNER }),
    );
    expect(nameOf(ETH, "real")).toBe(`[${hash.slice(2)}].eth`);
    healed[labelhash("other")] = "other";
    await labelRegisteredOrReserved(
      context(),
      event(ETH, {
        tokenId: BigInt(labelhash("other")),
        labelHash: labelhash("other"),
        label: "wrong",
        owner: OWNER,
        expiry: 1n,
        sender: OWNER,
      }),
    );
    expect(nameOf(ETH, "other")).toBe("other.eth");
  });
});

describe("ensv2 tokens in the store", () => {
  it("follows transfers of known registries only, and unregistration's version bump", async () => {
    await register(ETH, "foo");
    const id = withVersion(BigInt(labelhash("foo")), 0n);
    const domainId = domainIdOf(31337, ETH, id);
    const other = reg(9);
    expect(await tokensTransferred(context(), event(other, {}), [{ id, value: 1n }], other)).toBeUndefined();
    await tokensTransferred(context(), event(ETH, {}), [{ id, value: 1n }], other);
    expect(store.get(schema.ensv2Domain, domainId)?.owner).toBe(other);
    await labelUnregistered(context(), event(ETH, { tokenId: id }));
    await tokensTransferred(context(), event(ETH, {}), [{ id, value: 1n }], zeroAddress);
    const row = store.get(schema.ensv2Domain, domainId)!;
    expect([row.status, row.owner, row.tokenVersion]).toEqual(["unregistered", null, 1n]);
  });
});
