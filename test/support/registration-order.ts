import pg from "pg";
import { expect } from "vitest";
import { NO_REGISTRATION_KEY } from "../../src/lib/registration-order";

/*
 * The registration order keys the indexer keeps on domain rows (src/lib/registration-order.ts), checked against what
 * the Omnigraph shows on an indexed devnet: every list of children (an ENSv1 parent's subdomains, an ENSv2 registry's
 * domains) pages, by REGISTRATION_TIMESTAMP and by REGISTRATION_EXPIRY, in both directions, in the order of the
 * registrations its nodes show (`registration { start expiry }`, none last ascending), ties by id; and each row's
 * keys are exactly its shown registration's start and expiry.
 */

export type OrderBy = "REGISTRATION_TIMESTAMP" | "REGISTRATION_EXPIRY";
export type OrderDir = "ASC" | "DESC";

export interface ShownDomain {
  id: string;
  registration: { __typename?: string; start: string; expiry: string | null } | null;
}

export interface ListPage {
  nodes: ShownDomain[];
  endCursor: string | null;
  hasNextPage: boolean;
}

export interface OrderedList {
  /** What the list is, for failure messages. */
  label: string;
  page(by: OrderBy, dir: OrderDir, after: string | null): Promise<ListPage>;
}

export interface IndexedKeys {
  start: bigint;
  expiry: bigint;
}

/** The keys the shown registration implies. */
export const shownKeys = (d: ShownDomain): IndexedKeys => ({
  start: d.registration ? BigInt(d.registration.start) : NO_REGISTRATION_KEY,
  expiry: d.registration?.expiry != null ? BigInt(d.registration.expiry) : NO_REGISTRATION_KEY,
});

/** The order key the shown registration implies for `by`. */
export const shownKey = (d: ShownDomain, by: OrderBy) =>
  by === "REGISTRATION_TIMESTAMP" ? shownKeys(d).start : shownKeys(d).expiry;

/** The ids of `nodes` in the order a list promises them: by the shown key in `dir`, then by id in `dir`. */
export function inRegistrationOrder(nodes: ShownDomain[], by: OrderBy, dir: OrderDir): string[] {
  const sign = dir === "ASC" ? 1 : -1;
  return [...nodes]
    .sort((a, b) => {
      const [ka, kb] = [shownKey(a, by), shownKey(b, by)];
      return sign * (ka === kb ? (a.id < b.id ? -1 : 1) : ka < kb ? -1 : 1);
    })
    .map((n) => n.id);
}

/**
 * Pages `list` in every registration order and checks it against its nodes' shown registrations and the index's keys
 * (`indexed`, by domain id). Returns the list's domains as shown.
 */
export async function checkRegistrationOrder(
  list: OrderedList,
  indexed: Map<string, IndexedKeys>,
  pageSize: number,
): Promise<ShownDomain[]> {
  let seen: ShownDomain[] = [];
  for (const by of ["REGISTRATION_TIMESTAMP", "REGISTRATION_EXPIRY"] as const) {
    for (const dir of ["ASC", "DESC"] as const) {
      const nodes: ShownDomain[] = [];
      let after: string | null = null;
      do {
        const page: ListPage = await list.page(by, dir, after);
        expect(page.nodes.length, `${list.label}: a page of ${by} ${dir}`).toBeLessThanOrEqual(pageSize);
        nodes.push(...page.nodes);
        after = page.hasNextPage ? page.endCursor : null;
      } while (after);
      expect(
        nodes.map((n) => n.id),
        `${list.label}: ${by} ${dir} in the order of the shown registrations`,
      ).toEqual(inRegistrationOrder(nodes, by, dir));
      seen = nodes;
    }
  }
  for (const node of seen) {
    expect(indexed.get(node.id), `${list.label}: ${node.id}'s order keys are its shown registration's`).toEqual(
      shownKeys(node),
    );
  }
  return seen;
}

/**
 * The order keys of every row of `table` (`domain` or `ensv2_domain`) in an indexer's schema, by id, and the lists
 * they are in: ENSv1 parents' ids, ENSv2 registries' ids.
 */
export async function indexedOrderKeys(
  databaseUrl: string,
  schema: string,
  table: "domain" | "ensv2_domain",
): Promise<{ keys: Map<string, IndexedKeys>; lists: Map<string, number> }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const parent = table === "domain" ? "parent_id" : "registry_id";
    const { rows } = await client.query<{ id: string; parent: string | null; start: string; expiry: string }>(
      `SELECT id, ${parent} AS parent, registration_start_key::text AS start, registration_expiry_key::text AS expiry FROM "${schema}"."${table}"`,
    );
    const lists = new Map<string, number>();
    for (const r of rows) if (r.parent !== null) lists.set(r.parent, (lists.get(r.parent) ?? 0) + 1);
    return { keys: new Map(rows.map((r) => [r.id, { start: BigInt(r.start), expiry: BigInt(r.expiry) }])), lists };
  } finally {
    await client.end();
  }
}
