import { type Hex, labelhash, namehash } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  account,
  buildFixture,
  FIXTURE_HEAD,
  FIXTURE_NAMESPACE,
  logVersionAt,
  type Rows,
  withRegistrationOrderKeys,
} from "../../harness/subgraph-fixture/fixture";
import { countingDb, type TestDatabase } from "../../harness/subgraph-fixture/pg";
import { executeOmnigraphRequest, type OmnigraphOptions } from "../../src/api/omnigraph";
import { executeSubgraphRequest } from "../../src/api/subgraph";
import { joinWords } from "../../src/lib/hex-bytes-column";
import { labelhashOf } from "../../src/lib/labels";
import { makeSubnode } from "../../src/lib/names";
import { CHAIN, ETH_REGISTRY, ensv2Rows, OWNER } from "./ensv2-rows";
import { EMITTER, selectorOf, senderOf, timestampOf, withIndexedLogs } from "./indexed-logs";
import { seededOmnigraph } from "./seeded-omnigraph";

/*
 * Same chain, same answers as the peer (issue 41, item 9), over the /subgraph tests' seeded PostgreSQL dataset with a
 * few rows added by hand:
 * - every events list is in log order as numbers (log 997 before 1002 in one block), and a cursor continues exactly
 *   where its page ended, forwards and backwards;
 * - a .eth domain's events include the controller's NameRegistered/NameRenewed (kept in its registrar actions);
 * - a label the label set withheld but a controller revealed is written out in the Omnigraph, and stays `[hash]` in
 *   /subgraph.
 * - every Event field comes from `indexed_log` (no chain here: its rows are made from each log's place,
 *   indexed-logs.ts), and each `where` filter applies.
 */

const ETH = namehash("eth");
const BLOCK = 5_000_000;
const tx = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
const WITHHELD = "withheld";
/** The pre-2020 ENS registry, and the one account whose transactions called it. */
const OLD_REGISTRY = `0x${"0e".repeat(20)}` as const;
const OLD_SENDER = `0x${"5e".repeat(20)}`;
const OLD_KEPT = `${BLOCK + 10}-2`;
const OLD_IGNORED = `${BLOCK + 10}-1`;
/** A label that reads as an encoded labelhash: its own labelhash is keccak256 of these 66 characters, not 0x89cb…. */
const LITERAL_ENCODED = `[89cb${"0".repeat(60)}]`;

let t: TestDatabase;
let options: OmnigraphOptions;
let internalErrors: unknown[] = [];
let dotEth: { id: string; name: string; registrationId: string };
let hidden: { id: string; parentName: string };
let literal: { id: string; hash: `0x${string}`; parentName: string };
let v2DomainId: string;
let wrapped: string;

function addRows(rows: Rows): Rows {
  const d = rows.domain!.find((x) => x.parentId === ETH && typeof x.labelName === "string" && x.labelName !== "")!;
  dotEth = { id: d.id as string, name: d.name as string, registrationId: d.labelhash as string };
  // One block whose logs 98, 997 and 1002 are about the domain: the text ids sort 1002 < 98 < 997.
  for (const [i, log] of [1002, 98, 997].entries())
    rows.new_ttl!.push({
      id: `${BLOCK}-${log}`,
      blockNumber: BLOCK,
      transactionID: tx(i + 1),
      logVersion: logVersionAt(BLOCK, log),
      domainId: d.id,
      ttl: 60n,
    });
  // A registration and a renewal, each with the controller's event merged into its registrar action.
  const action = (id: string, controllerId: string, type: "registration" | "renewal", block: number) => ({
    id,
    type,
    node: d.id,
    parentNode: ETH,
    subregistryId: `31337-0x${"57".repeat(20)}`,
    chainId: 31337,
    incrementalDuration: 31_536_000n,
    registrant: account(0),
    baseCost: null,
    premium: null,
    total: null,
    encodedReferrer: null,
    decodedReferrer: null,
    withReferral: false,
    blockNumber: BigInt(block),
    blockTimestamp: 1_700_000_000n,
    logIndex: Number(id.split("-")[1]),
    transactionHash: tx(block),
    eventIds: [id, controllerId],
  });
  rows.registrar_action = [
    action(`${BLOCK + 1}-9`, `${BLOCK + 1}-12`, "registration", BLOCK + 1),
    action(`${BLOCK + 2}-3`, `${BLOCK + 2}-4`, "renewal", BLOCK + 2),
  ];
  rows.name_registered!.push({
    id: `${BLOCK + 1}-9`,
    blockNumber: BLOCK + 1,
    transactionID: tx(BLOCK + 1),
    logVersion: logVersionAt(BLOCK + 1, 9),
    registrationId: dotEth.registrationId,
    registrantId: account(0),
    expiryDate: 1_800_000_000n,
  });
  // Registered again later, twice in one block (logs 997 and 1002): the registration's event is the later log.
  for (const log of [1002, 997])
    rows.name_registered!.push({
      id: `${BLOCK + 4}-${log}`,
      blockNumber: BLOCK + 4,
      transactionID: tx(BLOCK + 4),
      logVersion: logVersionAt(BLOCK + 4, log),
      registrationId: dotEth.registrationId,
      registrantId: account(0),
      expiryDate: 1_900_000_000n,
    });
  rows.name_renewed!.push({
    id: `${BLOCK + 2}-3`,
    blockNumber: BLOCK + 2,
    transactionID: tx(BLOCK + 2),
    logVersion: logVersionAt(BLOCK + 2, 3),
    registrationId: dotEth.registrationId,
    expiryDate: 1_900_000_000n,
  });

  // A NameWrapper TransferBatch: one log, its transfers sub-indexed 0, 9 and 10 (text order: 0, 10, 9).
  const w = rows.wrapped_domain![0]!;
  wrapped = w.domainId as string;
  for (const sub of [10, 0, 9])
    rows.wrapped_transfer!.push({
      id: `${BLOCK + 3}-5-${sub}`,
      blockNumber: BLOCK + 3,
      transactionID: tx(BLOCK + 3),
      logVersion: logVersionAt(BLOCK + 3, 5),
      domainId: wrapped,
      ownerId: account(1),
    });

  // `withheld` is not in the label set: `[hash].<name>.eth` until withheld.eth's controller published it.
  const h = labelhash(WITHHELD);
  hidden = { id: makeSubnode(d.id as `0x${string}`, h), parentName: d.name as string };
  rows.domain!.push({
    id: hidden.id,
    name: `[${h.slice(2)}].${d.name}`,
    labelName: null,
    labelhash: h,
    parentId: d.id,
    subdomainCount: 0,
    ownerId: account(1),
    createdAt: 1_700_000_000n,
    isMigrated: true,
  });
  // A controller also revealed `[89cb…]` as a label (a literal, not an encoding): it is not shown, as anything else
  // that is not a normalized label; the name keeps the encoding of the label's own labelhash.
  const lh = labelhashOf(LITERAL_ENCODED);
  literal = { id: makeSubnode(d.id as `0x${string}`, lh), hash: lh, parentName: d.name as string };
  rows.domain!.push({
    id: literal.id,
    name: `[${lh.slice(2)}].${d.name}`,
    labelName: null,
    labelhash: lh,
    parentId: d.id,
    subdomainCount: 0,
    ownerId: account(1),
    createdAt: 1_700_000_000n,
    isMigrated: true,
  });
  rows.registration_lifecycle = [WITHHELD, LITERAL_ENCODED].map((label) => ({
    id: makeSubnode(ETH, labelhashOf(label)),
    subregistryId: `31337-0x${"57".repeat(20)}`,
    parentNode: ETH,
    labelhash: labelhashOf(label),
    label,
    expiresAt: 1_900_000_000n,
  }));

  // ENSv2: a domain's events and a contract's role changes, in one block, logs 1002, 98 and 997.
  const v2 = rows.ensv2_domain![0]!;
  v2DomainId = v2.id as string;
  const permission = rows.ensv2_permission!.find((p) => p.domainId === v2DomainId)!;
  const log = (l: number) => ({
    id: `${BLOCK}-${l}`,
    chainId: CHAIN,
    blockNumber: BigInt(BLOCK),
    blockTimestamp: 1_700_000_000n,
    logIndex: l,
    transactionHash: tx(l),
  });
  rows.ensv2_event = [1002, 98, 997].map((l) => ({
    ...log(l),
    contract: ETH_REGISTRY,
    eventName: "ExpiryUpdated",
    args: {},
  }));
  rows.ensv2_domain_event = rows.ensv2_event.map((e) => ({
    domainId: v2DomainId,
    eventId: e.id,
    chainId: e.chainId,
    blockNumber: e.blockNumber,
    logIndex: e.logIndex,
  }));
  rows.ensv2_permission_change = [1002, 98, 997].map((l) => ({
    ...log(l),
    contract: ETH_REGISTRY,
    resource: permission.resource,
    account: OWNER,
    oldRoles: 0n,
    newRoles: 1n,
    domainId: v2DomainId,
    permissionId: permission.id,
    contractId: `${CHAIN}-${ETH_REGISTRY}`,
  }));
  // The old registry, through one sender: a NewTTL the subgraph's handlers kept (its node had not migrated) and a
  // Transfer they left out (the registry with fallback held the node by then; the chain ignores it).
  rows.new_ttl!.push({
    id: OLD_KEPT,
    blockNumber: BLOCK + 10,
    transactionID: tx(BLOCK + 10),
    logVersion: logVersionAt(BLOCK + 10, Number(OLD_KEPT.split("-")[1])),
    domainId: hidden.id,
    ttl: 60n,
  });
  const withLogs = withIndexedLogs(withRegistrationOrderKeys(rows), FIXTURE_NAMESPACE.datasources.ensroot!.chain.id);
  const kept = withLogs.indexed_log!.find((l) => l.blockNumber === BigInt(BLOCK + 10) && l.logIndex === 2)!;
  Object.assign(kept, { address: OLD_REGISTRY, transactionTo: OLD_REGISTRY, transactionFrom: OLD_SENDER });
  withLogs.indexed_log!.push({ ...kept, logIndex: 1, topics: joinWords([selectorOf("transfer"), hidden.id as Hex]) });
  return withLogs;
}

beforeAll(async () => {
  ({ t, options, internalErrors } = await seededOmnigraph(
    "og_parity",
    addRows({ ...buildFixture({ secondLevel: 30, accounts: 4 }), ...ensv2Rows() }),
  ));
  // The revealed labels are looked up under the namespace's managed names: give `eth` its base registrar.
  options = {
    ...options,
    namespace: {
      ...FIXTURE_NAMESPACE,
      datasources: {
        ensroot: {
          ...FIXTURE_NAMESPACE.datasources.ensroot!,
          contracts: {
            ...FIXTURE_NAMESPACE.datasources.ensroot!.contracts,
            BaseRegistrar: { address: `0x${"57".repeat(20)}`, startBlock: 0 },
            RegistryOld: { address: OLD_REGISTRY, startBlock: 0 },
          },
        },
      },
    },
  };
}, 120_000);

afterAll(async () => {
  await t?.drop();
});

async function run(query: string, variables: Record<string, unknown> = {}) {
  const r = await executeOmnigraphRequest({ query, variables }, options);
  expect(r.body.errors).toBeUndefined();
  return r.body.data as any;
}

type Page = {
  totalCount: number;
  edges: { cursor: string; node: { id: string; logIndex: number; blockNumber: string } }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string; endCursor: string };
};
const EVENTS = `totalCount edges { cursor node { id logIndex blockNumber } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }`;

/** Positions as numbers, in list order. */
const positions = (p: Page) => p.edges.map((e) => [Number(e.node.blockNumber), e.node.logIndex]);
const isLogOrder = (pos: number[][]) =>
  pos.every((p, i) => i === 0 || p[0]! > pos[i - 1]![0]! || (p[0] === pos[i - 1]![0] && p[1]! > pos[i - 1]![1]!));

/** Walks a list two at a time forwards and backwards: both walks give the whole list, in its order. */
async function walk(read: (args: string) => Promise<Page>): Promise<void> {
  const all = await read("first: 1000");
  const forward: string[] = [];
  for (let after: string | null = null, more = true; more; ) {
    const page: Page = await read(after ? `first: 2, after: "${after}"` : "first: 2");
    forward.push(...page.edges.map((e) => e.node.id));
    more = page.pageInfo.hasNextPage;
    after = page.pageInfo.endCursor;
  }
  const backward: string[] = [];
  for (let before: string | null = null, more = true; more; ) {
    const page: Page = await read(before ? `last: 2, before: "${before}"` : "last: 2");
    backward.unshift(...page.edges.map((e) => e.node.id));
    more = page.pageInfo.hasPreviousPage;
    before = page.pageInfo.startCursor;
  }
  expect(forward).toEqual(all.edges.map((e) => e.node.id));
  expect(backward).toEqual(forward);
}

describe("/api/omnigraph events, as the peer lists them", () => {
  it("orders an ENSv1 domain's events by block and log index as numbers, and pages on from a cursor", async () => {
    const read = async (args: string) =>
      (
        await run(`query($id: DomainId!) { domain(by: { id: $id }) { events(${args}) { ${EVENTS} } } }`, {
          id: dotEth.id,
        })
      ).domain.events as Page;
    const all = await read("first: 100");
    expect(isLogOrder(positions(all))).toBe(true);
    const inBlock = all.edges.filter((e) => Number(e.node.blockNumber) === BLOCK).map((e) => e.node.logIndex);
    expect(inBlock).toEqual([98, 997, 1002]);
    // A page that ends at log 98 continues with 997, then 1002.
    const at98 = all.edges.find((e) => e.node.id === `${BLOCK}-98`)!.cursor;
    const next = await read(`first: 2, after: "${at98}"`);
    expect(next.edges.map((e) => e.node.id)).toEqual([`${BLOCK}-997`, `${BLOCK}-1002`]);
    await walk(read);
  });

  it("shows a registration's latest event by log index as a number", async () => {
    const data = await run(`query($id: DomainId!) { domain(by: { id: $id }) { registration { event { id } } } }`, {
      id: dotEth.id,
    });
    expect(data.domain.registration.event.id).toBe(`${BLOCK + 4}-1002`);
  });

  it("orders the transfers of one ERC-1155 batch by their sub-index as numbers", async () => {
    const read = async (args: string) =>
      (
        await run(`query($id: DomainId!) { domain(by: { id: $id }) { events(${args}) { ${EVENTS} } } }`, {
          id: wrapped,
        })
      ).domain.events as Page;
    const ids = (await read("first: 100")).edges.map((e) => e.node.id).filter((id) => id.startsWith(`${BLOCK + 3}-`));
    expect(ids).toEqual([`${BLOCK + 3}-5-0`, `${BLOCK + 3}-5-9`, `${BLOCK + 3}-5-10`]);
    await walk(read);
    expect(internalErrors).toEqual([]);
  });

  it("lists a .eth domain's controller NameRegistered and NameRenewed beside the base registrar's", async () => {
    const data = await run(
      `query($id: DomainId!) { domain(by: { id: $id }) { events(first: 100) { totalCount edges { node { id } } } } }`,
      { id: dotEth.id },
    );
    const ids = data.domain.events.edges.map((e: { node: { id: string } }) => e.node.id);
    // The base registrar's event, then its controller's in the same transaction.
    expect(ids).toContain(`${BLOCK + 1}-12`);
    expect(ids).toContain(`${BLOCK + 2}-4`);
    expect(ids.indexOf(`${BLOCK + 1}-12`)).toBe(ids.indexOf(`${BLOCK + 1}-9`) + 1);
    expect(ids.indexOf(`${BLOCK + 2}-4`)).toBe(ids.indexOf(`${BLOCK + 2}-3`) + 1);
    expect(data.domain.events.totalCount).toBe(ids.length);
  });

  it("orders ENSv2 domain, Permissions and PermissionsUser events the same way", async () => {
    const domainEvents = async (args: string) =>
      (
        await run(`query($id: DomainId!) { domain(by: { id: $id }) { events(${args}) { ${EVENTS} } } }`, {
          id: v2DomainId,
        })
      ).domain.events as Page;
    const contract = { chainId: CHAIN, address: ETH_REGISTRY };
    const contractEvents = async (args: string) =>
      (
        await run(
          `query($c: AccountIdInput!) { permissions(by: { contract: $c }) { events(${args}) { ${EVENTS} } } }`,
          { c: contract },
        )
      ).permissions.events as Page;
    const userEvents = async (args: string) =>
      (
        await run(
          `query($id: DomainId!) { domain(by: { id: $id }) { ... on ENSv2Domain { permissions(first: 1) { edges { node { events(${args}) { ${EVENTS} } } } } } } }`,
          { id: v2DomainId },
        )
      ).domain.permissions.edges[0].node.events as Page;
    for (const read of [domainEvents, contractEvents, userEvents]) {
      const all = await read("first: 100");
      expect(all.edges.map((e) => e.node.logIndex)).toEqual([98, 997, 1002]);
      await walk(read);
    }
  });

  it("answers every Event field from the index", async () => {
    const data = await run(
      `query($id: DomainId!) { domain(by: { id: $id }) { events(first: 100) { edges { node { id chainId blockNumber logIndex blockHash transactionHash transactionIndex from sender to address topics data timestamp } } } } }`,
      { id: dotEth.id },
    );
    const e = data.domain.events.edges.find((x: any) => x.node.id === `${BLOCK}-98`).node;
    expect(e).toMatchObject({
      chainId: FIXTURE_NAMESPACE.datasources.ensroot!.chain.id,
      blockNumber: String(BLOCK),
      logIndex: 98,
      transactionHash: tx(2),
      from: senderOf(98),
      sender: senderOf(98),
      to: EMITTER,
      address: EMITTER,
      topics: [selectorOf("new_ttl"), `0x${(98).toString(16).padStart(64, "0")}`],
      timestamp: String(timestampOf(BigInt(BLOCK))),
    });
    // A registration's event (not a list's) reads its facts by position.
    const reg = await run(
      `query($id: DomainId!) { domain(by: { id: $id }) { registration { event { topics from } } } }`,
      {
        id: dotEth.id,
      },
    );
    expect(reg.domain.registration.event).toEqual({
      topics: [selectorOf("name_registered"), expect.any(String)],
      from: senderOf(1002),
    });
  });

  it("applies each `where` filter of a domain's events", async () => {
    const ids = async (where: string) =>
      (
        await run(
          `query($id: DomainId!) { domain(by: { id: $id }) { events(first: 100, where: ${where}) { totalCount edges { node { id topics from timestamp } } } } }`,
          {
            id: dotEth.id,
          },
        )
      ).domain.events as {
        totalCount: number;
        edges: { node: { id: string; topics: string[]; from: string; timestamp: string } }[];
      };
    const all = await ids("{}");
    const ttl = await ids(`{ selector: { eq: "${selectorOf("new_ttl")}" } }`);
    expect(ttl.edges.length).toBeGreaterThanOrEqual(3);
    expect(ttl.edges.every((e) => e.node.topics[0] === selectorOf("new_ttl"))).toBe(true);
    expect(ttl.totalCount).toBe(all.edges.filter((e) => e.node.topics[0] === selectorOf("new_ttl")).length);
    const from = await ids(`{ from: { in: ["${senderOf(98)}", "${senderOf(997)}"] } }`);
    expect(from.edges.map((e) => e.node.id)).toEqual(
      all.edges.filter((e) => [senderOf(98), senderOf(997)].includes(e.node.from)).map((e) => e.node.id),
    );
    const sender = await ids(`{ sender: { eq: "${senderOf(98)}" } }`);
    expect(sender.edges.every((e) => e.node.from === senderOf(98))).toBe(true);
    expect(sender.edges.length).toBeGreaterThan(0);
    const t = timestampOf(BigInt(BLOCK + 1));
    const later = await ids(`{ timestamp: { gte: "${t}", lt: "${t + 3n}" } }`);
    expect(later.edges.map((e) => e.node.id)).toEqual(
      all.edges.filter((e) => BigInt(e.node.timestamp) >= t && BigInt(e.node.timestamp) < t + 3n).map((e) => e.node.id),
    );
    expect(later.edges.length).toBeGreaterThan(0);
    expect((await ids(`{ from: { in: [] } }`)).totalCount).toBe(0);
  });

  it("refuses a `where.from.in` of more than 10 addresses, as the peer", async () => {
    const many = Array.from({ length: 11 }, (_, i) => `"${account(i)}"`).join(", ");
    const r = await executeOmnigraphRequest(
      {
        query: `query($id: DomainId!) { domain(by: { id: $id }) { events(where: { from: { in: [${many}] } }) { totalCount } } }`,
        variables: { id: dotEth.id },
      },
      options,
    );
    expect(r.status).toBe(200);
    expect(r.body.errors?.[0]?.message).toBe("`where.from.in` takes at most 10 values, got 11");
    expect(internalErrors).toEqual([]);
  });

  it("lists an account's events, as the sender of their transactions, in log order", async () => {
    const who = senderOf(98);
    const read = async (args: string) =>
      (await run(`query($a: Address!) { account(by: { address: $a }) { events(${args}) { ${EVENTS} } } }`, { a: who }))
        .account.events as Page;
    const all = await read("first: 1000");
    const expected = (
      await t.pool.query(`select count(*)::int as n from indexed_log where transaction_from = decode($1, 'hex')`, [
        who.slice(2),
      ])
    ).rows[0].n;
    expect(all.totalCount).toBe(expected);
    expect(all.edges.length).toBe(expected);
    // Across chains one position may come twice (one log per chain): never backwards.
    const pos = positions(all);
    expect(
      pos.every((p, i) => i === 0 || p[0]! > pos[i - 1]![0]! || (p[0] === pos[i - 1]![0] && p[1]! >= pos[i - 1]![1]!)),
    ).toBe(true);
    await walk(read);
    const data = await run(
      `query($a: Address!) { account(by: { address: $a }) { events(first: 5, where: { selector: { eq: "${selectorOf("new_ttl")}" } }) { edges { node { from topics } } } } }`,
      { a: who },
    );
    expect(data.account.events.edges.length).toBeGreaterThan(0);
    for (const e of data.account.events.edges)
      expect(e.node).toMatchObject({ from: who, topics: [selectorOf("new_ttl"), expect.any(String)] });
  });

  it("leaves out of an account's events the old registry's logs on a node that had migrated, as a domain's events do", async () => {
    const ids = (page: Page) => page.edges.map((e) => e.node.id);
    const account = (
      await run(`query($a: Address!) { account(by: { address: $a }) { events(first: 100) { ${EVENTS} } } }`, {
        a: OLD_SENDER,
      })
    ).account.events as Page;
    const domain = (
      await run(`query($id: DomainId!) { domain(by: { id: $id }) { events(first: 100) { ${EVENTS} } } }`, {
        id: hidden.id,
      })
    ).domain.events as Page;
    expect(ids(domain)).toContain(OLD_KEPT);
    expect(ids(domain)).not.toContain(OLD_IGNORED);
    expect(ids(account)).toEqual([OLD_KEPT]);
    expect(account.totalCount).toBe(1);
  });

  it("refuses a cursor of another shape", async () => {
    const r = await executeOmnigraphRequest(
      {
        query: `query($id: DomainId!, $c: String!) { domain(by: { id: $id }) { events(after: $c) { totalCount } } }`,
        variables: { id: dotEth.id, c: Buffer.from(JSON.stringify([BLOCK, `${BLOCK}-98`])).toString("base64url") },
      },
      options,
    );
    expect(r.body.errors?.[0]?.message).toMatch(/^Invalid cursor/);
  });
});

describe("labels a controller revealed", () => {
  it("name a domain in the Omnigraph, while /subgraph keeps The Graph's `[labelhash]`", async () => {
    const data = await run(
      `query($id: DomainId!) { domain(by: { id: $id }) { label { interpreted hash } canonical { name { interpreted } path { label { interpreted } } } } }`,
      { id: hidden.id },
    );
    expect(data.domain.label).toEqual({ interpreted: WITHHELD, hash: labelhash(WITHHELD) });
    expect(data.domain.canonical.name.interpreted).toBe(`${WITHHELD}.${hidden.parentName}`);
    expect(data.domain.canonical.path.at(-1).label.interpreted).toBe(WITHHELD);

    const subgraph = await executeSubgraphRequest(
      { query: `query($id: ID!) { domain(id: $id) { name labelName } }`, variables: { id: hidden.id } },
      {
        db: countingDb(t),
        getMeta: async () => ({ block: FIXTURE_HEAD, deployment: "nameindex-test", hasIndexingErrors: false }),
        onError: (e: unknown) => internalErrors.push(e),
      },
    );
    expect(subgraph.body.data).toEqual({
      domain: { name: `[${labelhash(WITHHELD).slice(2)}].${hidden.parentName}`, labelName: null },
    });
    expect(internalErrors).toEqual([]);
  });

  it("encode a revealed label that reads as an encoded labelhash by its own labelhash", async () => {
    const data = await run(
      `query($id: DomainId!) { domain(by: { id: $id }) { label { interpreted hash } canonical { name { interpreted } path { label { interpreted } } } } }`,
      { id: literal.id },
    );
    const encoded = `[${literal.hash.slice(2)}]`;
    expect(data.domain.label).toEqual({ interpreted: encoded, hash: literal.hash });
    expect(data.domain.canonical.name.interpreted).toBe(`${encoded}.${literal.parentName}`);
    expect(data.domain.canonical.path.at(-1).label.interpreted).toBe(encoded);
    // The name as stored, `[own hash].<parent>`, finds it.
    const byName = await run(`query($n: InterpretedName!) { domain(by: { name: $n }) { id } }`, {
      n: `${encoded}.${literal.parentName}`,
    });
    expect(byName.domain?.id).toBe(literal.id);
  });

  it("are the label that resolution and the name filter read: `resolve` resolves the name as shown, `eq` finds it", async () => {
    const shown = `${WITHHELD}.${hidden.parentName}`;
    const resolvedName = async (id: string) => {
      const data = await run(
        `query($id: DomainId!) { domain(by: { id: $id }) { canonical { name { interpreted } } resolve { trace } } }`,
        { id },
      );
      // The root span of the resolution names the name it resolved.
      return {
        canonical: data.domain.canonical.name.interpreted,
        resolved: data.domain.resolve.trace?.[0]?.attributes.name,
      };
    };
    expect(await resolvedName(hidden.id)).toEqual({ canonical: shown, resolved: shown });
    // A label stored unnormalized (a subgraph-compatible index keeps it) is shown, and resolved, as its labelhash.
    const mixed = await t.pool.query<{ id: string; labelhash: string }>(
      "select id, labelhash from domain where label_name like 'Mixed%' and parent_id = $1 limit 1",
      [ETH],
    );
    const encoded = `[${mixed.rows[0]!.labelhash.slice(2)}].eth`;
    expect(await resolvedName(mixed.rows[0]!.id)).toEqual({ canonical: encoded, resolved: encoded });
    // `eq` and `in` match by node: the shown name finds the domain, as its stored `[labelhash]` form does.
    for (const name of [shown, `[${labelhash(WITHHELD).slice(2)}].${hidden.parentName}`]) {
      const found = await run(
        `query($p: InterpretedName!, $n: InterpretedName!) { domain(by: { name: $p }) { subdomains(where: { name: { eq: $n } }) { edges { node { id } } } } }`,
        { p: hidden.parentName, n: name },
      );
      expect(found.domain.subdomains.edges.map((e: any) => e.node.id)).toEqual([hidden.id]);
    }
    expect(internalErrors).toEqual([]);
  });

  it("leave a label nobody revealed encoded", async () => {
    const data = await run(
      `{ domain(by: { name: "eth" }) { subdomains(first: 100) { edges { node { label { interpreted hash } } } } } }`,
    );
    const encoded = data.domain.subdomains.edges.filter((e: any) => e.node.label.interpreted.startsWith("["));
    expect(encoded.length).toBeGreaterThan(0);
    for (const e of encoded) expect(e.node.label.interpreted).toBe(`[${e.node.label.hash.slice(2)}]`);
  });
});
