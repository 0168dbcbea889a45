import { type Address, type Hex, keccak256, stringToBytes, zeroAddress } from "viem";
import { describe, expect, it, vi } from "vitest";
import * as schema from "../../ponder.schema";
import { FakeStore } from "../lib/fake-store";

// The logic imports Ponder's virtual schema module; here it is the schema file itself.
vi.mock("ponder:schema", () => import("../../ponder.schema"));

const { setHandlerSettings } = await import("../../src/plugins/shared/ens-handlers/context");
const { setEnsv2Anchors } = await import("../../src/plugins/ensv2/lib/context");
const { labelRegisteredOrReserved, labelUnregistered, setOnDomain, tokenIdValues } = await import(
  "../../src/plugins/ensv2/lib/lifecycle"
);
const { singleTransferred, batchTransferred } = await import("../../src/plugins/ensv2/lib/transfers");
const { domainIdOf, withVersion } = await import("../../src/lib/ensv2-ids");

/*
 * A registry linked after it was used gets its earlier transfers late: applied at the link, after every other event
 * it emitted before (src/plugins/ensv2/lib/transfers.ts). The index must end the same as with every transfer in its
 * place. One registry's life in the order PermissionedRegistry emits it (mints after LabelRegistered, the burn before
 * a re-registration and after LabelUnregistered, a regeneration's burn, TokenRegenerated and mint), applied both ways.
 */

const ROOT = "0x00000000000000000000000000000000000000aa" as Address;
const REGISTRY = "0x00000000000000000000000000000000000000cc" as Address;
const [ALICE, BOB, FRIEND] = [
  "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
  "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
  "0x90f79bf6eb2c4f870365e785982e1f101e93b906",
] as Address[];
const labelhash = (l: string) => keccak256(stringToBytes(l));
const id = (label: string, version: bigint) => withVersion(BigInt(labelhash(label)), version);

type Context = { db: never; chain: { id: number } };
interface Step {
  transfer: boolean;
  run: (context: Context) => Promise<unknown>;
}

/** The registry's life: each step its own log, one per block. */
function life(): Step[] {
  let block = 100;
  const event = <A>(args: A) => {
    block++;
    return {
      args,
      block: { number: BigInt(block), timestamp: BigInt(1_000 + block) },
      log: { logIndex: 0, address: REGISTRY },
      transaction: { hash: keccak256(stringToBytes(`tx${block}`)) as Hex, from: ALICE },
    };
  };
  const other = (run: (c: Context) => Promise<unknown>): Step => ({ transfer: false, run });
  const register = (label: string, version: bigint, owner?: Address) => {
    const e = event({
      tokenId: id(label, version),
      labelHash: labelhash(label),
      label,
      expiry: 10_000_000n,
      sender: ALICE,
      ...(owner ? { owner } : {}),
    });
    return other((c) => labelRegisteredOrReserved(c, e));
  };
  const unregister = (label: string, version: bigint) => {
    const e = event({ tokenId: id(label, version), sender: ALICE });
    return other((c) => labelUnregistered(c, e));
  };
  const regenerated = (label: string, version: bigint) => {
    const e = event({ oldTokenId: id(label, version - 1n), newTokenId: id(label, version) });
    return other((c) => setOnDomain(c, e, e.args.newTokenId, tokenIdValues(e.args.newTokenId)));
  };
  const renewed = (label: string, version: bigint) => {
    const e = event({ tokenId: id(label, version), newExpiry: 20_000_000n, sender: ALICE });
    return other((c) => setOnDomain(c, e, e.args.tokenId, { expiry: e.args.newExpiry }));
  };
  const single = (tokenId: bigint, from: Address, to: Address): Step => {
    const e = event({ operator: ALICE, from, to, id: tokenId, value: 1n });
    return { transfer: true, run: (c) => singleTransferred(c, e) };
  };
  const batch = (ids: bigint[], from: Address, to: Address): Step => {
    const e = event({ operator: ALICE, from, to, ids, values: ids.map(() => 1n) });
    return { transfer: true, run: (c) => batchTransferred(c, e) };
  };
  return [
    // a: registered, passed on, regenerated (burn, TokenRegenerated, mint)
    register("a", 0n, ALICE),
    single(id("a", 0n), zeroAddress, ALICE),
    single(id("a", 0n), ALICE, BOB),
    single(id("a", 0n), BOB, zeroAddress),
    regenerated("a", 1n),
    single(id("a", 1n), zeroAddress, BOB),
    // b: registered, unregistered (its burn follows), registered again to another
    register("b", 0n, ALICE),
    single(id("b", 0n), zeroAddress, ALICE),
    unregister("b", 0n),
    single(id("b", 0n), ALICE, zeroAddress),
    register("b", 1n, FRIEND),
    single(id("b", 1n), zeroAddress, FRIEND),
    // c: registered, then (expired) registered over its holder: the burn comes first
    register("c", 0n, ALICE),
    single(id("c", 0n), zeroAddress, ALICE),
    single(id("c", 0n), ALICE, zeroAddress),
    register("c", 1n, BOB),
    single(id("c", 1n), zeroAddress, BOB),
    // d: reserved, no token
    register("d", 0n),
    // a and c to one holder in one batch; then a is unregistered and burnt
    batch([id("a", 1n), id("c", 1n)], BOB, FRIEND),
    unregister("a", 1n),
    single(id("a", 1n), FRIEND, zeroAddress),
    // c renewed after its last transfer: applied late, the transfer must not take its update block back
    renewed("c", 1n),
  ];
}

async function play(order: (steps: Step[]) => Step[]): Promise<FakeStore> {
  const store = new FakeStore("views");
  const context: Context = { db: store.db as never, chain: { id: 31337 } };
  for (const step of order(life())) await step.run(context);
  return store;
}

const tableRows = (store: FakeStore, table: Parameters<FakeStore["rows"]>[0]) =>
  Object.fromEntries([...store.rows(table)].sort(([a], [b]) => a.localeCompare(b)));

describe("ensv2 transfers applied late, at a registry's first link", () => {
  setHandlerSettings({
    isSubgraphCompatible: false,
    labelMode: "normalized",
    ensRootChainId: 31337,
    heal: async () => null,
    noteBlock: () => {},
  });
  setEnsv2Anchors({ rootRegistry: ROOT, ethRegistry: ROOT });

  it("leave names, tokens, events (in each name's history) and owner counts as the same transfers in their places", async () => {
    const inPlace = await play((steps) => steps);
    const late = await play((steps) => [...steps.filter((s) => !s.transfer), ...steps.filter((s) => s.transfer)]);

    const names = Object.values(tableRows(inPlace, schema.ensv2Domain)).map((d) => [
      d.label,
      d.status,
      d.owner,
      BigInt(d.tokenId as string) === id(d.label as string, d.tokenVersion as bigint),
      d.tokenVersion,
    ]);
    // What the registry's getters would answer: a unregistered (next version, no holder), b and c with FRIEND.
    expect(names.sort()).toEqual([
      ["a", "unregistered", null, true, 2n],
      ["b", "registered", FRIEND, true, 1n],
      ["c", "registered", FRIEND, true, 1n],
      ["d", "reserved", null, true, 0n],
    ]);
    for (const table of [
      schema.ensv2Domain,
      schema.ensv2Token,
      schema.ensv2Event,
      schema.ensv2DomainEvent,
      schema.domainListCount,
    ]) {
      expect(tableRows(late, table)).toEqual(tableRows(inPlace, table));
    }
    expect(Object.keys(tableRows(inPlace, schema.ensv2Token)).length).toBe(6);
    // The one batch moving a and c is in both names' histories.
    const batch = Object.values(tableRows(late, schema.ensv2Event)).find((e) => e.eventName === "TransferBatch")!;
    const histories = Object.values(tableRows(late, schema.ensv2DomainEvent))
      .filter((r) => r.eventId === batch.id)
      .map((r) => r.domainId);
    expect(histories.sort()).toEqual(["a", "c"].map((l) => domainIdOf(31337, REGISTRY, id(l, 0n))).sort());
  });
});
