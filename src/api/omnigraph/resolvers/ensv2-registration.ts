import { sql } from "drizzle-orm";
import { GraphQLError } from "graphql";
import { registrationIdOf, renewalIdOf, v2IdFromInput } from "../../../lib/ensv2-ids";
import { Batcher } from "../batch";
import type { OmnigraphContext } from "../context";
import { type Connection, decodeCursor, encodeCursor, type PageArgs, pageWindow } from "../cursor";
import { loadV2Domain } from "../ensv2/loaders";
import { nonZeroAddress, v2Domain } from "../ensv2/model";
import type { EventModel } from "../events";
import { list } from "../keyset";
import { accountOf } from "../model";
import type { RenewalModel } from "./renewal";

/*
 * ENSv2 registrations and reservations (ensv2_registration: a registry's LabelRegistered / LabelReserved, priced by
 * the registrar's NameRegistered in the same transaction) and their renewals (the registrar's NameRenewed).
 */

/** The log columns every ENSv2 event row has. */
interface LogRow {
  id: string;
  chain_id: number;
  block_number: string;
  block_timestamp: string;
  log_index: number;
  transaction_hash: string;
}

interface V2RegistrationRow extends LogRow {
  domain_id: string;
  /** How many registrations and reservations the domain had before this one: its number in the peer's id. */
  registration_index: number;
  kind: "registration" | "reservation";
  owner: string | null;
  expiry: string;
  registrar: string | null;
  referrer: string | null;
  registry: string;
}

export interface V2RegistrationModel {
  __typename: "ENSv2RegistryRegistration" | "ENSv2RegistryReservation";
  row: V2RegistrationRow;
}

interface V2RenewalRow extends LogRow {
  registration_id: string;
  duration: string;
  referrer: string;
  base: string;
}

/**
 * The current registration's expiry is the name's (renewals and ExpiryUpdated move it); an older one's, as registered.
 * Its number among the domain's registrations is counted on the `domain_id` index (a name has few).
 */
const COLUMNS = sql.raw(
  "r.id, r.chain_id, r.block_number::text as block_number, r.block_timestamp::text as block_timestamp, r.log_index, r.transaction_hash, r.domain_id, (select count(*) from ensv2_registration e where e.domain_id = r.domain_id and (e.block_number, e.log_index) < (r.block_number, r.log_index))::int as registration_index, r.kind, r.owner, (case when d.latest_registration_id = r.id then d.expiry else r.expiry end)::text as expiry, r.registrar, r.referrer, d.registry",
);

/** The peer's registration id (`<domainId>-<index>`); the row's own id is its log's, which earlier builds showed. */
const registrationId = (row: V2RegistrationRow) => registrationIdOf(row.domain_id, Number(row.registration_index));

const modelOf = (row: V2RegistrationRow): V2RegistrationModel => ({
  __typename: row.kind === "reservation" ? "ENSv2RegistryReservation" : "ENSv2RegistryRegistration",
  row,
});

const eventOfLog = (row: LogRow): EventModel => ({
  id: row.id,
  chainId: row.chain_id,
  blockNumber: BigInt(row.block_number),
  logIndex: row.log_index,
  transactionHash: row.transaction_hash as `0x${string}`,
  timestamp: BigInt(row.block_timestamp),
});

export function loadV2Registration(ctx: OmnigraphContext, id: string): Promise<V2RegistrationModel | null> {
  return ctx
    .batcher(
      "v2-registration-by-id",
      () =>
        new Batcher<string, V2RegistrationModel | null>(async (ids) => {
          const rows = await ctx.query<V2RegistrationRow>(
            sql`select ${COLUMNS} from ensv2_registration r join ensv2_domain d on d.id = r.domain_id where r.id in (${list(ids)})`,
          );
          return new Map(rows.map((r) => [r.id, modelOf(r)]));
        }, null),
    )
    .load(id);
}

/** Every registration and reservation a domain had, newest first; one statement per level. */
export async function v2RegistrationsOf(
  ctx: OmnigraphContext,
  domainId: string,
  args: PageArgs,
): Promise<Connection<V2RegistrationModel>> {
  const all = await ctx
    .batcher(
      "v2-registrations-of-domain",
      () =>
        new Batcher<string, V2RegistrationModel[]>(async (ids) => {
          const rows = await ctx.query<V2RegistrationRow>(
            sql`select ${COLUMNS} from ensv2_registration r join ensv2_domain d on d.id = r.domain_id where r.domain_id in (${list(ids)}) order by r.block_number desc, r.log_index desc`,
          );
          const out = new Map<string, V2RegistrationModel[]>();
          for (const r of rows) out.set(r.domain_id, [...(out.get(r.domain_id) ?? []), modelOf(r)]);
          return out;
        }, []),
    )
    .load(domainId);
  return pageInMemory(
    all,
    args,
    (m) => registrationId(m.row),
    (m) => m.row.id,
  );
}

/**
 * A page of a short list already in memory (a name's registrations, a registration's renewals), cursor = its id. A
 * cursor an earlier build gave still finds its item: by the id it showed then (`legacyIdOf`; an ENSv2 domain id in
 * hex is read as today's).
 */
export function pageInMemory<T>(
  all: T[],
  args: PageArgs,
  idOf: (t: T) => string,
  legacyIdOf?: (t: T) => string,
): Connection<T> {
  const { size, backward } = pageWindow(args);
  const cursorOf = (t: T) => encodeCursor(idOf(t), idOf(t));
  const indexOf = (cursor: string) => {
    const id = idOfCursor(cursor);
    if (id === null) return -1;
    const current = v2IdFromInput(id);
    return all.findIndex((t) => idOf(t) === current || legacyIdOf?.(t) === id);
  };
  let start = 0;
  let end = all.length;
  if (args.after != null) start = indexOf(args.after) + 1;
  if (args.before != null) {
    const i = indexOf(args.before);
    end = i < 0 ? all.length : i;
  }
  if ((args.after != null && start === 0) || start > end) throw new GraphQLError("Invalid cursor for this connection");
  const window = all.slice(start, end);
  const page = backward ? window.slice(Math.max(0, window.length - size)) : window.slice(0, size);
  const edges = page.map((node) => ({ cursor: cursorOf(node), node }));
  return {
    edges,
    pageInfo: {
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
      hasNextPage: backward ? end < all.length : window.length > size,
      hasPreviousPage: backward ? window.length > size : start > 0,
    },
    totalCount: all.length,
  };
}

function idOfCursor(cursor: string): string | null {
  try {
    return decodeCursor(cursor, "text")[1];
  } catch {
    return null;
  }
}

/** The renewals of each registration: after it, and before the domain's next registration. */
function renewalsOf(ctx: OmnigraphContext, registrationLogId: string): Promise<V2RenewalRow[]> {
  return ctx
    .batcher(
      "v2-renewals",
      () =>
        new Batcher<string, V2RenewalRow[]>(async (ids) => {
          const rows = await ctx.query<V2RenewalRow>(
            sql`select n.id, n.chain_id, n.block_number::text as block_number, n.block_timestamp::text as block_timestamp, n.log_index, n.transaction_hash, r.id as registration_id, n.duration::text as duration, n.referrer, n.base::text as base
              from ensv2_registration r
              join ensv2_renewal n on n.domain_id = r.domain_id and (n.block_number, n.log_index) > (r.block_number, r.log_index)
              where r.id in (${list(ids)})
                and not exists (select 1 from ensv2_registration later where later.domain_id = r.domain_id
                  and (later.block_number, later.log_index) > (r.block_number, r.log_index)
                  and (later.block_number, later.log_index) < (n.block_number, n.log_index))
              order by n.block_number, n.log_index`,
          );
          const out = new Map<string, V2RenewalRow[]>();
          for (const r of rows) out.set(r.registration_id, [...(out.get(r.registration_id) ?? []), r]);
          return out;
        }, []),
    )
    .load(registrationLogId);
}

const nowSeconds = () => BigInt(Math.floor(Date.now() / 1000));

export const ensv2RegistrationResolvers = {
  id: (r: V2RegistrationModel) => registrationId(r.row),
  domain: async (r: V2RegistrationModel, _: unknown, ctx: OmnigraphContext) => {
    const row = await loadV2Domain(ctx, r.row.domain_id);
    if (!row) throw new Error(`domain ${r.row.domain_id} of registration ${r.row.id} not found`);
    return v2Domain(row);
  },
  event: (r: V2RegistrationModel) => eventOfLog(r.row),
  // ENSv2 has no grace period: a name is expired from its expiry on.
  expired: (r: V2RegistrationModel) => BigInt(r.row.expiry) <= nowSeconds(),
  expiry: (r: V2RegistrationModel) => BigInt(r.row.expiry),
  start: (r: V2RegistrationModel) => BigInt(r.row.block_timestamp),
  registrant: (r: V2RegistrationModel) => accountOf(r.row.owner),
  unregistrant: () => null,
  // The registrar when one registered the name (ETHRegistrar), else the registry that emitted it.
  registrar: (r: V2RegistrationModel) => ({
    chainId: r.row.chain_id,
    address: nonZeroAddress(r.row.registrar) ?? r.row.registry.toLowerCase(),
  }),
  referrer: (r: V2RegistrationModel) => r.row.referrer,
  renewals: async (r: V2RegistrationModel, args: PageArgs, ctx: OmnigraphContext) => {
    const renewals = (await renewalsOf(ctx, r.row.id)).map((n, i) => renewalModel(n, registrationId(r.row), i));
    return pageInMemory(
      renewals,
      args,
      (n) => n.id,
      (n) => n.event.id,
    );
  },
};

/**
 * An ENSv2 renewal as the Renewal type reads it: ENSv2's registrar charges no premium on a renewal. Its id is the
 * peer's, `<registrationId>-<index>` (renewals numbered from 0, oldest first).
 */
const renewalModel = (n: V2RenewalRow, registration: string, index: number): RenewalModel => ({
  id: renewalIdOf(registration, index),
  duration: BigInt(n.duration),
  base: BigInt(n.base),
  premium: 0n,
  referrer: n.referrer,
  event: eventOfLog(n),
});
