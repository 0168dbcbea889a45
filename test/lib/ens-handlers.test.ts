import { type Address, bytesToHex, type Hex, stringToBytes } from "viem";
import { beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("ponder:schema", async () => await import("../../ponder.schema"));

import * as schema from "../../ponder.schema";
import { encodeLabelhash, labelhashOf } from "../../src/lib/labels";
import { GRACE_PERIOD_SECONDS, namehash, ROOT_NODE, ZERO_ADDRESS } from "../../src/lib/names";
import {
  type HandlerSettings,
  type IndexedEvent,
  setHandlerSettings,
} from "../../src/plugins/shared/ens-handlers/context";
import { makeNameWrapperHandlers } from "../../src/plugins/shared/ens-handlers/name-wrapper";
import { makeRegistrarHandlers } from "../../src/plugins/shared/ens-handlers/registrar";
import { makeRegistryHandlers, setupRootDomain } from "../../src/plugins/shared/ens-handlers/registry";
import * as resolver from "../../src/plugins/shared/ens-handlers/resolver";
import { FakeStore } from "./fake-store";

const ALICE = "0x00000000000000000000000000000000000a11ce" as Address;
const BOB = "0x0000000000000000000000000000000000000b0b" as Address;
const RESOLVER = "0x00000000000000000000000000000000000000aa" as Address;
const WRAPPER = "0x00000000000000000000000000000000000000ff" as Address;
const KNOWN = new Set(["eth", "vitalik", "sub", "deep", "HelloWorld", "reverse", "addr"]);

let store: FakeStore;
let block = 0n;
const context = () => ({ db: store.db as never, chain: { id: 1 } });
const ev = <A>(args: A, address: Address = RESOLVER): IndexedEvent<A> => {
  block += 1n;
  return {
    args,
    block: { number: block, timestamp: 1000n + block },
    log: { logIndex: 0, address },
    transaction: { hash: `0x${"ab".repeat(32)}`, from: `0x${"cd".repeat(20)}` },
  };
};
const domain = (name: string) => store.get(schema.domain, namehash(name)) as Record<string, unknown> | undefined;

function useMode(mode: "compat" | "default") {
  const settings: HandlerSettings = {
    isSubgraphCompatible: mode === "compat",
    labelMode: mode === "compat" ? "subgraph" : "normalized",
    ensRootChainId: 1,
    heal: async (hash: Hex) => [...KNOWN].find((l) => labelhashOf(l) === hash) ?? null,
    noteBlock: () => {},
  };
  setHandlerSettings(settings);
}

const oldRegistry = makeRegistryHandlers({ registry: "old" });
const registry = makeRegistryHandlers({ registry: "new" });
/** setSubnodeOwner(parent, label, owner) on a registry. */
const newOwner = (reg: typeof registry, parent: string, label: string, owner: Address) =>
  reg.newOwner(context(), ev({ node: parent === "" ? ROOT_NODE : namehash(parent), label: labelhashOf(label), owner }));

beforeEach(async () => {
  store = new FakeStore();
  block = 0n;
  useMode("default");
  await setupRootDomain(context());
});

describe("registry", () => {
  it("creates domains named from healed labels, encoded when unknown, and counts them under their parent", async () => {
    await newOwner(registry, "", "eth", ALICE);
    await newOwner(registry, "eth", "vitalik", ALICE);
    await newOwner(registry, "eth", "unknownlabel", ALICE);
    expect(domain("eth")).toMatchObject({
      name: "eth",
      labelName: "eth",
      parentId: ROOT_NODE,
      ownerId: ALICE,
      isMigrated: true,
    });
    expect(domain("vitalik.eth")).toMatchObject({ name: "vitalik.eth", labelName: "vitalik", createdAt: 1002n });
    expect(domain("unknownlabel.eth")).toMatchObject({
      name: `${encodeLabelhash(labelhashOf("unknownlabel"))}.eth`,
      labelName: null,
    });
    expect(domain("eth")!.subdomainCount).toBe(2);
    expect(store.rows(schema.newOwner).size).toBe(3);
    expect(store.get(schema.domain, ROOT_NODE)).toMatchObject({ name: "", subdomainCount: 1 });
  });

  it("compatible mode shows any label without NUL . [ ], the default mode only normalized ones", async () => {
    useMode("compat");
    await newOwner(registry, "", "eth", ALICE);
    await newOwner(registry, "eth", "HelloWorld", ALICE);
    expect(domain("HelloWorld.eth")).toMatchObject({ name: "HelloWorld.eth", labelName: "HelloWorld" });
    expect(store.rows(schema.newOwner).get("2-0")).toBeDefined(); // subgraph event ids
    store = new FakeStore();
    useMode("default");
    await setupRootDomain(context());
    await newOwner(registry, "", "eth", ALICE);
    await newOwner(registry, "eth", "HelloWorld", ALICE);
    expect(domain("HelloWorld.eth")).toMatchObject({
      name: `${encodeLabelhash(labelhashOf("HelloWorld"))}.eth`,
      labelName: null,
    });
  });

  it("default mode: deleting keeps counts right up the tree, also when deleted twice or re-created", async () => {
    await newOwner(registry, "", "eth", ALICE);
    await newOwner(registry, "eth", "vitalik", ALICE);
    await newOwner(registry, "vitalik.eth", "sub", ALICE);
    await registry.transfer(context(), ev({ node: namehash("vitalik.eth"), owner: ZERO_ADDRESS }));
    expect(domain("eth")!.subdomainCount).toBe(1); // vitalik.eth still has a child
    await newOwner(registry, "vitalik.eth", "sub", ZERO_ADDRESS); // last child gone: vitalik.eth is empty too
    expect(domain("vitalik.eth")!.subdomainCount).toBe(0);
    expect(domain("eth")!.subdomainCount).toBe(0);
    await newOwner(registry, "vitalik.eth", "sub", ZERO_ADDRESS); // deleting again changes nothing
    expect(domain("eth")!.subdomainCount).toBe(0);
    await newOwner(registry, "vitalik.eth", "sub", BOB); // re-created: counted again, up the tree
    expect(domain("vitalik.eth")!.subdomainCount).toBe(1);
    expect(domain("eth")!.subdomainCount).toBe(1);
  });

  it("compatible mode reproduces the subgraph's recurseDomainDelete, drift included", async () => {
    useMode("compat");
    await newOwner(registry, "", "eth", ALICE);
    await newOwner(registry, "eth", "vitalik", ALICE);
    await newOwner(registry, "eth", "sub", ALICE);
    await newOwner(registry, "eth", "sub", ZERO_ADDRESS);
    expect(domain("eth")!.subdomainCount).toBe(1);
    await newOwner(registry, "eth", "sub", ZERO_ADDRESS); // saved empty again: the subgraph decrements again
    expect(domain("eth")!.subdomainCount).toBe(0);
    await newOwner(registry, "eth", "sub", BOB); // and does not count it again
    expect(domain("eth")!.subdomainCount).toBe(0);
  });

  it("a domain with a resolver is not empty; unsetting the resolver deletes it", async () => {
    await newOwner(registry, "", "eth", ALICE);
    await newOwner(registry, "eth", "vitalik", ALICE);
    await registry.newResolver(context(), ev({ node: namehash("vitalik.eth"), resolver: RESOLVER }));
    await registry.transfer(context(), ev({ node: namehash("vitalik.eth"), owner: ZERO_ADDRESS }));
    expect(domain("eth")!.subdomainCount).toBe(1);
    await registry.newResolver(context(), ev({ node: namehash("vitalik.eth"), resolver: ZERO_ADDRESS }));
    expect(domain("eth")!.subdomainCount).toBe(0);
    const unset = [...store.rows(schema.newResolver).values()].at(-1)!;
    expect(unset.resolverId).toBe(ZERO_ADDRESS); // the subgraph's id for "no resolver"
  });

  it("NewResolver points at the resolver entity and takes its addr as resolvedAddress", async () => {
    await newOwner(registry, "", "eth", ALICE);
    await newOwner(registry, "eth", "vitalik", ALICE);
    await resolver.addrChanged(context(), ev({ node: namehash("vitalik.eth"), a: BOB }));
    await registry.newResolver(context(), ev({ node: namehash("vitalik.eth"), resolver: RESOLVER }));
    const id = `${RESOLVER}-${namehash("vitalik.eth")}`;
    expect(domain("vitalik.eth")).toMatchObject({ resolverId: id, resolvedAddressId: BOB });
    await registry.newTTL(context(), ev({ node: namehash("vitalik.eth"), ttl: 300n }));
    expect(domain("vitalik.eth")!.ttl).toBe(300n);
  });

  it("ignores old-registry events for migrated nodes (except the root's resolver)", async () => {
    await newOwner(oldRegistry, "", "eth", ALICE);
    await newOwner(registry, "", "eth", BOB);
    await newOwner(oldRegistry, "", "eth", ALICE);
    await oldRegistry.transfer(context(), ev({ node: namehash("eth"), owner: ALICE }));
    await oldRegistry.newTTL(context(), ev({ node: namehash("eth"), ttl: 5n }));
    expect(domain("eth")).toMatchObject({ ownerId: BOB, isMigrated: true, ttl: null });
    await oldRegistry.newResolver(context(), ev({ node: ROOT_NODE, resolver: RESOLVER }));
    expect(store.get(schema.domain, ROOT_NODE)!.resolverId).toBe(`${RESOLVER}-${ROOT_NODE}`);
    expect(store.rows(schema.newOwner).size).toBe(2);
  });

  // Ponder 0.16 hands out rows that show later writes to them, 0.17 copies: the counts must not depend on which.
  for (const rows of ["views", "copies"] as const) {
    it(`default mode, store handing out ${rows}: every change of a child's emptiness moves its parent's count`, async () => {
      store = new FakeStore(rows);
      await setupRootDomain(context());
      const count = (name: string) => domain(name)!.subdomainCount;
      const transfer = (name: string, owner: Address) =>
        registry.transfer(context(), ev({ node: namehash(name), owner }));
      const setResolver = (name: string, address: Address) =>
        registry.newResolver(context(), ev({ node: namehash(name), resolver: address }));
      await newOwner(registry, "", "eth", ALICE);
      for (const label of ["vitalik", "sub", "deep"]) await newOwner(registry, "eth", label, ALICE);
      expect(count("eth")).toBe(3);

      // Transfer: the owner was all that made it non-empty.
      await transfer("vitalik.eth", ZERO_ADDRESS);
      expect(count("eth")).toBe(2);
      // NewOwner to the zero address of an existing child.
      await newOwner(registry, "eth", "sub", ZERO_ADDRESS);
      expect(count("eth")).toBe(1);
      // A resolver on a child with no owner (setSubnodeRecord(node, label, 0, resolver, 0)), then cleared.
      await setResolver("vitalik.eth", RESOLVER);
      expect(count("eth")).toBe(2);
      await setResolver("vitalik.eth", ZERO_ADDRESS);
      expect(count("eth")).toBe(1);
      // A grandchild: its parent is non-empty through it alone, and both counts move together.
      await newOwner(registry, "deep.eth", "sub", BOB);
      await transfer("deep.eth", ZERO_ADDRESS);
      expect([count("deep.eth"), count("eth")]).toEqual([1, 1]);
      await transfer("sub.deep.eth", ZERO_ADDRESS);
      expect([count("deep.eth"), count("eth")]).toEqual([0, 0]);
      await transfer("sub.deep.eth", BOB);
      expect([count("deep.eth"), count("eth")]).toEqual([1, 1]);
      expect(count("")).toBe(1);
    });
  }

  for (const mode of ["default", "compat"] as const) {
    it(`${mode} mode: an addr.reverse label ${mode === "default" ? "is healed from the owner's address" : "stays encoded (rainbow table only)"}`, async () => {
      useMode(mode);
      await newOwner(registry, "", "reverse", ALICE);
      await newOwner(registry, "reverse", "addr", ALICE);
      const label = BOB.slice(2);
      await newOwner(registry, "addr.reverse", label, BOB);
      const row = store.get(schema.domain, namehash(`${label}.addr.reverse`))!;
      if (mode === "default") expect(row).toMatchObject({ name: `${label}.addr.reverse`, labelName: label });
      else expect(row).toMatchObject({ name: `${encodeLabelhash(labelhashOf(label))}.addr.reverse`, labelName: null });
    });

    it(`migration ${mode === "default" ? "clears" : "keeps (compatible mode)"} the old registry's resolver and ttl`, async () => {
      useMode(mode);
      await newOwner(oldRegistry, "", "eth", ALICE);
      await oldRegistry.newResolver(context(), ev({ node: namehash("eth"), resolver: RESOLVER }));
      await oldRegistry.newTTL(context(), ev({ node: namehash("eth"), ttl: 60n }));
      expect(domain("eth")).toMatchObject({ isMigrated: false, ttl: 60n });
      await newOwner(registry, "", "eth", ALICE);
      if (mode === "default") expect(domain("eth")).toMatchObject({ isMigrated: true, resolverId: null, ttl: null });
      else
        expect(domain("eth")).toMatchObject({
          isMigrated: true,
          resolverId: `${RESOLVER}-${namehash("eth")}`,
          ttl: 60n,
        });
    });
  }
});

describe("registrar and controllers", () => {
  const eth = makeRegistrarHandlers({ managedName: "eth" });
  const id = (label: string) => BigInt(labelhashOf(label));

  beforeEach(async () => {
    await newOwner(registry, "", "eth", ALICE);
  });

  it("NameRegistered: registration (labelhash id), registrant, expiry + 90 days, healed name", async () => {
    await eth.nameTransferred(context(), ev({ from: ZERO_ADDRESS, to: ALICE, tokenId: id("vitalik") })); // mint: ignored
    await newOwner(registry, "eth", "vitalik", ALICE);
    await eth.nameRegistered(context(), ev({ id: id("vitalik"), owner: ALICE, expires: 5000n }));
    expect(store.get(schema.registration, labelhashOf("vitalik"))).toMatchObject({
      domainId: namehash("vitalik.eth"),
      expiryDate: 5000n,
      registrantId: ALICE,
      labelName: "vitalik",
    });
    expect(domain("vitalik.eth")).toMatchObject({ registrantId: ALICE, expiryDate: 5000n + GRACE_PERIOD_SECONDS });
    expect(store.rows(schema.nameTransferred).size).toBe(0);
    await eth.nameTransferred(context(), ev({ from: ALICE, to: BOB, tokenId: id("vitalik") }));
    expect(domain("vitalik.eth")!.registrantId).toBe(BOB);
    await eth.nameRenewed(context(), ev({ id: id("vitalik"), expires: 9000n }));
    expect(domain("vitalik.eth")!.expiryDate).toBe(9000n + GRACE_PERIOD_SECONDS);
    expect(store.get(schema.registration, labelhashOf("vitalik"))!.expiryDate).toBe(9000n);
  });

  it("a controller's plaintext label names an unhealable domain and records the cost; a wrong label is ignored", async () => {
    await newOwner(registry, "eth", "qzxv9k", ALICE);
    await eth.nameRegistered(context(), ev({ id: id("qzxv9k"), owner: ALICE, expires: 5000n }));
    expect(domain("qzxv9k.eth")!.labelName).toBeNull();
    await eth.controllerNameRegistered(context(), ev({ label: "qzxv9k", labelhash: labelhashOf("qzxv9k"), cost: 42n }));
    expect(domain("qzxv9k.eth")).toMatchObject({ name: "qzxv9k.eth", labelName: "qzxv9k" });
    expect(store.get(schema.registration, labelhashOf("qzxv9k"))).toMatchObject({ cost: 42n, labelName: "qzxv9k" });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await eth.controllerNameRenewed(context(), ev({ label: "forged", labelhash: labelhashOf("qzxv9k"), cost: 7n }));
    expect(domain("qzxv9k.eth")!.name).toBe("qzxv9k.eth");
    expect(store.get(schema.registration, labelhashOf("qzxv9k"))!.cost).toBe(7n);
    warn.mockRestore();
  });

  it("registrations of other managed names use the node as id", async () => {
    await newOwner(registry, "eth", "base", ALICE);
    const base = makeRegistrarHandlers({ managedName: "base.eth", supportsPremintedNames: true });
    await base.nameRegistered(context(), ev({ id: id("vitalik"), owner: ALICE, expires: 10n })); // preminted
    expect(store.get(schema.registration, namehash("vitalik.base.eth"))).toMatchObject({ registrantId: ALICE });
    expect(domain("vitalik.base.eth")).toMatchObject({ name: "vitalik.base.eth", ownerId: ALICE });
  });
});

describe("NameWrapper", () => {
  const wrapper = makeNameWrapperHandlers({ managedName: "eth" });
  const wire = (...labels: string[]) =>
    bytesToHex(Uint8Array.from([...labels.flatMap((l) => [stringToBytes(l).length, ...stringToBytes(l)]), 0]));

  it("mint, wrap, fuses, expiry, unwrap", async () => {
    await newOwner(registry, "", "eth", ALICE);
    await newOwner(registry, "eth", "qzxv9k", WRAPPER);
    const node = namehash("qzxv9k.eth");
    await wrapper.transferSingle(
      context(),
      ev({ operator: ALICE, from: ALICE, to: BOB, id: BigInt(node), value: 1n }, WRAPPER),
    );
    expect(store.get(schema.wrappedDomain, node)).toMatchObject({ ownerId: BOB, fuses: 0, expiryDate: 0n });
    expect(store.get(schema.wrappedTransfer, `${block}-0-0`)).toBeDefined();
    await wrapper.nameWrapped(
      context(),
      ev({ node, name: wire("qzxv9k", "eth"), owner: BOB, fuses: 0x10000, expiry: 777n }, WRAPPER),
    );
    expect(domain("qzxv9k.eth")).toMatchObject({
      name: "qzxv9k.eth",
      labelName: "qzxv9k",
      wrappedOwnerId: BOB,
      expiryDate: 777n,
    });
    expect(store.get(schema.wrappedDomain, node)).toMatchObject({
      name: "qzxv9k.eth",
      fuses: 0x10000,
      expiryDate: 777n,
    });
    await wrapper.expiryExtended(context(), ev({ node, expiry: 900n }, WRAPPER));
    expect(domain("qzxv9k.eth")!.expiryDate).toBe(900n);
    await wrapper.fusesSet(context(), ev({ node, fuses: 0x10001 }, WRAPPER));
    expect(store.get(schema.wrappedDomain, node)!.fuses).toBe(0x10001);
    await wrapper.nameUnwrapped(context(), ev({ node, owner: ALICE }, WRAPPER));
    expect(store.get(schema.wrappedDomain, node)).toBeUndefined();
    // A .eth 2LD keeps its expiry after unwrapping (it is the registrar's); the wrapped owner goes.
    expect(domain("qzxv9k.eth")).toMatchObject({ wrappedOwnerId: null, expiryDate: 900n });
  });

  it("a subname's wrapper expiry goes with the wrapper; batches get one transfer row each", async () => {
    await newOwner(registry, "", "eth", ALICE);
    await newOwner(registry, "eth", "vitalik", ALICE);
    await newOwner(registry, "vitalik.eth", "sub", WRAPPER);
    await newOwner(registry, "vitalik.eth", "deep", WRAPPER);
    const sub = namehash("sub.vitalik.eth");
    await wrapper.transferBatch(
      context(),
      ev(
        {
          operator: ALICE,
          from: ALICE,
          to: BOB,
          ids: [BigInt(sub), BigInt(namehash("deep.vitalik.eth"))],
          values: [1n, 1n],
        },
        WRAPPER,
      ),
    );
    expect(store.rows(schema.wrappedTransfer).size).toBe(2);
    await wrapper.nameWrapped(
      context(),
      ev({ node: sub, name: wire("sub", "vitalik", "eth"), owner: BOB, fuses: 0x10000, expiry: 50n }, WRAPPER),
    );
    expect(domain("sub.vitalik.eth")!.expiryDate).toBe(50n);
    await wrapper.nameUnwrapped(context(), ev({ node: sub, owner: BOB }, WRAPPER));
    expect(domain("sub.vitalik.eth")!.expiryDate).toBeNull();
  });
});

describe("resolver records", () => {
  it("keeps texts and coin types as sets, stores text values when the event carries them, and clears on a new version", async () => {
    await newOwner(registry, "", "eth", ALICE);
    await newOwner(registry, "eth", "vitalik", ALICE);
    const node = namehash("vitalik.eth");
    await registry.newResolver(context(), ev({ node, resolver: RESOLVER }));
    await resolver.textChanged(context(), ev({ node, key: "url", value: "https://x" }));
    await resolver.textChanged(context(), ev({ node, key: "url" }));
    await resolver.textChanged(context(), ev({ node, key: "nul\0key", value: "v\0" }));
    await resolver.addressChanged(context(), ev({ node, coinType: 0n, newAddress: "0x00" as Hex }));
    await resolver.addressChanged(context(), ev({ node, coinType: 0n, newAddress: "0x01" as Hex }));
    await resolver.contenthashChanged(context(), ev({ node, hash: "0xe301" as Hex }));
    await resolver.addrChanged(context(), ev({ node, a: BOB }));
    const id = `${RESOLVER}-${node}`;
    expect(store.get(schema.resolver, id)).toMatchObject({
      texts: ["url", "nulkey"],
      coinTypes: [0n],
      contentHash: "0xe301",
      addrId: BOB,
    });
    expect(domain("vitalik.eth")!.resolvedAddressId).toBe(BOB);
    expect([...store.rows(schema.textChanged).values()].map((r) => r.value)).toEqual(["https://x", null, "v"]);
    await resolver.nameChanged(context(), ev({ node, name: "bad\0name" }));
    expect(store.rows(schema.nameChanged).size).toBe(0);
    await resolver.versionChanged(context(), ev({ node, newVersion: 1n }));
    expect(store.get(schema.resolver, id)).toMatchObject({
      texts: null,
      coinTypes: null,
      contentHash: null,
      addrId: null,
    });
    expect(domain("vitalik.eth")!.resolvedAddressId).toBeNull();
  });
});
