import type { AddressInfo } from "node:net";
import {
  getDecodedName,
  getNameHistory,
  getNamesForAddress,
  getSubgraphRecords,
  getSubgraphRegistrant,
  getSubnames,
} from "@ensdomains/ensjs/subgraph";
import { type ServerType, serve } from "@hono/node-server";
import { Hono } from "hono";
import { getAddress, labelhash } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADDR_REVERSE, account, ZERO_ADDRESS } from "../../harness/subgraph-fixture/fixture";
import { createSubgraphApp } from "../../src/api/subgraph";
import { ensjsClient as makeClient } from "../support/ensjs-client";
import { type Harness, startHarness } from "./harness";

/*
 * A real client, unchanged: @ensdomains/ensjs's subgraph functions pointed at our /subgraph over HTTP.
 */

let h: Harness;
let server: ServerType;
let client: ReturnType<typeof makeClient>;

beforeAll(async () => {
  h = await startHarness();
  const app = new Hono();
  app.route("/subgraph", createSubgraphApp(h.options));
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  client = makeClient(`http://127.0.0.1:${port}/subgraph`);
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  expect(h.internalErrors).toEqual([]);
  await h.close();
});

type D = Record<string, unknown>;

describe("@ensdomains/ensjs subgraph functions", () => {
  it("getNamesForAddress: every relation, paged by name", async () => {
    // An account whose names are all normalized: ensjs replaces an unnormalized name by its hash, which would make
    // its own `name_gt` paging skip names.
    const related = (a: string) =>
      h.rows.domain!.filter((d) => [d.ownerId, d.registrantId, d.resolvedAddressId, d.wrappedOwnerId].includes(a));
    const me = Array.from({ length: 12 }, (_, i) => account(i)).find(
      (a) => related(a).length > 8 && related(a).every((d) => !String(d.name).includes("Mixed")),
    )!;
    expect(me).toBeDefined();
    const expected = h.rows
      .domain!.filter(
        (d) =>
          [d.ownerId, d.registrantId, d.resolvedAddressId, d.wrappedOwnerId].includes(me) &&
          d.parentId !== ADDR_REVERSE &&
          (d.expiryDate === null || BigInt(d.expiryDate as bigint) > BigInt(Math.floor(Date.now() / 1000))) &&
          (d.ownerId !== ZERO_ADDRESS ||
            d.resolverId !== null ||
            (d.registrantId !== null && d.registrantId !== ZERO_ADDRESS)),
      )
      .map((d) => d.id as string);
    // Fixture expiries are in the past, so ask for expired names too, and compare with the same filter minus expiry.
    const all = h.rows
      .domain!.filter(
        (d) =>
          [d.ownerId, d.registrantId, d.resolvedAddressId, d.wrappedOwnerId].includes(me) &&
          d.parentId !== ADDR_REVERSE,
      )
      .map((d) => d.name as string)
      .sort();
    // Default filter: unexpired, not deleted, no reverse records.
    const current = await getNamesForAddress(client, { address: getAddress(me), pageSize: 1000 });
    // (Compared by id: ensjs replaces a name whose namehash differs from its id, as for the fixture's unnormalized
    // `Mixed…` labels, by that hash.)
    expect(current.map((n) => n.id).sort()).toEqual([...expected].sort());
    expect(expected.length).toBeGreaterThan(0);
    const names: string[] = [];
    let previousPage: Awaited<ReturnType<typeof getNamesForAddress>> | undefined;
    for (;;) {
      const page = await getNamesForAddress(client, {
        address: getAddress(me),
        filter: { allowExpired: true },
        pageSize: 5,
        orderBy: "name",
        orderDirection: "asc",
        previousPage,
      });
      if (page.length === 0) break;
      names.push(...page.map((n) => n.name!));
      for (const n of page) {
        expect(n.relation.owner || n.relation.registrant || n.relation.wrappedOwner || n.relation.resolvedAddress).toBe(
          true,
        );
      }
      previousPage = page;
      if (page.length < 5) break;
    }
    expect(names).toEqual(all);
    expect(names.length).toBeGreaterThan(5);
  });

  it("getNamesForAddress: expiry and createdAt ordering with paging", async () => {
    const me = account(2);
    for (const orderBy of ["expiryDate", "createdAt"] as const) {
      const seen: string[] = [];
      let previousPage: Awaited<ReturnType<typeof getNamesForAddress>> | undefined;
      for (let i = 0; i < 50; i++) {
        const page = await getNamesForAddress(client, {
          address: getAddress(me),
          filter: { allowExpired: true },
          pageSize: 4,
          orderBy,
          orderDirection: "desc",
          previousPage,
        });
        if (page.length === 0) break;
        seen.push(...page.map((n) => n.id));
        previousPage = page;
        if (page.length < 4) break;
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.length).toBeGreaterThan(4);
    }
  });

  it("getSubgraphRecords: texts and coin types of the domain's resolver", async () => {
    const d = h.rows.domain!.find((x) => x.name === "name00006.eth")!;
    const r = h.rows.resolver!.find((x) => x.id === d.resolverId)!;
    const result = await getSubgraphRecords(client, { name: "name00006.eth" });
    expect(result).not.toBeNull();
    expect(result!.isMigrated).toBe(true);
    expect(result!.createdAt.value).toBe(Number(d.createdAt) * 1000);
    expect(result!.texts).toEqual(r.texts);
    expect(result!.coins).toEqual((r.coinTypes as string[]).map(String));
    // With an explicit resolver address.
    const custom = await getSubgraphRecords(client, {
      name: "name00006.eth",
      resolverAddress: r.address as `0x${string}`,
    });
    expect(custom!.texts).toEqual(r.texts);
    expect(await getSubgraphRecords(client, { name: "unknown-name.eth" })).toBeNull();
  });

  it("getSubgraphRegistrant", async () => {
    const reg = h.rows.registration!.find((x) => x.labelName === "name00010")!;
    expect(reg.id).toBe(labelhash("name00010"));
    expect(await getSubgraphRegistrant(client, { name: "name00010.eth" })).toBe(getAddress(reg.registrantId as string));
    expect(await getSubgraphRegistrant(client, { name: "not-registered.eth" })).toBeNull();
  });

  it("getDecodedName: heals an encoded label from the subgraph", async () => {
    const d = h.rows.domain!.find((x) => x.name === "name00008.eth")!;
    const encoded = `[${(d.labelhash as string).slice(2)}].eth`;
    expect(await getDecodedName(client, { name: encoded })).toBe("name00008.eth");
    const sub = h.rows.domain!.find((x) => x.name === "sub1.name00008.eth")!;
    expect(await getDecodedName(client, { name: `[${(sub.labelhash as string).slice(2)}].name00008.eth` })).toBe(
      "sub1.name00008.eth",
    );
    // A label unknown to the index stays encoded (null unless incomplete names are allowed).
    const unknown = h.rows.domain!.find((x) => x.labelName === null && x.parentId !== null && x.name !== null)!;
    expect(await getDecodedName(client, { name: unknown.name as string })).toBeNull();
    expect(await getDecodedName(client, { name: unknown.name as string, allowIncomplete: true })).toBe(unknown.name);
  });

  it("getSubnames", async () => {
    const parent = h.rows.domain!.find((x) => x.name === "name00004.eth")!;
    const expected = h.rows
      .domain!.filter((x) => x.parentId === parent.id)
      .map((x) => x.name as string)
      .sort();
    const result = await getSubnames(client, {
      name: "name00004.eth",
      orderBy: "name",
      orderDirection: "asc",
      allowExpired: true,
      allowDeleted: true,
    });
    expect(result.map((n: D) => n.name)).toEqual(expected);
  });

  it("getNameHistory: domain, registration and resolver events of every type", async () => {
    const history = await getNameHistory(client, { name: "name00000.eth" });
    expect(history).not.toBeNull();
    const domain = h.rows.domain!.find((d) => d.name === "name00000.eth")!;
    const domainEventCount = [
      "transfer",
      "new_owner",
      "new_resolver",
      "new_ttl",
      "wrapped_transfer",
      "name_wrapped",
      "name_unwrapped",
      "fuses_set",
      "expiry_extended",
    ]
      .flatMap((t) => h.rows[t]!)
      .filter((e) => e.domainId === domain.id).length;
    expect(history!.domainEvents.length).toBe(domainEventCount);
    expect(history!.registrationEvents!.map((e) => e.type)).toContain("NameRegistered");
    const resolverTypes = new Set(history!.resolverEvents!.map((e) => e.type));
    expect(resolverTypes.size).toBe(10);
  });
});
