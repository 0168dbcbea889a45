import { namehash } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { account, buildFixture, logVersionAt, type Rows } from "../../harness/subgraph-fixture/fixture";
import type { TestDatabase } from "../../harness/subgraph-fixture/pg";
import { executeOmnigraphRequest, type OmnigraphOptions } from "../../src/api/omnigraph";
import { seededOmnigraph } from "./seeded-omnigraph";

/*
 * ENSv1 registrations in full (issue 41, item 4): price, referrer and renewals from the registrars plugin's
 * registrar_action rows, over the /subgraph tests' seeded PostgreSQL dataset with a few names' actions added by hand.
 * No chain: only the events' indexed fields are read.
 */

const BLOCK = 6_000_000;
const tx = (n: number) => `0x${n.toString(16).padStart(64, "0")}`;
const REFERRER = `0x${"00".repeat(12)}${"7e".repeat(20)}`;
const OTHER_REFERRER = `0x${"ab".repeat(32)}`;

let t: TestDatabase;
let options: OmnigraphOptions;
let internalErrors: unknown[] = [];
/** Names by role: `first` registered once more later, `again` re-registered, `unpriced` without a controller. */
const names: Record<"first" | "again" | "unpriced", string> = { first: "", again: "", unpriced: "" };

type Price = { baseCost: bigint | null; premium: bigint | null; referrer: string | null };
const NO_PRICE: Price = { baseCost: null, premium: null, referrer: null };

function addRows(rows: Rows): Rows {
  const eth = rows.domain!.filter((d) => d.parentId === namehash("eth") && typeof d.labelName === "string");
  const [first, again, unpriced] = eth.slice(0, 3).map((d) => ({
    id: d.id as string,
    name: d.name as string,
    registrationId: d.labelhash as string,
  }));
  names.first = first!.name;
  names.again = again!.name;
  names.unpriced = unpriced!.name;
  rows.registrar_action = [];
  const action = (
    node: string,
    type: "registration" | "renewal",
    block: number,
    log: number,
    price: Price,
    duration = 31_536_000n,
  ) =>
    rows.registrar_action!.push({
      id: `${block}-${log}`,
      type,
      node,
      parentNode: rows.domain!.find((d) => d.id === node)!.parentId,
      subregistryId: `31337-0x${"57".repeat(20)}`,
      chainId: 31337,
      incrementalDuration: duration,
      registrant: account(0),
      baseCost: price.baseCost,
      premium: price.premium,
      total: price.baseCost === null ? null : price.baseCost + (price.premium ?? 0n),
      encodedReferrer: price.referrer,
      decodedReferrer: price.referrer ? `0x${price.referrer.slice(26)}` : null,
      withReferral: price.referrer !== null,
      blockNumber: BigInt(block),
      blockTimestamp: 1_700_000_000n + BigInt(block - BLOCK),
      logIndex: log,
      transactionHash: tx(block),
      eventIds: [`${block}-${log}`],
    });
  // The subgraph tables keep a name's current registration only, its event the latest NameRegistered.
  const registered = (r: { registrationId: string }, block: number, log: number) => {
    rows.name_registered = rows.name_registered!.filter(
      (e) => e.registrationId !== r.registrationId || Number(e.blockNumber) > BLOCK,
    );
    rows.name_registered!.push({
      id: `${block}-${log}`,
      blockNumber: block,
      transactionID: tx(block),
      logVersion: logVersionAt(block, log),
      registrationId: r.registrationId,
      registrantId: account(0),
      expiryDate: 1_900_000_000n,
    });
  };

  // `first`: registered with a price, renewed twice in one block (logs 997 and 1002: as text ids "…-1002" sorts
  // first), and registered again at BLOCK + 10 by an action whose NameRegistered the subgraph tables do not hold
  // yet, so the registration the Omnigraph returns is still the first: its renewals stop before the second.
  action(first!.id, "registration", BLOCK + 1, 9, { baseCost: 5_000n, premium: 700n, referrer: REFERRER });
  registered(first!, BLOCK + 1, 9);
  action(first!.id, "renewal", BLOCK + 2, 997, { baseCost: 100n, premium: 0n, referrer: OTHER_REFERRER }, 86_400n);
  action(first!.id, "renewal", BLOCK + 2, 1002, NO_PRICE, 172_800n);
  action(first!.id, "registration", BLOCK + 10, 1, { baseCost: 9n, premium: 0n, referrer: null });
  action(first!.id, "renewal", BLOCK + 11, 4, { baseCost: 1n, premium: 0n, referrer: null });

  // `again`: registered, renewed, expired and registered again; the current registration is the second.
  action(again!.id, "registration", BLOCK + 3, 1, { baseCost: 1n, premium: 0n, referrer: null });
  registered(again!, BLOCK + 3, 1);
  action(again!.id, "renewal", BLOCK + 4, 1, { baseCost: 2n, premium: 0n, referrer: null });
  action(again!.id, "registration", BLOCK + 20, 6, { baseCost: 3_000n, premium: 123_456n, referrer: null });
  registered(again!, BLOCK + 20, 6);
  action(again!.id, "renewal", BLOCK + 21, 2, { baseCost: 40n, premium: 0n, referrer: null });

  // `unpriced`: registered on the base registrar with no controller event, so no price.
  action(unpriced!.id, "registration", BLOCK + 5, 3, NO_PRICE);
  registered(unpriced!, BLOCK + 5, 3);
  return rows;
}

beforeAll(async () => {
  ({ t, options, internalErrors } = await seededOmnigraph(
    "og_regactions",
    addRows(buildFixture({ secondLevel: 210, accounts: 6 })),
  ));
}, 120_000);

afterAll(async () => {
  await t?.drop();
});

async function request(query: string, variables: Record<string, unknown> = {}) {
  return executeOmnigraphRequest({ query, variables }, options);
}

async function run(query: string, variables: Record<string, unknown> = {}) {
  const r = await request(query, variables);
  expect(r.body.errors).toBeUndefined();
  return { statements: r.statements, body: { data: r.body.data as any } };
}

const RENEWALS = `totalCount edges { cursor node { id duration base premium referrer event { id blockNumber logIndex } } }
  pageInfo { hasNextPage hasPreviousPage startCursor endCursor }`;

const registration = async (name: string, paging = "first: 10") =>
  (
    await run(
      `query($n: InterpretedName!) { domain(by: { name: $n }) { registration { __typename id referrer
        ... on BaseRegistrarRegistration { baseCost premium unregistrant { address } }
        renewals(${paging}) { ${RENEWALS} } } } }`,
      { n: name },
    )
  ).body.data.domain.registration;

describe("/api/omnigraph ENSv1 registrations from registrar actions", () => {
  it("list a registration's renewals oldest first, with their prices, and not a later registration's", async () => {
    const r = await registration(names.first);
    expect(r.__typename).toBe("BaseRegistrarRegistration");
    expect(r.renewals.totalCount).toBe(2);
    expect(r.renewals.edges.map((e: any) => e.node)).toEqual([
      {
        id: `${BLOCK + 2}-997`,
        duration: "86400",
        base: "100",
        premium: "0",
        referrer: OTHER_REFERRER,
        event: { id: `${BLOCK + 2}-997`, blockNumber: String(BLOCK + 2), logIndex: 997 },
      },
      {
        id: `${BLOCK + 2}-1002`,
        duration: "172800",
        base: null,
        premium: null,
        referrer: null,
        event: { id: `${BLOCK + 2}-1002`, blockNumber: String(BLOCK + 2), logIndex: 1002 },
      },
    ]);
    expect(internalErrors).toEqual([]);
  });

  it("page the renewals with cursors, forwards and backwards", async () => {
    const one = (await registration(names.first, "first: 1")).renewals;
    expect(one.edges.map((e: any) => e.node.id)).toEqual([`${BLOCK + 2}-997`]);
    expect(one.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const two = (await registration(names.first, `first: 1, after: "${one.pageInfo.endCursor}"`)).renewals;
    expect(two.edges.map((e: any) => e.node.id)).toEqual([`${BLOCK + 2}-1002`]);
    expect(two.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const last = (await registration(names.first, "last: 1")).renewals;
    expect(last.edges.map((e: any) => e.node.id)).toEqual([`${BLOCK + 2}-1002`]);
    const before = (await registration(names.first, `last: 5, before: "${last.pageInfo.startCursor}"`)).renewals;
    expect(before.edges.map((e: any) => e.node.id)).toEqual([`${BLOCK + 2}-997`]);
    expect(before.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
  });

  it("give a re-registration only its own renewals, and its own price", async () => {
    const r = await registration(names.again);
    expect(r.id).toBeTruthy();
    expect(r.renewals.edges.map((e: any) => e.node.id)).toEqual([`${BLOCK + 21}-2`]);
    expect(r.renewals.totalCount).toBe(1);
    expect([r.baseCost, r.premium, r.referrer]).toEqual(["3000", "123456", null]);
  });

  it("answer base cost, premium and referrer from the registration's action, null without a controller's price", async () => {
    const priced = await registration(names.first);
    expect([priced.baseCost, priced.premium, priced.referrer]).toEqual(["5000", "700", REFERRER]);
    expect(priced.unregistrant).toBeNull();
    const unpriced = await registration(names.unpriced);
    expect([unpriced.baseCost, unpriced.premium, unpriced.referrer]).toEqual([null, null, null]);
    expect(unpriced.renewals).toMatchObject({ totalCount: 0, edges: [] });
  });

  it("refuse a bad cursor and a page size over the limit with the usual errors", async () => {
    const q = `query($n: InterpretedName!, $after: String, $first: Int) { domain(by: { name: $n }) { registration {
      renewals(first: $first, after: $after) { totalCount } } } }`;
    const bad = await request(q, { n: names.first, after: "not-a-cursor", first: 1 });
    expect(bad.body.errors?.[0]?.message).toMatch(/Invalid cursor/);
    const big = await request(q, { n: names.first, first: 100_000 });
    expect(big.body.errors?.[0]?.message).toMatch(/must be between 0 and/);
    expect(internalErrors).toEqual([]);
  });

  it("read prices and renewals in one statement each per level, the same for 5 names and 200", async () => {
    const q = `query($n: Int!) { domain(by: { name: "eth" }) { subdomains(first: $n) { edges { node { id
      registration { id referrer ... on BaseRegistrarRegistration { baseCost premium }
        renewals(first: 3) { ${RENEWALS} } } } } } } }`;
    const small = await run(q, { n: 5 });
    const large = await run(q, { n: 200 });
    const edges = (r: typeof small) => r.body.data.domain.subdomains.edges;
    expect(edges(small)).toHaveLength(5);
    expect(edges(large)).toHaveLength(200);
    // The seeded names are among the 200: their renewals came through the batched statement.
    const byId = new Map<string, any>(edges(large).map((e: any) => [e.node.registration?.id, e.node.registration]));
    expect([...byId.values()].filter((r) => r?.renewals.totalCount > 0).length).toBeGreaterThanOrEqual(2);
    expect(large.statements).toBe(small.statements);
    // The domain, its subdomains (registrations joined), the prices, the renewals' pages and their counts.
    expect(small.statements).toBeLessThanOrEqual(6);
    expect(internalErrors).toEqual([]);
  });
});
