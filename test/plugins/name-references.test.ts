import type { Address, Hex } from "viem";
import { beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("ponder:schema", async () => await import("../../ponder.schema"));

import * as schema from "../../ponder.schema";
import { labelhashOf } from "../../src/lib/labels";
import { namehash } from "../../src/lib/names";
import * as registry from "../../src/plugins/protocol-acceleration/lib/registry";
import * as resolver from "../../src/plugins/protocol-acceleration/lib/resolver";
import type { IndexedEvent } from "../../src/plugins/shared/ens-handlers/context";
import { setRootRegistries } from "../../src/plugins/shared/root-registries";
import { FakeStore } from "../lib/fake-store";

/*
 * The name_reference bookkeeping over the protocol-acceleration handlers, on an in-memory store: the registry with
 * fallback's rule (the old registry's resolver counts until the new registry has an owner for the node), records
 * written before the registry points at their resolver, and version bumps. The devnet test covers the rest on chains.
 */

const CURRENT = "0x00000000000000000000000000000000000c0de1" as Address;
const OLD = "0x00000000000000000000000000000000000c0de0" as Address;
const R1 = "0x00000000000000000000000000000000000000a1" as Address;
const R2 = "0x00000000000000000000000000000000000000a2" as Address;
const ALICE = "0x00000000000000000000000000000000000a11ce" as Address;
const BOB = "0x0000000000000000000000000000000000000b0b" as Address;
const OWNER = "0x0000000000000000000000000000000000000123" as Address;
const ZERO = "0x0000000000000000000000000000000000000000" as Address;
const NODE = namehash("alice.eth");

let store: FakeStore;
const context = () => ({ db: store.db as never, chain: { id: 1 } });
const ev = <A>(address: Address, args: A): IndexedEvent<A> => ({
  args,
  block: { number: 1n, timestamp: 1n },
  log: { logIndex: 0, address },
  transaction: { hash: `0x${"ab".repeat(32)}`, from: OWNER },
});

const setAddr = (r: Address, coinType: bigint, a: Hex) =>
  resolver.addressChanged(context(), ev(r, { node: NODE, coinType, newAddress: a }) as never);
const setResolver = (reg: Address, r: Address) =>
  registry.newResolver(context(), ev(reg, { node: NODE, resolver: r }) as never);
const setOwner = (reg: Address, owner: Address) =>
  registry.newOwner(context(), ev(reg, { node: namehash("eth"), label: labelhashOf("alice"), owner }) as never);
const bump = (r: Address) => resolver.versionChanged(context(), ev(r, { node: NODE, newVersion: 1n }) as never);

/** The references as `<address>@<coinType>@<resolver>`. */
const refs = () =>
  [...store.rows(schema.nameReference).values()].map((r) => `${r.address}@${r.coinType}@${r.resolver}`).sort();

beforeEach(() => {
  store = new FakeStore();
  setRootRegistries({ chainId: 1, current: CURRENT, old: OLD });
});

describe("name references", () => {
  it("follows the registry with fallback: the old registry's resolver until the new one writes the node, then its own for good", async () => {
    await setAddr(R1, 60n, ALICE);
    await setOwner(OLD, OWNER);
    await setResolver(OLD, R1);
    expect(refs()).toEqual([`${ALICE}@60@${R1}`]);
    // The new registry creates the node: its own (empty) resolver now answers.
    await setOwner(CURRENT, OWNER);
    expect(refs()).toEqual([]);
    await setAddr(R2, 60n, BOB);
    await setResolver(CURRENT, R2);
    expect(refs()).toEqual([`${BOB}@60@${R2}`]);
    // A zero owner in the new registry (a burn): it keeps its record, and its resolver still answers.
    await registry.transfer(context(), ev(CURRENT, { node: NODE, owner: ZERO }) as never);
    expect(refs()).toEqual([`${BOB}@60@${R2}`]);
    await setOwner(CURRENT, ZERO);
    expect(refs()).toEqual([`${BOB}@60@${R2}`]);
  });

  it("keeps EVM coin types only, moves a record between accounts, and a version bump clears them", async () => {
    await setOwner(CURRENT, OWNER);
    await setResolver(CURRENT, R1);
    await setAddr(R1, 60n, ALICE);
    await setAddr(R1, 0x80000000n | 8453n, ALICE);
    await setAddr(R1, 0n, `0x76a914${ALICE.slice(2)}88ac`);
    await setAddr(R1, 501n, ALICE); // a 20-byte value of a non-EVM coin still points at no account
    expect(refs()).toEqual([`${ALICE}@2147492101@${R1}`, `${ALICE}@60@${R1}`]);
    await resolver.addrChanged(context(), ev(R1, { node: NODE, a: BOB }) as never);
    expect(refs()).toEqual([`${BOB}@60@${R1}`, `${ALICE}@2147492101@${R1}`]);
    await setAddr(R1, 0x80000000n | 8453n, "0x");
    expect(refs()).toEqual([`${BOB}@60@${R1}`]);
    await bump(R1);
    expect(refs()).toEqual([]);
    await setAddr(R1, 60n, ALICE);
    expect(refs()).toEqual([`${ALICE}@60@${R1}`]);
    await setResolver(CURRENT, ZERO);
    expect(refs()).toEqual([]);
  });
});
