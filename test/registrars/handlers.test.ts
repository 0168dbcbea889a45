import { type Address, type Hex, keccak256, namehash, stringToBytes } from "viem";
import { beforeEach, describe, expect, it, vi } from "vitest";
import * as schema from "../../ponder.schema";
import { FakeStore } from "./fake-store";

// The handlers import Ponder's virtual schema module; here it is the schema file itself.
vi.mock("ponder:schema", () => import("../../ponder.schema"));

const { controllerEvent, nameRegistered, nameRenewed } = await import("../../src/plugins/registrars/lib/actions");
const { priced, referralOf } = await import("../../src/plugins/shared/registrar-pricing");
const { tokenTransferred } = await import("../../src/plugins/tokenscope/lib/tokens");
const { setHandlerSettings } = await import("../../src/plugins/shared/ens-handlers/context");

const SENDER = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" as Address;
const REGISTRAR = "0x57f1887a8bf19b14fc0df6fd9b2acc9af147ea85" as Address;
const eth = { id: `1-${REGISTRAR}`, chainId: 1, address: REGISTRAR, managedName: "eth", node: namehash("eth") };
const labelhash = (l: string) => keccak256(stringToBytes(l));

let store: FakeStore;
const context = (chainId = 1) => ({ db: store as never, chain: { id: chainId } });
const event = <A>(args: A, o: { block: number; logIndex: number; tx: string; timestamp?: number }) => ({
  args,
  block: { number: BigInt(o.block), timestamp: BigInt(o.timestamp ?? 100 + o.block) },
  log: { logIndex: o.logIndex, address: REGISTRAR },
  transaction: { hash: keccak256(stringToBytes(o.tx)) as Hex, from: SENDER },
});

beforeEach(() => {
  store = new FakeStore();
  // Mainnet's ENS root chain: its event ids are the subgraph's, other chains' get `-<chainId>` appended.
  setHandlerSettings({
    isSubgraphCompatible: false,
    labelMode: "normalized",
    ensRootChainId: 1,
    heal: async () => null,
    noteBlock: () => {},
  });
});

describe("registrar actions in the store", () => {
  it("merges the controller's event of the same name and transaction into the registrar's action", async () => {
    const id = BigInt(labelhash("alice"));
    await nameRegistered(
      context(),
      eth,
      event({ id, expires: 2_000_000n }, { block: 10, logIndex: 2, tx: "t1", timestamp: 1_000_000 }),
    );
    await controllerEvent(context(), eth, event({}, { block: 10, logIndex: 5, tx: "t1" }), {
      source: "LegacyEthRegistrarController:NameRegistered",
      labelhash: labelhash("alice"),
      label: "alice",
      pricing: priced(7n),
      referral: null,
    });
    const [action] = store.rows(schema.registrarAction);
    expect(action).toMatchObject({
      id: "10-2",
      type: "registration",
      node: namehash("alice.eth"),
      parentNode: namehash("eth"),
      incrementalDuration: 1_000_000n,
      registrant: SENDER.toLowerCase(),
      baseCost: 7n,
      premium: 0n,
      total: 7n,
      eventIds: ["10-2", "10-5"],
      withReferral: false,
    });
    expect(store.rows(schema.registrationLifecycle)).toEqual([
      expect.objectContaining({
        id: namehash("alice.eth"),
        label: "alice",
        expiresAt: 2_000_000n,
        subregistryId: eth.id,
      }),
    ]);
    expect(store.rows(schema.subregistry)).toEqual([
      { id: eth.id, chainId: 1, address: REGISTRAR, node: namehash("eth") },
    ]);
  });

  it("ids on another chain than the ENS root chain end in its chain id, as the subgraph tables' event ids", async () => {
    const BASE_REGISTRAR = "0x03c4738ee98ae44591e1a4a4f3cab6641d95dd9a" as Address;
    const base = {
      id: `8453-${BASE_REGISTRAR}`,
      chainId: 8453,
      address: BASE_REGISTRAR,
      managedName: "base.eth",
      node: namehash("base.eth"),
    };
    const id = BigInt(labelhash("alice"));
    await nameRegistered(
      context(8453),
      base,
      event({ id, expires: 2_000_000n }, { block: 10, logIndex: 2, tx: "t1", timestamp: 1_000_000 }),
    );
    await controllerEvent(context(8453), base, event({}, { block: 10, logIndex: 5, tx: "t1" }), {
      source: "RegistrarController:NameRegistered",
      labelhash: labelhash("alice"),
      label: "alice",
      pricing: null,
      referral: null,
    });
    // The same block and log index on the root chain: a distinct action.
    await nameRegistered(
      context(),
      eth,
      event({ id, expires: 2_000_000n }, { block: 10, logIndex: 2, tx: "t2", timestamp: 1_000_000 }),
    );
    expect(store.rows(schema.registrarAction).map((a) => [a.id, a.eventIds, a.node])).toEqual([
      ["10-2-8453", ["10-2-8453", "10-5-8453"], namehash("alice.base.eth")],
      ["10-2", ["10-2"], namehash("alice.eth")],
    ]);
  });

  it("measures a renewal from the previous expiry (the store returns the row it then updates)", async () => {
    const id = BigInt(labelhash("bob"));
    await nameRegistered(context(), eth, event({ id, expires: 5_000n }, { block: 1, logIndex: 0, tx: "r" }));
    await nameRenewed(context(), eth, event({ id, expires: 8_000n }, { block: 2, logIndex: 0, tx: "n1" }));
    await nameRenewed(context(), eth, event({ id, expires: 8_500n }, { block: 3, logIndex: 4, tx: "n2" }));
    const renewals = store.rows(schema.registrarAction).filter((a) => a.type === "renewal");
    expect(renewals.map((a) => [a.id, a.incrementalDuration, a.baseCost])).toEqual([
      ["2-0", 3_000n, null],
      ["3-4", 500n, null],
    ]);
    expect(store.rows(schema.registrationLifecycle)[0]).toMatchObject({ expiresAt: 8_500n });
  });

  it("adds the referral of a renewal-with-referrer event after the controller's price", async () => {
    const id = BigInt(labelhash("carol"));
    await nameRegistered(context(), eth, event({ id, expires: 5_000n }, { block: 1, logIndex: 0, tx: "r" }));
    await nameRenewed(context(), eth, event({ id, expires: 9_000n }, { block: 2, logIndex: 1, tx: "n" }));
    const c = { labelhash: labelhash("carol"), label: "carol" };
    await controllerEvent(context(), eth, event({}, { block: 2, logIndex: 3, tx: "n" }), {
      ...c,
      source: "W:NameRenewed",
      pricing: priced(4n),
      referral: null,
    });
    const referrer = `0x${"0".repeat(24)}3c44cdddb6a900fa2b585dd299e03d12fa4293bc` as Hex;
    await controllerEvent(context(), eth, event({}, { block: 2, logIndex: 4, tx: "n" }), {
      ...c,
      source: "R:RenewalReferred",
      pricing: priced(4n),
      referral: referralOf(referrer),
    });
    const renewal = store.rows(schema.registrarAction).find((a) => a.type === "renewal");
    expect(renewal).toMatchObject({
      baseCost: 4n,
      total: 4n,
      encodedReferrer: referrer,
      decodedReferrer: "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
      withReferral: true,
      eventIds: ["2-1", "2-3", "2-4"],
    });
  });

  it("fails loudly on a controller event without the registrar's event in its transaction", async () => {
    const id = BigInt(labelhash("dave"));
    await nameRegistered(context(), eth, event({ id, expires: 5_000n }, { block: 1, logIndex: 0, tx: "one" }));
    const stray = event({}, { block: 1, logIndex: 9, tx: "another" });
    await expect(
      controllerEvent(context(), eth, stray, {
        source: "LegacyEthRegistrarController:NameRegistered",
        labelhash: labelhash("dave"),
        label: "dave",
        pricing: priced(1n),
        referral: null,
      }),
    ).rejects.toThrow(
      `registrars: LegacyEthRegistrarController:NameRegistered for "dave.eth" (node ${namehash("dave.eth")}) in tx ${stray.transaction.hash} on chain 1 has no base registrar registration or renewal of that name earlier in the transaction`,
    );
  });

  it("fails loudly on a renewal of a name it never saw registered", async () => {
    await expect(
      nameRenewed(
        context(),
        eth,
        event({ id: BigInt(labelhash("erin")), expires: 1n }, { block: 1, logIndex: 0, tx: "x" }),
      ),
    ).rejects.toThrow(
      /NameRenewed of 0x[0-9a-f]{64} .*under eth in tx 0x[0-9a-f]{64} on chain 1, but no registration of it was indexed/,
    );
  });

  it("keeps a controller's label only when it hashes to the registered labelhash", async () => {
    const id = BigInt(labelhash("frank"));
    await nameRegistered(context(), eth, event({ id, expires: 5_000n }, { block: 1, logIndex: 0, tx: "f" }));
    await controllerEvent(context(), eth, event({}, { block: 1, logIndex: 1, tx: "f" }), {
      source: "C:NameRegistered",
      labelhash: labelhash("frank"),
      label: "notfrank",
      pricing: null,
      referral: null,
    });
    expect(store.rows(schema.registrationLifecycle)[0]!.label).toBeNull();
  });

  it("starts a lifecycle over on re-registration after expiry", async () => {
    const id = BigInt(labelhash("gina"));
    await nameRegistered(context(), eth, event({ id, expires: 5_000n }, { block: 1, logIndex: 0, tx: "g1" }));
    await nameRegistered(
      context(),
      eth,
      event({ id, expires: 90_000n }, { block: 50, logIndex: 0, tx: "g2", timestamp: 60_000 }),
    );
    expect(store.rows(schema.registrationLifecycle)).toHaveLength(1);
    expect(store.rows(schema.registrationLifecycle)[0]).toMatchObject({ expiresAt: 90_000n });
    expect(store.rows(schema.registrarAction).map((a) => [a.type, a.incrementalDuration])).toEqual([
      ["registration", 5_000n - 101n],
      ["registration", 30_000n],
    ]);
  });
});

describe("name tokens in the store", () => {
  const ZERO = "0x0000000000000000000000000000000000000000" as Address;
  const tokenId = labelhash("hana");
  const transfer = (to: Address, block: number) =>
    tokenTransferred(context(), event({}, { block, logIndex: 0, tx: `t${block}` }), {
      assetNamespace: "erc721",
      tokenId,
      domainId: namehash("hana.eth"),
      to,
    });

  it("mints, transfers, burns and re-mints one token row", async () => {
    await transfer(SENDER, 1);
    expect(store.rows(schema.nameToken)).toEqual([
      {
        id: `1-${REGISTRAR}-${tokenId}`,
        chainId: 1,
        contract: REGISTRAR,
        tokenId,
        assetNamespace: "erc721",
        domainId: namehash("hana.eth"),
        owner: SENDER.toLowerCase(),
        mintStatus: "minted",
      },
    ]);
    await transfer(REGISTRAR, 2);
    expect(store.rows(schema.nameToken)[0]).toMatchObject({ owner: REGISTRAR, mintStatus: "minted" });
    await transfer(ZERO, 3);
    expect(store.rows(schema.nameToken)[0]).toMatchObject({ owner: ZERO, mintStatus: "burned" });
    await transfer(SENDER, 4);
    expect(store.rows(schema.nameToken)).toHaveLength(1);
    expect(store.rows(schema.nameToken)[0]).toMatchObject({ owner: SENDER.toLowerCase(), mintStatus: "minted" });
  });
});
