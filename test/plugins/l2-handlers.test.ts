import { type Address, bytesToHex, type Hex, stringToBytes } from "viem";
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

/*
 * The basenames, lineanames and threedns plugins' handler files as Ponder loads them (mainnet namespace: Base 8453,
 * Linea 59144, Optimism 10), with `ponder.on` captured and the store in memory. Each test plays events the way the
 * chains emit them and checks the rows: names under the managed name, chain-aware ids, preminted names, wrapper
 * fuses and expiry, 3DNS fqdn decoding, resolver links and burning.
 */

const handlers = vi.hoisted(() => new Map<string, (args: { event: unknown; context: unknown }) => Promise<void>>());
vi.mock("ponder:schema", async () => await import("../../ponder.schema"));
vi.mock("ponder:registry", () => ({ ponder: { on: (name: string, fn: never) => handlers.set(name, fn) } }));

import * as schema from "../../ponder.schema";
import { encodeLabelhash, labelhashOf } from "../../src/lib/labels";
import { GRACE_PERIOD_SECONDS, namehash, ROOT_NODE, ZERO_ADDRESS } from "../../src/lib/names";
import { type IndexedEvent, setHandlerSettings } from "../../src/plugins/shared/ens-handlers/context";
import { setupRootDomain } from "../../src/plugins/shared/ens-handlers/registry";
import { FakeStore } from "../lib/fake-store";

const BASE = 8453;
const LINEA = 59144;
const OPTIMISM = 10;
const ALICE = "0x00000000000000000000000000000000000a11ce" as Address;
const BOB = "0x0000000000000000000000000000000000000b0b" as Address;
// Mainnet addresses (src/namespaces/mainnet.ts): the 3DNS token and resolver are the same on Optimism and Base.
const THREEDNS_TOKEN = "0xbb7b805b257d7c76ca9435b3ffe780355e4c4b17" as Address;
const THREEDNS_RESOLVER = "0xf97aac6c8dbaebcb54ff166d79706e3af7a813c8" as Address;
const L2_RESOLVER = "0x00000000000000000000000000000000000000aa" as Address;
const LINEA_WRAPPER = "0xa53cca02f98d590819141aa85c891e2af713c223" as Address;
const KNOWN = new Set(["eth", "base", "linea", "alice", "premint", "xyz", "box", "example", "sub"]);
const PARENT_CANNOT_CONTROL = 0x10000;
const CANNOT_UNWRAP = 1;

let store: FakeStore;
let block = 0n;

beforeAll(async () => {
  process.env.NAMESPACE = "mainnet";
  process.env.PLUGINS = "subgraph,basenames,lineanames,threedns";
  for (const id of [1, BASE, LINEA, OPTIMISM]) process.env[`RPC_URL_${id}`] = "http://127.0.0.1:9";
  process.env.LABELS_SERVICE_URL = "http://127.0.0.1:9";
  setHandlerSettings({
    isSubgraphCompatible: false,
    labelMode: "normalized",
    ensRootChainId: 1,
    heal: async (hash: Hex) => [...KNOWN].find((l) => labelhashOf(l) === hash) ?? null,
    noteBlock: () => {},
  });
  // What the registration entry (src/indexing/register.ts) runs for these plugins, without its background work.
  for (const plugin of ["basenames", "lineanames", "threedns"]) {
    const { register } = (await import(`../../src/plugins/${plugin}/register.ts`)) as { register(): void };
    register();
  }
});

beforeEach(() => {
  store = new FakeStore();
  block = 0n;
});

/** Plays `<contract>:<event>` on `chainId` from `address`. */
async function play<A>(chainId: number, name: string, args: A, address: Address = L2_RESOLVER): Promise<void> {
  const handler = handlers.get(name);
  if (!handler) throw new Error(`no handler registered for ${name}`);
  block += 1n;
  // As Ponder hands it, with what the indexed_log writer reads beyond IndexedEvent's fields.
  const event: IndexedEvent<A> = {
    args,
    block: { number: block, timestamp: 1000n + block, hash: `0x${block.toString(16).padStart(64, "0")}` },
    log: { logIndex: 0, address, topics: [`0x${"01".repeat(32)}`, null, null, null], data: "0x" },
    transaction: { hash: `0x${"ab".repeat(32)}`, from: ALICE, to: address, transactionIndex: 0 },
  } as IndexedEvent<A>;
  await handler({ event, context: { db: store.db, chain: { id: chainId } } });
}

const domain = (name: string) => store.get(schema.domain, namehash(name)) as Record<string, any> | undefined;
const tokenId = (label: string) => BigInt(labelhashOf(label));
function wire(...labels: string[]): Hex {
  const bytes: number[] = [];
  for (const l of labels) bytes.push(stringToBytes(l).length, ...stringToBytes(l));
  return bytesToHex(Uint8Array.from([...bytes, 0]));
}

/** An L2 registry creating `eth` (skipped: the root chain's row), the managed name, then `label` under it. */
async function l2Registry(chainId: number, plugin: "basenames" | "lineanames", managed: string) {
  await setupRootDomain({ db: store.db as never, chain: { id: chainId } });
  const C = `${plugin}/Registry`;
  await play(chainId, `${C}:NewOwner`, { node: ROOT_NODE, label: labelhashOf("eth"), owner: ALICE });
  await play(chainId, `${C}:NewOwner`, { node: namehash("eth"), label: labelhashOf(managed), owner: ALICE });
  return (parent: string, label: string, owner: Address) =>
    play(chainId, `${C}:NewOwner`, { node: namehash(parent), label: labelhashOf(label), owner });
}

describe("basenames", () => {
  it("leaves the root chain's reverse namespace nodes alone, and keeps the L2's reverse records under them", async () => {
    await setupRootDomain({ db: store.db as never, chain: { id: BASE } });
    // The root chain's `reverse` (mainnet's registry holds it), as the subgraph plugin indexed it.
    await store.db.insert(schema.domain).values({
      id: namehash("reverse"),
      name: "reverse",
      labelName: "reverse",
      labelhash: labelhashOf("reverse"),
      parentId: ROOT_NODE,
      ownerId: BOB.toLowerCase(),
      createdAt: 1n,
      isMigrated: true,
    });
    const C = "basenames/Registry";
    const REVERSE_REGISTRAR = "0x0000000000000000000000000000000000000e0e" as Address;
    // Base's registry sets up its reverse namespace (basenames' deploy scripts): `reverse`, then 80002105.reverse.
    await play(BASE, `${C}:NewOwner`, { node: ROOT_NODE, label: labelhashOf("reverse"), owner: ALICE });
    await play(BASE, `${C}:Transfer`, { node: namehash("reverse"), owner: ALICE });
    await play(BASE, `${C}:NewResolver`, { node: namehash("reverse"), resolver: L2_RESOLVER });
    expect(domain("reverse")).toMatchObject({ ownerId: BOB.toLowerCase(), resolverId: null });
    // 80002105 = 0x80000000 | 8453 (ENSIP-11): the root chain has no row for it here, so L2 creates it.
    await play(BASE, `${C}:NewOwner`, {
      node: namehash("reverse"),
      label: labelhashOf("80002105"),
      owner: REVERSE_REGISTRAR,
    });
    expect(domain("80002105.reverse")).toMatchObject({
      name: "80002105.reverse",
      labelName: "80002105",
      parentId: namehash("reverse"),
      ownerId: REVERSE_REGISTRAR,
    });
    // A second NewOwner for it (the row exists now) changes nothing; a reverse record under it is the L2's own.
    await play(BASE, `${C}:NewOwner`, { node: namehash("reverse"), label: labelhashOf("80002105"), owner: ALICE });
    expect(domain("80002105.reverse")!.ownerId).toBe(REVERSE_REGISTRAR);
    const aliceLabel = ALICE.slice(2).toLowerCase();
    await play(BASE, `${C}:NewOwner`, {
      node: namehash("80002105.reverse"),
      label: labelhashOf(aliceLabel),
      owner: ALICE,
    });
    expect(domain(`${aliceLabel}.80002105.reverse`)).toMatchObject({
      parentId: namehash("80002105.reverse"),
      ownerId: ALICE.toLowerCase(),
    });
    // Linea's namespace is 8000e708.reverse (59144 = 0xe708); mainnet's `reverse` stays the root chain's there too.
    await play(LINEA, "lineanames/Registry:NewOwner", { node: ROOT_NODE, label: labelhashOf("reverse"), owner: ALICE });
    await play(LINEA, "lineanames/Registry:NewOwner", {
      node: namehash("reverse"),
      label: labelhashOf("8000e708"),
      owner: REVERSE_REGISTRAR,
    });
    expect(domain("reverse")!.ownerId).toBe(BOB.toLowerCase());
    expect(domain("8000e708.reverse")).toMatchObject({ name: "8000e708.reverse", ownerId: REVERSE_REGISTRAR });
  });

  it("leaves the root chain's rows of names beside base.eth alone: example.eth and box stay mainnet's", async () => {
    const name = await l2Registry(BASE, "basenames", "base");
    const C = "basenames/Registry";
    // The root chain's `example.eth`, as the subgraph plugin indexed it.
    await store.db.insert(schema.domain).values({
      id: namehash("example.eth"),
      name: "example.eth",
      labelName: "example",
      labelhash: labelhashOf("example"),
      parentId: namehash("eth"),
      ownerId: BOB.toLowerCase(),
      createdAt: 1n,
      isMigrated: true,
    });
    // Base's registry owner creates `example.eth` and `box` on L2, then changes their owner, resolver and TTL.
    await name("eth", "example", ALICE);
    await play(BASE, `${C}:NewOwner`, { node: ROOT_NODE, label: labelhashOf("box"), owner: ALICE });
    for (const node of [namehash("example.eth"), namehash("box")]) {
      await play(BASE, `${C}:Transfer`, { node, owner: ALICE });
      await play(BASE, `${C}:NewResolver`, { node, resolver: L2_RESOLVER });
      await play(BASE, `${C}:NewTTL`, { node, ttl: 60n });
    }
    expect(domain("example.eth")).toMatchObject({ ownerId: BOB.toLowerCase(), resolverId: null });
    expect(domain("example.eth")!.ttl ?? null).toBeNull();
    expect(domain("box")).toBeUndefined();
    // Its own names still follow every registry event.
    await name("base.eth", "alice", ALICE);
    await play(BASE, `${C}:Transfer`, { node: namehash("alice.base.eth"), owner: BOB });
    await play(BASE, `${C}:NewTTL`, { node: namehash("alice.base.eth"), ttl: 60n });
    expect(domain("alice.base.eth")).toMatchObject({ ownerId: BOB.toLowerCase(), ttl: 60n });
  });

  it("names domains under base.eth, with chain-aware registration, event and resolver ids", async () => {
    const newOwner = await l2Registry(BASE, "basenames", "base");
    // `eth` is the root chain's: the L2 registry only leaves a placeholder under which base.eth hangs.
    expect(domain("eth")).toMatchObject({ name: "eth", ownerId: ZERO_ADDRESS, isMigrated: false });
    expect(domain("base.eth")).toMatchObject({
      name: "base.eth",
      labelName: "base",
      parentId: namehash("eth"),
      ownerId: ALICE.toLowerCase(),
    });

    await newOwner("base.eth", "alice", ALICE);
    await play(BASE, "basenames/BaseRegistrar:NameRegisteredWithRecord", {
      id: tokenId("alice"),
      owner: ALICE,
      expires: 5000n,
      resolver: L2_RESOLVER,
      ttl: 0n,
    });
    expect(domain("alice.base.eth")).toMatchObject({
      name: "alice.base.eth",
      registrantId: ALICE.toLowerCase(),
      expiryDate: 5000n + GRACE_PERIOD_SECONDS,
    });
    // The registration id is the node (a labelhash would collide with alice.eth's on the root chain).
    const node = namehash("alice.base.eth");
    expect(store.get(schema.registration, node)).toMatchObject({
      domainId: node,
      expiryDate: 5000n,
      labelName: "alice",
    });
    expect(store.get(schema.registration, labelhashOf("alice"))).toBeUndefined();
    expect([...store.rows(schema.nameRegistered).keys()]).toEqual([`4-0-${BASE}`]);

    await play(BASE, "basenames/Resolver:AddrChanged", { node, a: BOB });
    expect(store.get(schema.resolver, `${L2_RESOLVER}-${node}-${BASE}`)).toMatchObject({ addrId: BOB.toLowerCase() });

    await play(BASE, "basenames/RegistrarController:NameRenewed", {
      name: "alice",
      label: labelhashOf("alice"),
      expires: 9000n,
    });
    await play(BASE, "basenames/BaseRegistrar:NameRenewed", { id: tokenId("alice"), expires: 9000n });
    expect(domain("alice.base.eth")!.expiryDate).toBe(9000n + GRACE_PERIOD_SECONDS);
  });

  it("names a label the healer lacks from any controller's plaintext NameRegistered", async () => {
    const newOwner = await l2Registry(BASE, "basenames", "base");
    for (const [label, controller] of [
      ["unhealedone", "EARegistrarController"],
      ["unhealedtwo", "UpgradeableRegistrarController"],
    ] as const) {
      await newOwner("base.eth", label, ALICE);
      expect(domain(`${label}.base.eth`)!.name).toBe(`${encodeLabelhash(labelhashOf(label))}.base.eth`);
      await play(BASE, "basenames/BaseRegistrar:NameRegisteredWithRecord", {
        id: tokenId(label),
        owner: ALICE,
        expires: 5000n,
        resolver: L2_RESOLVER,
        ttl: 0n,
      });
      await play(BASE, `basenames/${controller}:NameRegistered`, {
        name: label,
        label: labelhashOf(label),
        owner: ALICE,
        expires: 5000n,
      });
      expect(domain(`${label}.base.eth`)).toMatchObject({ name: `${label}.base.eth`, labelName: label });
    }
  });

  it("creates and names preminted names, which have no NewOwner before their NameRegistered", async () => {
    await l2Registry(BASE, "basenames", "base");
    await play(BASE, "basenames/BaseRegistrar:NameRegistered", { id: tokenId("premint"), owner: BOB, expires: 7000n });
    expect(domain("premint.base.eth")).toMatchObject({
      name: "premint.base.eth",
      labelName: "premint",
      parentId: namehash("base.eth"),
      ownerId: BOB.toLowerCase(),
      registrantId: BOB.toLowerCase(),
      expiryDate: 7000n + GRACE_PERIOD_SECONDS,
    });
    expect(domain("base.eth")!.subdomainCount).toBe(1);
    // The holder's later reclaim is a registry NewOwner for the same node: an update, not a second domain.
    await play(BASE, "basenames/Registry:NewOwner", {
      node: namehash("base.eth"),
      label: labelhashOf("premint"),
      owner: BOB,
    });
    expect(domain("base.eth")!.subdomainCount).toBe(1);
  });

  it("leaves the 3DNS resolver's logs to the threedns plugin (no double apply)", async () => {
    await setupRootDomain({ db: store.db as never, chain: { id: BASE } });
    const node = namehash("example.xyz");
    await play(BASE, "basenames/Resolver:AddrChanged", { node, a: BOB }, THREEDNS_RESOLVER);
    expect(store.rows(schema.addrChanged).size).toBe(0);
    await play(BASE, "threedns/threednsBase/Resolver:AddrChanged", { node, a: BOB }, THREEDNS_RESOLVER);
    expect(store.rows(schema.addrChanged).size).toBe(1);
  });
});

describe("lineanames", () => {
  async function registerWrapped(label: string, owner: Address, expires: bigint) {
    const newOwner = await l2Registry(LINEA, "lineanames", "linea");
    await newOwner("linea.eth", label, LINEA_WRAPPER);
    await play(LINEA, "lineanames/BaseRegistrar:NameRegistered", { id: tokenId(label), owner: LINEA_WRAPPER, expires });
    await play(
      LINEA,
      "lineanames/NameWrapper:TransferSingle",
      { operator: ALICE, from: ZERO_ADDRESS, to: owner, id: BigInt(namehash(`${label}.linea.eth`)), value: 1n },
      LINEA_WRAPPER,
    );
    await play(
      LINEA,
      "lineanames/NameWrapper:NameWrapped",
      {
        node: namehash(`${label}.linea.eth`),
        name: wire(label, "linea", "eth"),
        owner,
        fuses: PARENT_CANNOT_CONTROL | 0x20000,
        expiry: expires + GRACE_PERIOD_SECONDS,
      },
      LINEA_WRAPPER,
    );
    return newOwner;
  }

  it("names owner and proof-of-humanity registrations from their plaintext, and prices paid ones", async () => {
    const newOwner = await l2Registry(LINEA, "lineanames", "linea");
    for (const [label, event] of [
      ["ownedname", "OwnerNameRegistered"],
      ["pohname", "PohNameRegistered"],
      ["paidname", "NameRegistered"],
    ] as const) {
      await newOwner("linea.eth", label, LINEA_WRAPPER);
      await play(LINEA, "lineanames/BaseRegistrar:NameRegistered", {
        id: tokenId(label),
        owner: LINEA_WRAPPER,
        expires: 5000n,
      });
      await play(LINEA, `lineanames/EthRegistrarController:${event}`, {
        name: label,
        label: labelhashOf(label),
        owner: ALICE,
        baseCost: 30n,
        premium: 12n,
        expires: 5000n,
      });
      expect(domain(`${label}.linea.eth`), label).toMatchObject({ name: `${label}.linea.eth`, labelName: label });
    }
    const node = (l: string) => namehash(`${l}.linea.eth`);
    expect(store.get(schema.registration, node("paidname"))).toMatchObject({ cost: 42n, labelName: "paidname" });
    expect(store.get(schema.registration, node("pohname"))).toMatchObject({ cost: null, labelName: "pohname" });
  });

  it("follows the wrapper: holder, fuses, a subname's expiry once PARENT_CANNOT_CONTROL is burned, batch transfers", async () => {
    const newOwner = await registerWrapped("alice", ALICE, 5000n);
    const node = namehash("alice.linea.eth");
    expect(domain("alice.linea.eth")).toMatchObject({
      wrappedOwnerId: ALICE.toLowerCase(),
      registrantId: LINEA_WRAPPER,
      expiryDate: 5000n + GRACE_PERIOD_SECONDS,
    });
    await play(
      LINEA,
      "lineanames/NameWrapper:FusesSet",
      { node, fuses: PARENT_CANNOT_CONTROL | 0x20000 | CANNOT_UNWRAP },
      LINEA_WRAPPER,
    );
    expect(store.get(schema.wrappedDomain, node)).toMatchObject({
      fuses: PARENT_CANNOT_CONTROL | 0x20000 | CANNOT_UNWRAP,
      ownerId: ALICE.toLowerCase(),
    });

    // A wrapped subname, PCC not burned: its wrapper expiry does not bound the domain.
    const sub = namehash("sub.alice.linea.eth");
    await newOwner("alice.linea.eth", "sub", LINEA_WRAPPER);
    await play(
      LINEA,
      "lineanames/NameWrapper:TransferSingle",
      { operator: ALICE, from: ZERO_ADDRESS, to: ALICE, id: BigInt(sub), value: 1n },
      LINEA_WRAPPER,
    );
    await play(
      LINEA,
      "lineanames/NameWrapper:NameWrapped",
      { node: sub, name: wire("sub", "alice", "linea", "eth"), owner: ALICE, fuses: 0, expiry: 3000n },
      LINEA_WRAPPER,
    );
    expect(domain("sub.alice.linea.eth")!.expiryDate).toBeNull();
    await play(LINEA, "lineanames/NameWrapper:FusesSet", { node: sub, fuses: PARENT_CANNOT_CONTROL }, LINEA_WRAPPER);
    expect(domain("sub.alice.linea.eth")!.expiryDate).toBe(3000n);
    await play(LINEA, "lineanames/NameWrapper:ExpiryExtended", { node: sub, expiry: 4000n }, LINEA_WRAPPER);
    expect(domain("sub.alice.linea.eth")!.expiryDate).toBe(4000n);
    expect(store.get(schema.wrappedDomain, sub)).toMatchObject({ expiryDate: 4000n, fuses: PARENT_CANNOT_CONTROL });

    await play(
      LINEA,
      "lineanames/NameWrapper:TransferBatch",
      { operator: ALICE, from: ALICE, to: BOB, ids: [BigInt(node), BigInt(sub)], values: [1n, 1n] },
      LINEA_WRAPPER,
    );
    for (const n of ["alice.linea.eth", "sub.alice.linea.eth"])
      expect(domain(n)!.wrappedOwnerId, n).toBe(BOB.toLowerCase());
    // One event row per token of the batch: the batch position, then the chain id.
    expect([...store.rows(schema.wrappedTransfer).keys()].filter((k) => k.startsWith(`${block}-`)).sort()).toEqual([
      `${block}-0-0-${LINEA}`,
      `${block}-0-1-${LINEA}`,
    ]);
  });
});

describe("threedns", () => {
  const created = (
    chainId: number,
    labels: string[],
    registrant: Address,
    expiry: bigint,
    fqdn: Hex = wire(...labels),
  ) =>
    play(
      chainId,
      `threedns/${chainId === BASE ? "threednsBase" : "threednsOptimism"}/Token:RegistrationCreated`,
      {
        node: namehash(labels.join(".")),
        tld: namehash(labels[labels.length - 1]!),
        fqdn,
        registrant,
        controlBitmap: 0,
        expiry,
      },
      THREEDNS_TOKEN,
    );

  beforeEach(async () => {
    for (const id of [OPTIMISM, BASE]) await setupRootDomain({ db: store.db as never, chain: { id } });
  });

  it("decodes the fqdn into the name under its TLD (owned by the token) and links the chain's 3DNS resolver", async () => {
    await created(OPTIMISM, ["example", "xyz"], ALICE, 8000n);
    expect(domain("xyz")).toMatchObject({
      name: "xyz",
      parentId: ROOT_NODE,
      ownerId: THREEDNS_TOKEN,
      subdomainCount: 1,
    });
    const node = namehash("example.xyz");
    const resolverId = `${THREEDNS_RESOLVER}-${node}-${OPTIMISM}`;
    expect(domain("example.xyz")).toMatchObject({
      name: "example.xyz",
      labelName: "example",
      ownerId: ALICE.toLowerCase(),
      expiryDate: 8000n,
      resolverId,
      isMigrated: true,
    });
    expect(store.get(schema.resolver, resolverId)).toMatchObject({ domainId: node, address: THREEDNS_RESOLVER });

    // Records on that resolver reach the domain (its resolved address).
    await play(OPTIMISM, "threedns/threednsOptimism/Resolver:AddrChanged", { node, a: BOB }, THREEDNS_RESOLVER);
    expect(domain("example.xyz")!.resolvedAddressId).toBe(BOB.toLowerCase());
  });

  it("keeps a resolver's records when a name is registered again on another chain, and ids stay chain-aware", async () => {
    const node = namehash("example.box");
    await play(BASE, "threedns/threednsBase/Resolver:AddrChanged", { node, a: BOB }, THREEDNS_RESOLVER);
    await created(BASE, ["example", "box"], ALICE, 8000n);
    expect(domain("example.box")).toMatchObject({
      resolverId: `${THREEDNS_RESOLVER}-${node}-${BASE}`,
      resolvedAddressId: BOB.toLowerCase(),
    });
    await created(OPTIMISM, ["example", "box"], BOB, 9000n);
    expect(domain("example.box")).toMatchObject({
      resolverId: `${THREEDNS_RESOLVER}-${node}-${OPTIMISM}`,
      resolvedAddressId: null,
      ownerId: BOB.toLowerCase(),
      expiryDate: 9000n,
    });
    expect(domain("box")!.subdomainCount).toBe(1);
  });

  it("extends, transfers and burns: a burned registration loses owner, resolver and expiry", async () => {
    await created(BASE, ["example", "xyz"], ALICE, 8000n);
    await created(BASE, ["alice", "xyz"], ALICE, 8000n);
    const node = namehash("example.xyz");
    const C = "threedns/threednsBase/Token";
    await play(BASE, `${C}:RegistrationExtended`, { node, duration: 1000n, newExpiry: 9000n }, THREEDNS_TOKEN);
    expect(domain("example.xyz")!.expiryDate).toBe(9000n);
    await play(BASE, `${C}:RegistrationTransferred`, { node, newOwner: BOB, operator: ALICE }, THREEDNS_TOKEN);
    expect(domain("example.xyz")!.ownerId).toBe(BOB.toLowerCase());
    expect(domain("xyz")!.subdomainCount).toBe(2);
    await play(BASE, `${C}:RegistrationBurned`, { node, burner: BOB }, THREEDNS_TOKEN);
    expect(domain("example.xyz")).toMatchObject({
      ownerId: ZERO_ADDRESS,
      resolverId: null,
      resolvedAddressId: null,
      expiryDate: null,
    });
    // An empty domain no longer counts under its TLD.
    expect(domain("xyz")!.subdomainCount).toBe(1);
  });

  it("creates nodes from the token's NewOwner as mainnet emits them: the TLD, the registration, subnames at any depth", async () => {
    const C = "threedns/threednsBase/Token";
    const newOwner = (parent: string, label: string, owner: Address) =>
      play(BASE, `${C}:NewOwner`, { node: namehash(parent), label: labelhashOf(label), owner }, THREEDNS_TOKEN);
    // register(): NewOwner for a new TLD, NewOwner of the name, then RegistrationCreated. "unheard" is no label the
    // label service knows: NewOwner names it by its hash, the fqdn then names it.
    await newOwner("", "xyz", THREEDNS_TOKEN);
    await newOwner("xyz", "unheard", ALICE);
    expect(domain("unheard.xyz")).toMatchObject({
      name: `${encodeLabelhash(labelhashOf("unheard"))}.xyz`,
      labelName: null,
      ownerId: ALICE.toLowerCase(),
    });
    await created(BASE, ["unheard", "xyz"], ALICE, 8000n);
    const resolverOf = (name: string) => `${THREEDNS_RESOLVER}-${namehash(name)}-${BASE}`;
    expect(domain("xyz")).toMatchObject({ ownerId: THREEDNS_TOKEN, resolverId: null, subdomainCount: 1 });
    expect(domain("unheard.xyz")).toMatchObject({
      name: "unheard.xyz",
      labelName: "unheard",
      expiryDate: 8000n,
      resolverId: resolverOf("unheard.xyz"),
    });
    // Subnames below it, two levels deep, on the 3DNS resolver; a registry-level Transfer; a deletion.
    await newOwner("unheard.xyz", "sub", BOB);
    await newOwner("sub.unheard.xyz", "alice", ALICE);
    expect(domain("sub.unheard.xyz")).toMatchObject({
      name: "sub.unheard.xyz",
      ownerId: BOB.toLowerCase(),
      resolverId: resolverOf("sub.unheard.xyz"),
    });
    expect(domain("alice.sub.unheard.xyz")).toMatchObject({
      parentId: namehash("sub.unheard.xyz"),
      resolverId: resolverOf("alice.sub.unheard.xyz"),
    });
    await play(BASE, `${C}:Transfer`, { node: namehash("sub.unheard.xyz"), owner: ALICE }, THREEDNS_TOKEN);
    expect(domain("sub.unheard.xyz")!.ownerId).toBe(ALICE.toLowerCase());
    await newOwner("sub.unheard.xyz", "alice", ZERO_ADDRESS);
    expect(domain("alice.sub.unheard.xyz")).toMatchObject({ ownerId: ZERO_ADDRESS, resolverId: null });
    expect(domain("sub.unheard.xyz")!.subdomainCount).toBe(0);
  });

  it("lists a TXT record at <key>.ens on the 3DNS resolver among its texts, and drops it when deleted", async () => {
    await created(BASE, ["example", "xyz"], ALICE, 8000n);
    const node = namehash("example.xyz");
    const R = "threedns/threednsBase/Resolver";
    const name = wire("com", "twitter", "ens");
    const record = "0x03636f6d077477697474657203656e73000010000100000e100006053078546b6f" as Hex;
    await play(
      BASE,
      `${R}:DNSRecordChanged(bytes32 indexed node, bytes name, uint16 resource, uint32 ttl, bytes record)`,
      { node, name, resource: 16, ttl: 3600, record },
      THREEDNS_RESOLVER,
    );
    await play(
      BASE,
      `${R}:DNSRecordChanged(bytes32 indexed node, bytes name, uint16 resource, uint32 ttl, bytes record)`,
      { node, name: wire("www", "example", "xyz"), resource: 16, ttl: 3600, record },
      THREEDNS_RESOLVER,
    );
    const resolverId = `${THREEDNS_RESOLVER}-${node}-${BASE}`;
    expect(store.get(schema.resolver, resolverId)).toMatchObject({ texts: ["com.twitter"] });
    await play(BASE, `${R}:DNSRecordDeleted`, { node, name, resource: 16 }, THREEDNS_RESOLVER);
    expect(store.get(schema.resolver, resolverId)).toMatchObject({ texts: [] });
  });

  it("encodes a label the default mode cannot show and ignores an fqdn that is not DNS wire format", async () => {
    await created(BASE, ["Upper", "xyz"], ALICE, 8000n);
    expect(domain("Upper.xyz")).toMatchObject({
      name: `${encodeLabelhash(labelhashOf("Upper"))}.xyz`,
      labelName: null,
    });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await created(BASE, ["broken", "io"], ALICE, 8000n, "0x0562726f6b656e");
    expect(domain("broken.io")).toBeUndefined();
    expect(domain("io")).toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/not a DNS wire-format name/));
    warn.mockRestore();
  });
});
