import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { byteCompare, type Harness, startHarness } from "./harness";

/*
 * orderBy / orderDirection / first / skip: scalar and one-level nested sort keys, the primary key as the final
 * tie-breaker (in the same direction), and pages that neither repeat nor skip rows.
 */

let h: Harness;
type D = Record<string, unknown>;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  expect(h.internalErrors).toEqual([]);
  await h.close();
});

/** PostgreSQL's order: nulls last ascending, first descending; then id in the same direction. */
function sorted(
  rows: D[],
  key: (d: D) => string | bigint | number | null,
  direction: "asc" | "desc" = "asc",
): string[] {
  const cmp = (a: D, b: D) => {
    const x = key(a);
    const y = key(b);
    let c = 0;
    if (x === null && y !== null) c = 1;
    else if (x !== null && y === null) c = -1;
    else if (x !== null && y !== null)
      c =
        typeof x === "string"
          ? byteCompare(x, y as string)
          : (x as bigint) < (y as bigint)
            ? -1
            : (x as bigint) > (y as bigint)
              ? 1
              : 0;
    if (c === 0) c = byteCompare(a.id as string, b.id as string);
    return direction === "asc" ? c : -c;
  };
  return [...rows].sort(cmp).map((d) => d.id as string);
}

async function page(args: string, entity = "domains"): Promise<string[]> {
  const data = await h.q<Record<string, { id: string }[]>>(
    args ? `{ r: ${entity}(${args}) { id } }` : `{ r: ${entity} { id } }`,
  );
  return data.r!.map((d) => d.id);
}

describe("orderBy", () => {
  it("defaults to id ascending, first 100", async () => {
    const ids = await page("");
    expect(ids).toEqual(sorted(h.rows.domain!, () => null).slice(0, 100));
  });

  it("createdAt desc breaks ties by id desc", async () => {
    const ids = await page("first: 1000, orderBy: createdAt, orderDirection: desc");
    expect(ids).toEqual(sorted(h.rows.domain!, (d) => d.createdAt as bigint, "desc"));
    // The fixture gives groups of names the same createdAt, so the tie-break matters.
    const counts = new Map<string, number>();
    for (const d of h.rows.domain!) counts.set(String(d.createdAt), (counts.get(String(d.createdAt)) ?? 0) + 1);
    expect(Math.max(...counts.values())).toBeGreaterThan(2);
  });

  it.each([
    ["name", (d: D) => d.name as string | null],
    ["labelName", (d: D) => d.labelName as string | null],
    ["expiryDate", (d: D) => (d.expiryDate as bigint | null) ?? null],
    ["subdomainCount", (d: D) => d.subdomainCount as number],
    ["isMigrated", () => null],
    ["owner", (d: D) => d.ownerId as string],
    ["owner__id", (d: D) => d.ownerId as string],
  ] as const)("scalar and relation key %s, both directions", async (orderBy, key) => {
    if (orderBy === "isMigrated") {
      // Every fixture domain is migrated: the order is the id's.
      expect(await page(`first: 1000, orderBy: isMigrated`)).toEqual(sorted(h.rows.domain!, () => null));
      return;
    }
    for (const dir of ["asc", "desc"] as const) {
      expect(await page(`first: 1000, orderBy: ${orderBy}, orderDirection: ${dir}`)).toEqual(
        sorted(h.rows.domain!, key, dir),
      );
    }
  });

  it("nested keys: parent__name, parent__createdAt, registration__expiryDate, wrappedDomain__fuses", async () => {
    const byId = new Map(h.rows.domain!.map((d) => [d.id as string, d]));
    const reg = new Map(h.rows.registration!.map((r) => [r.domainId as string, r]));
    const wrapped = new Map(h.rows.wrapped_domain!.map((w) => [w.domainId as string, w]));
    const parentName = (d: D) => (byId.get(d.parentId as string)?.name as string | undefined) ?? null;
    expect(await page("first: 1000, orderBy: parent__name")).toEqual(sorted(h.rows.domain!, parentName));
    expect(await page("first: 1000, orderBy: parent__name, orderDirection: desc")).toEqual(
      sorted(h.rows.domain!, parentName, "desc"),
    );
    expect(await page("first: 1000, orderBy: parent__createdAt, orderDirection: desc")).toEqual(
      sorted(h.rows.domain!, (d) => (byId.get(d.parentId as string)?.createdAt as bigint | undefined) ?? null, "desc"),
    );
    expect(await page("first: 1000, orderBy: registration__expiryDate")).toEqual(
      sorted(h.rows.domain!, (d) => (reg.get(d.id as string)?.expiryDate as bigint | undefined) ?? null),
    );
    expect(await page("first: 1000, orderBy: wrappedDomain__fuses, orderDirection: desc")).toEqual(
      sorted(h.rows.domain!, (d) => (wrapped.get(d.id as string)?.fuses as number | undefined) ?? null, "desc"),
    );
  });

  it("registrations: latest first by registrationDate, then id", async () => {
    expect(await page("first: 100, orderBy: registrationDate, orderDirection: desc", "registrations")).toEqual(
      sorted(h.rows.registration!, (r) => r.registrationDate as bigint, "desc").slice(0, 100),
    );
    const domainName = new Map(h.rows.domain!.map((d) => [d.id as string, d.name as string | null]));
    expect(await page("first: 1000, orderBy: domain__name", "registrations")).toEqual(
      sorted(h.rows.registration!, (r) => domainName.get(r.domainId as string) ?? null),
    );
  });

  it("interfaces sort across their tables", async () => {
    const events = [
      "transfer",
      "new_owner",
      "new_resolver",
      "new_ttl",
      "wrapped_transfer",
      "name_wrapped",
      "name_unwrapped",
      "fuses_set",
      "expiry_extended",
    ].flatMap((t) => h.rows[t]!);
    expect(await page("first: 1000, skip: 10, orderBy: blockNumber, orderDirection: desc", "domainEvents")).toEqual(
      sorted(events, (e) => e.blockNumber as number, "desc").slice(10, 1010),
    );
    const domainName = new Map(h.rows.domain!.map((d) => [d.id as string, d.name as string | null]));
    expect(await page("first: 50, orderBy: domain__name", "domainEvents")).toEqual(
      sorted(events, (e) => domainName.get(e.domainId as string) ?? null).slice(0, 50),
    );
  });

  it("a derived list is not a sort key", async () => {
    const r = await h.raw("{ domains(orderBy: subdomains) { id } }");
    expect(r.body.errors?.[0]?.message).toMatch(/subdomains/);
  });
});

describe("first / skip", () => {
  it("pages are stable: no duplicates and no gaps", async () => {
    for (const order of ["orderBy: createdAt, orderDirection: desc", "orderBy: parent__name", "orderBy: owner", ""]) {
      const all = await page(`first: 1000, ${order}`);
      const pages: string[] = [];
      for (let skip = 0; skip < all.length; skip += 7) pages.push(...(await page(`first: 7, skip: ${skip}, ${order}`)));
      expect(pages).toEqual(all);
      expect(new Set(pages).size).toBe(pages.length);
    }
  });

  it("nested collections page the same way", async () => {
    const eth = "0x93cdeb708b7545dc668eb9280176169d1c33cfd8ed6f04690a0bcc88a93fc4ae";
    const q = (args: string) =>
      h
        .q<{ domain: { subdomains: { id: string }[] } }>(`{ domain(id: "${eth}") { subdomains(${args}) { id } } }`)
        .then((d) => d.domain.subdomains.map((s) => s.id));
    const all = await q("first: 1000, orderBy: createdAt");
    expect(all.length).toBe(h.rows.domain!.filter((d) => d.parentId === eth).length);
    const pages: string[] = [];
    for (let skip = 0; skip < all.length; skip += 30)
      pages.push(...(await q(`first: 30, skip: ${skip}, orderBy: createdAt`)));
    expect(pages).toEqual(all);
  });

  it("first: 0 returns nothing; first over 1000 and skip over 5000 are errors", async () => {
    expect(await page("first: 0")).toEqual([]);
    for (const [args, message] of [
      ["first: 1001", "The `first` argument must be between 0 and 1000, but is 1001"],
      ["first: -1", "The `first` argument must be between 0 and 1000, but is -1"],
      ["skip: 5001", "The `skip` argument must be between 0 and 5000, but is 5001"],
      ["skip: -3", "The `skip` argument must be between 0 and 5000, but is -3"],
    ]) {
      const r = await h.raw(`{ domains(${args}) { id } }`);
      expect(r.status).toBe(200);
      expect(r.body.errors?.[0]?.message).toBe(message);
      // Refused before any SQL runs.
      expect(r.statements).toBe(0);
      const nested = await h.raw(`{ accounts(first: 1) { domains(${args}) { id } } }`);
      expect(nested.body.errors?.[0]?.message).toBe(message);
    }
  });

  it("first and skip as variables", async () => {
    const data = await h.q<{ domains: { id: string }[] }>(
      "query($f: Int, $s: Int) { domains(first: $f, skip: $s) { id } }",
      { f: 5, s: 2 },
    );
    expect(data.domains.map((d) => d.id)).toEqual(sorted(h.rows.domain!, () => null).slice(2, 7));
  });
});
