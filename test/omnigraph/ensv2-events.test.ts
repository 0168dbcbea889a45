import {
  type Abi,
  type Address,
  encodeAbiParameters,
  encodeEventTopics,
  getAbiItem,
  type Hex,
  keccak256,
  labelhash,
  stringToBytes,
  toEventSelector,
  zeroAddress,
} from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Ensv2EthRegistrarAbi, Ensv2RegistryAbi } from "../../abis/ensv2";
import {
  peerCookbook,
  peerCookbookResponses,
  peerOmnigraphPresent,
  skipWithoutPeerOmnigraph,
} from "../../harness/peer-omnigraph";
import type { Rows } from "../../harness/subgraph-fixture/fixture";
import type { TestDatabase } from "../../harness/subgraph-fixture/pg";
import type { OmnigraphOptions } from "../../src/api/omnigraph";
import { executeOmnigraphRequest } from "../../src/api/omnigraph";
import { FakeStore } from "../lib/fake-store";
import { seededOmnigraph } from "./seeded-omnigraph";

/*
 * `ENSv2Domain.events` from the ensv2 plugin's own handlers, as Ponder loads them (sepolia-v2's addresses, `ponder.on`
 * captured, the store in memory, then seeded into PostgreSQL): logs encoded here with the registries' and the
 * registrar's ABIs are played through them, and each name's list is read with the peer's own cookbook query
 * (`domain-events`). What the peer answers in these cases is what its handlers (ENSNode at the commit in
 * ../shared/peer/omnigraph/SOURCE) write: a registry TransferBatch is in the history of each name whose token it
 * moved (its handler runs the TransferSingle one per id), and the registrar's NameRegistered in the registered
 * name's, as its NameRenewed; each event in the form of the peer's recorded `domain-events` answer (responses.json,
 * mainnet). Where we answer otherwise (ResolverUpdated, TokenResource and EACRolesChanged listed too; `registrant`
 * the owner, not the registry's caller) docs/api.md says why, and the second describe holds it.
 */

const handlers = vi.hoisted(() => new Map<string, (args: { event: unknown; context: unknown }) => Promise<void>>());
vi.mock("ponder:schema", async () => await import("../../ponder.schema"));
vi.mock("ponder:registry", () => ({ ponder: { on: (name: string, fn: never) => handlers.set(name, fn) } }));

const SEPOLIA = 11155111;
// sepolia-v2's fixed ENSv2 contracts (src/namespaces/datasources.json).
const ROOT = "0xc960f7217d3643b525ef36bec8adf86953cd9ab8" as Address;
const ETH_REGISTRY = "0xdedb92913a25abe1f7bcdd85d8a344a43b398b67" as Address;
const REGISTRAR = "0x8c2e866b439358c41ae05de9cbe8a00bfefaffca" as Address;
const ADMIN = "0x00000000000000000000000000000000000ad111" as Address;
const ALICE = "0x00000000000000000000000000000000000a11ce" as Address;
const BOB = "0x0000000000000000000000000000000000000b0b" as Address;
const CAROL = "0x00000000000000000000000000000000000ca201" as Address;
const RESOLVER = "0x0000000000000000000000000000000000000e50" as Address;
const EXPIRY = 4_000_000_000n;

const selector = (name: string, abi: Abi = Ensv2RegistryAbi) => toEventSelector(getAbiItem({ abi, name }) as never);
const tokenOf = (label: string) => BigInt(labelhash(label));

let store: FakeStore;
let block = 0n;
let logIndex = 0;
let transaction: { hash: Hex; from: Address; to: Address; transactionIndex: number };

/** The next transaction, in a block of its own, sent by `from` to `to`. */
function send(from: Address, to: Address): void {
  block += 1n;
  logIndex = 0;
  transaction = { hash: keccak256(stringToBytes(`tx${block}`)), from, to, transactionIndex: 0 };
}

/** Emits `eventName` from `address` in the current transaction, through the handler Ponder would run for it. */
async function emit(
  contract: string,
  address: Address,
  eventName: string,
  args: Record<string, unknown>,
  abi: Abi = Ensv2RegistryAbi,
) {
  const handler = handlers.get(`${contract}:${eventName}`);
  if (!handler) throw new Error(`no handler registered for ${contract}:${eventName}`);
  const item = getAbiItem({ abi, name: eventName }) as { inputs: readonly { name: string; indexed?: boolean }[] };
  const unindexed = item.inputs.filter((i) => !i.indexed);
  const topics = encodeEventTopics({ abi, eventName, args } as never) as Hex[];
  const event = {
    args,
    block: { number: block, timestamp: 1_700_000_000n + block, hash: keccak256(stringToBytes(`block${block}`)) },
    // Ponder keeps four topic slots, null where the log has fewer.
    log: {
      logIndex: logIndex++,
      address,
      topics: [...topics, null, null, null].slice(0, 4),
      data: encodeAbiParameters(unindexed as never, unindexed.map((i) => args[i.name]) as never),
    },
    transaction,
  };
  await handler({ event, context: { db: store.db, chain: { id: SEPOLIA } } });
}

/** A `.eth` name as the registrar registers it: the registry's LabelRegistered and mint, then the price. */
async function registerThroughRegistrar(label: string, owner: Address) {
  send(owner, REGISTRAR);
  const tokenId = tokenOf(label);
  await emit("ensv2/Registry", ETH_REGISTRY, "LabelRegistered", {
    tokenId,
    labelHash: labelhash(label),
    label,
    owner,
    expiry: EXPIRY,
    sender: REGISTRAR,
  });
  await mint(label, owner, REGISTRAR);
  await emit(
    "ensv2/ETHRegistrar",
    REGISTRAR,
    "NameRegistered",
    {
      tokenId,
      label,
      owner,
      subregistry: zeroAddress,
      resolver: zeroAddress,
      duration: 31_536_000n,
      paymentToken: CAROL,
      referrer: `0x${"00".repeat(32)}`,
      base: 5n,
      premium: 0n,
    },
    Ensv2EthRegistrarAbi,
  );
}

const mint = (label: string, to: Address, operator: Address) =>
  emit("ensv2/LinkedRegistry", ETH_REGISTRY, "TransferSingle", {
    operator,
    from: zeroAddress,
    to,
    id: tokenOf(label),
    value: 1n,
  });

let t: TestDatabase;
let options: OmnigraphOptions;
let internalErrors: unknown[] = [];

beforeAll(async () => {
  process.env.NAMESPACE = "sepolia-v2";
  process.env.PLUGINS = "ensv2";
  process.env.RPC_URL_11155111 = "http://127.0.0.1:9";
  process.env.LABELS_SERVICE_URL = "http://127.0.0.1:9";
  const { setHandlerSettings } = await import("../../src/plugins/shared/ens-handlers/context");
  setHandlerSettings({
    isSubgraphCompatible: false,
    labelMode: "normalized",
    ensRootChainId: SEPOLIA,
    heal: async () => null,
    noteBlock: () => {},
  });
  const { register } = await import("../../src/plugins/ensv2/register");
  register();
  store = new FakeStore("copies");

  // `eth` in the root, linked to the ETH registry.
  send(ADMIN, ROOT);
  await emit("ensv2/Registry", ROOT, "LabelRegistered", {
    tokenId: tokenOf("eth"),
    labelHash: labelhash("eth"),
    label: "eth",
    owner: ADMIN,
    expiry: 2n ** 63n,
    sender: ADMIN,
  });
  await emit("ensv2/RootRegistry", ROOT, "TransferSingle", {
    operator: ADMIN,
    from: zeroAddress,
    to: ADMIN,
    id: tokenOf("eth"),
    value: 1n,
  });
  await emit("ensv2/Registry", ROOT, "SubregistryUpdated", {
    tokenId: tokenOf("eth"),
    subregistry: ETH_REGISTRY,
    sender: ADMIN,
  });

  await registerThroughRegistrar("alpha", ALICE);
  await registerThroughRegistrar("beta", ALICE);
  // gamma registered by the registry's admin BOB for ALICE, not through the registrar; delta reserved by BOB.
  send(BOB, ETH_REGISTRY);
  await emit("ensv2/Registry", ETH_REGISTRY, "LabelRegistered", {
    tokenId: tokenOf("gamma"),
    labelHash: labelhash("gamma"),
    label: "gamma",
    owner: ALICE,
    expiry: EXPIRY,
    sender: BOB,
  });
  await mint("gamma", ALICE, BOB);
  await emit("ensv2/Registry", ETH_REGISTRY, "TokenResource", {
    tokenId: tokenOf("gamma"),
    resource: tokenOf("gamma"),
  });
  await emit("ensv2/Registry", ETH_REGISTRY, "EACRolesChanged", {
    resource: tokenOf("gamma"),
    account: ALICE,
    oldRoleBitmap: 0n,
    newRoleBitmap: 1n,
  });
  send(BOB, ETH_REGISTRY);
  await emit("ensv2/Registry", ETH_REGISTRY, "LabelReserved", {
    tokenId: tokenOf("delta"),
    labelHash: labelhash("delta"),
    label: "delta",
    expiry: EXPIRY,
    sender: BOB,
  });
  // ALICE's three names to CAROL in one ERC-1155 batch, then gamma's resolver set.
  send(ALICE, ETH_REGISTRY);
  await emit("ensv2/LinkedRegistry", ETH_REGISTRY, "TransferBatch", {
    operator: ALICE,
    from: ALICE,
    to: CAROL,
    ids: ["alpha", "beta", "gamma"].map(tokenOf),
    values: [1n, 1n, 1n],
  });
  send(CAROL, ETH_REGISTRY);
  await emit("ensv2/Registry", ETH_REGISTRY, "ResolverUpdated", {
    tokenId: tokenOf("gamma"),
    resolver: RESOLVER,
    sender: CAROL,
  });

  const rows: Rows = {};
  for (const [table, byKey] of store.tables) rows[table] = [...byKey.values()];
  ({ t, options, internalErrors } = await seededOmnigraph("og_v2_events", rows));
}, 120_000);

afterAll(async () => {
  await t?.drop();
});

/** The peer's cookbook query for a name's events, or the same selection where its folder is absent. */
const DOMAIN_EVENTS = peerOmnigraphPresent
  ? peerCookbook().find((e) => e.id === "domain-events")!.query
  : `query DomainEvents($name: InterpretedName!) { domain(by: {name: $name}) { events { totalCount edges { node {
      from to topics data timestamp transactionHash } } } } }`;

interface EventNode {
  from: string;
  to: string;
  topics: string[];
  data: string;
  timestamp: string;
  transactionHash: string;
}

async function eventsOf(name: string): Promise<{ totalCount: number; nodes: EventNode[] }> {
  const r = await executeOmnigraphRequest({ query: DOMAIN_EVENTS, variables: { name } }, options);
  expect(r.body.errors, name).toBeUndefined();
  const events = (r.body.data as any).domain.events;
  return { totalCount: events.totalCount, nodes: events.edges.map((e: { node: EventNode }) => e.node) };
}

const kinds = (nodes: EventNode[]) => nodes.map((n) => n.topics[0]);

describe("ENSv2Domain.events: every log of a name's history, as the peer lists it", () => {
  it("lists one TransferBatch moving several names' tokens under each of those names, the same log in each", async () => {
    const batch = selector("TransferBatch");
    const lists = await Promise.all(["alpha.eth", "beta.eth", "gamma.eth"].map(eventsOf));
    const batches = lists.map((l) => l.nodes.filter((n) => n.topics[0] === batch));
    for (const found of batches) expect(found).toHaveLength(1);
    expect(batches[1]).toEqual(batches[0]);
    expect(batches[2]).toEqual(batches[0]);
    // Operator, from and to indexed, as the ERC-1155 log is: one log of ALICE's transaction.
    expect(batches[0]![0]).toMatchObject({
      from: ALICE,
      to: ETH_REGISTRY,
      topics: [batch, ...[ALICE, ALICE, CAROL].map((a) => `0x${a.slice(2).padStart(64, "0")}`)],
    });
    // The names the batch left out keep it out of their lists.
    expect(kinds((await eventsOf("delta.eth")).nodes)).not.toContain(batch);
    expect(kinds((await eventsOf("eth")).nodes)).not.toContain(batch);
    expect(internalErrors).toEqual([]);
  });

  it("lists the registrar's NameRegistered under the name it registered, after the registry's logs of its transaction", async () => {
    for (const name of ["alpha.eth", "beta.eth"]) {
      const { totalCount, nodes } = await eventsOf(name);
      expect(kinds(nodes), name).toEqual([
        selector("LabelRegistered"),
        selector("TransferSingle"),
        selector("NameRegistered", Ensv2EthRegistrarAbi),
        selector("TransferBatch"),
      ]);
      expect(totalCount, name).toBe(nodes.length);
      const registered = nodes[2]!;
      expect(registered).toMatchObject({ from: ALICE, to: REGISTRAR, transactionHash: nodes[0]!.transactionHash });
      expect(registered.topics[1]).toBe(labelhash(name.split(".")[0]!));
    }
    expect(internalErrors).toEqual([]);
  });

  it.skipIf(skipWithoutPeerOmnigraph("the ENSv2 events' form against the peer's recorded domain-events answer"))(
    "answers each event in the form of the peer's recorded domain-events answer",
    async () => {
      const hash = (v: unknown) => /^0x[0-9a-f]{64}$/.test(String(v));
      /** Which of the peer's forms each field has: lower-case hex of its size, a decimal timestamp. */
      const formOf = (node: Record<string, unknown>) => ({
        fields: Object.keys(node).sort(),
        from: /^0x[0-9a-f]{40}$/.test(String(node.from)),
        to: /^0x[0-9a-f]{40}$/.test(String(node.to)),
        topics: Array.isArray(node.topics) && node.topics.length > 0 && node.topics.every(hash),
        data: /^0x([0-9a-f]{2})*$/.test(String(node.data)),
        timestamp: /^\d+$/.test(String(node.timestamp)),
        transactionHash: hash(node.transactionHash),
      });
      const answer = peerCookbookResponses()["domain-events"]?.data as any;
      const recorded = answer.domain.events;
      const theirs = recorded.edges.map((e: { node: Record<string, unknown> }) => formOf(e.node));
      const form = theirs[0];
      // The recorded answer has this form throughout, so that ours is held to what the peer answered.
      expect(Object.values(form).every((v) => v !== false)).toBe(true);
      for (const f of theirs) expect(f).toEqual(form);
      for (const name of ["alpha.eth", "gamma.eth"]) {
        const { totalCount, nodes } = await eventsOf(name);
        expect(totalCount).toBe(nodes.length);
        for (const node of nodes) expect(formOf(node as unknown as Record<string, unknown>), name).toEqual(form);
      }
      expect(recorded.totalCount).toBe(recorded.edges.length);
    },
  );
});

describe("ENSv2Domain.events and registrant where we answer otherwise than the peer (docs/api.md)", () => {
  it("lists a name's TokenResource, EACRolesChanged and ResolverUpdated too, in log order", async () => {
    const { nodes } = await eventsOf("gamma.eth");
    expect(kinds(nodes)).toEqual([
      selector("LabelRegistered"),
      selector("TransferSingle"),
      selector("TokenResource"),
      selector("EACRolesChanged"),
      selector("TransferBatch"),
      selector("ResolverUpdated"),
    ]);
  });

  it("answers a registration's registrant as the owner it was registered to, and a reservation's as none", async () => {
    const query = `query($name: InterpretedName!) { domain(by: { name: $name }) { registration { __typename
      registrant { address } event { topics } } } }`;
    const registrantOf = async (name: string) => {
      const r = await executeOmnigraphRequest({ query, variables: { name } }, options);
      expect(r.body.errors, name).toBeUndefined();
      const { event, ...registration } = (r.body.data as any).domain.registration;
      // The registry's caller, which the peer answers as the registrant, is the event's indexed `sender`.
      return { ...registration, sender: `0x${event.topics[3].slice(26)}` };
    };
    // Registered through the registrar (the registry's `sender` the registrar): the peer answers the owner too.
    expect(await registrantOf("alpha.eth")).toEqual({
      __typename: "ENSv2RegistryRegistration",
      registrant: { address: ALICE },
      sender: REGISTRAR,
    });
    // Registered by the registry's admin for ALICE, and reserved by it: the peer answers the `sender`, BOB, for both.
    expect(await registrantOf("gamma.eth")).toEqual({
      __typename: "ENSv2RegistryRegistration",
      registrant: { address: ALICE },
      sender: BOB,
    });
    expect(await registrantOf("delta.eth")).toEqual({
      __typename: "ENSv2RegistryReservation",
      registrant: null,
      sender: BOB,
    });
    expect(internalErrors).toEqual([]);
  });
});
