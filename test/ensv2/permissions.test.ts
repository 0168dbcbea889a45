import { type Address, type Hex, keccak256, stringToBytes, zeroAddress } from "viem";
import { beforeEach, describe, expect, it, vi } from "vitest";
import * as schema from "../../ponder.schema";
import { FakeStore, type RowsHandedOut } from "../lib/fake-store";

// The logic imports Ponder's virtual schema module; here it is the schema file itself.
vi.mock("ponder:schema", () => import("../../ponder.schema"));

const { setHandlerSettings } = await import("../../src/plugins/shared/ens-handlers/context");
const { setEnsv2Anchors } = await import("../../src/plugins/ensv2/lib/context");
const {
  labelRegisteredOrReserved,
  labelUnregistered,
  setOnDomain,
  subregistryUpdated,
  tokenIdValues,
  tokensTransferred,
} = await import("../../src/plugins/ensv2/lib/lifecycle");
const { rolesChanged } = await import("../../src/plugins/ensv2/lib/permissions");
const { permissionId, withVersion } = await import("../../src/lib/ensv2-ids");

/*
 * ENSv2 permissions as `roles(anyId, account)` reads them (contracts-v2 PermissionedRegistry): a name's roles live on
 * its current EAC resource, which a re-registration or reservation over a token that still has a holder, and an
 * unregistration, move to the next version; a regeneration keeps it. An entry on a resource the name has left must
 * read zero (test/ensv2/chain-truth.system.test.ts checks the same on the devnet against the chain).
 */

const ROOT = "0x00000000000000000000000000000000000000aa" as Address;
const ETH = "0x00000000000000000000000000000000000000bb" as Address;
const [ALICE, BOB, FRIEND] = [
  "0x70997970c51812dc3a010c7d01b50e0d17dc79c8",
  "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
  "0x90f79bf6eb2c4f870365e785982e1f101e93b906",
] as Address[];
const ROLES = 123n;
const labelhash = (l: string) => keccak256(stringToBytes(l));

let store: FakeStore;
let block = 0;
const context = () => ({ db: store.db as never, chain: { id: 31337 } });
const event = <A>(address: Address, args: A) => {
  block++;
  return {
    args,
    block: { number: BigInt(block), timestamp: BigInt(1_000 + block) },
    log: { logIndex: 0, address },
    transaction: { hash: keccak256(stringToBytes(`tx${block}`)) as Hex, from: ALICE },
  };
};
const id = (label: string, version: bigint) => withVersion(BigInt(labelhash(label)), version);
const register = (label: string, version: bigint, owner: Address | undefined) =>
  labelRegisteredOrReserved(
    context(),
    event(ETH, {
      tokenId: id(label, version),
      labelHash: labelhash(label),
      label,
      expiry: 10_000_000n,
      sender: ALICE,
      ...(owner ? { owner } : {}),
    }),
  );
/** The registry's burn of a token (its TransferSingle to zero), which comes before the event that burnt it. */
const burn = (tokenId: bigint) =>
  tokensTransferred(context(), event(ETH, {}), [{ id: tokenId, value: 1n }], zeroAddress);
const grant = (resource: bigint, account: Address, from: bigint, to: bigint) =>
  rolesChanged(context(), event(ETH, { resource, account, oldRoleBitmap: from, newRoleBitmap: to }));
const roles = (resource: bigint, account: Address) =>
  store.get(schema.ensv2Permission, permissionId(31337, ETH, resource, account))?.roles as bigint | undefined;

describe.each(["views", "copies"] as RowsHandedOut[])("ensv2 permissions as roles() reads them (%s)", (handsOut) => {
  beforeEach(async () => {
    store = new FakeStore(handsOut);
    block = 0;
    setHandlerSettings({
      isSubgraphCompatible: false,
      labelMode: "normalized",
      ensRootChainId: 31337,
      heal: async () => null,
      noteBlock: () => {},
    });
    setEnsv2Anchors({ rootRegistry: ROOT, ethRegistry: ETH });
    await labelRegisteredOrReserved(
      context(),
      event(ROOT, {
        tokenId: BigInt(labelhash("eth")),
        labelHash: labelhash("eth"),
        label: "eth",
        owner: ALICE,
        expiry: 10_000_000n,
        sender: ALICE,
      }),
    );
    await subregistryUpdated(context(), event(ROOT, { tokenId: BigInt(labelhash("eth")), subregistry: ETH }));
  });

  it("zeroes the old resource's entries when an expired name is registered again, and lists the new one's", async () => {
    await register("foo", 0n, ALICE);
    await grant(id("foo", 0n), ALICE, 0n, ROLES);
    await grant(id("foo", 0n), FRIEND, 0n, 1n);
    // A regeneration (a role change burns and re-mints the token) keeps the resource and its roles.
    await setOnDomain(context(), event(ETH, {}), id("foo", 1n), tokenIdValues(id("foo", 1n)));
    expect([roles(id("foo", 0n), ALICE), roles(id("foo", 0n), FRIEND)]).toEqual([ROLES, 1n]);
    // Expired, then registered to Bob: the token still had a holder, whom the registry burns first; token version
    // 1 → 2, resource version 0 → 1.
    await burn(id("foo", 1n));
    await register("foo", 2n, BOB);
    await grant(id("foo", 1n), BOB, 0n, ROLES);
    expect([roles(id("foo", 0n), ALICE), roles(id("foo", 0n), FRIEND), roles(id("foo", 1n), BOB)]).toEqual([
      0n,
      0n,
      ROLES,
    ]);
  });

  it("zeroes them when a name is unregistered, or reserved over a holder; not when a reservation is registered", async () => {
    await register("bar", 0n, ALICE);
    await grant(id("bar", 0n), ALICE, 0n, ROLES);
    await labelUnregistered(context(), event(ETH, { tokenId: id("bar", 0n) }));
    await burn(id("bar", 0n));
    expect(roles(id("bar", 0n), ALICE)).toBe(0n);

    await register("baz", 0n, ALICE);
    await grant(id("baz", 0n), ALICE, 0n, ROLES);
    // Expired and reserved by the registrar: the holder's token is burnt, the resource moves on.
    await burn(id("baz", 0n));
    await register("baz", 1n, undefined);
    expect(roles(id("baz", 0n), ALICE)).toBe(0n);
    // The reservation registered (no holder before it): the resource stays, and so do the roles granted on it.
    await register("baz", 1n, BOB);
    await grant(id("baz", 1n), BOB, 0n, ROLES);
    await register("qux", 0n, undefined);
    await register("qux", 0n, BOB);
    await grant(id("qux", 0n), BOB, 0n, ROLES);
    expect([roles(id("baz", 1n), BOB), roles(id("qux", 0n), BOB)]).toEqual([ROLES, ROLES]);
  });
});
