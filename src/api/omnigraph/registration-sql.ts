import { type SQL, sql } from "drizzle-orm";

/*
 * The SQL of an ENSv1 domain's current registration (the registrar's row and the NameWrapper's, each with its latest
 * event): joined into the statement that reads the domains when the query asks for it (lists, lookups), read back
 * from its columns; resolvers/registration.ts makes the Registration of it.
 */

export interface RegistrationRow {
  id: string;
  domain_id: string;
  registration_date: string;
  expiry_date: string;
  registrant_id: string;
  event_id: string | null;
  event_tx: string | null;
}

export interface WrapRow {
  domain_id: string;
  expiry_date: string;
  fuses: number;
  owner_id: string;
  created_at: string | null;
  event_id: string | null;
  event_tx: string | null;
}

/** A domain's registrar row and NameWrapper row (each with its latest event), or null without either. */
export type RegistrationEntry = { r: RegistrationRow | null; w: WrapRow | null } | null;

export type JoinedRow = Record<string, string | number | null | undefined>;

/** The columns `registrationJoins` adds, read back by `registrationEntryOf`. */
export const REGISTRATION_COLUMNS = sql.raw(
  "jr.id as r_id, jr.registration_date as r_registration_date, jr.expiry_date as r_expiry_date, jr.registrant_id as r_registrant_id, jre.id as r_event_id, jre.transaction_id as r_event_tx, jw.domain_id as w_domain_id, jw.expiry_date as w_expiry_date, jw.fuses as w_fuses, jw.owner_id as w_owner_id, jwe.id as w_event_id, jwe.transaction_id as w_event_tx",
);

/** An event table's latest row first: by block, then log index as a number (the text id puts log 1002 before 997). */
export const LATEST_EVENT_FIRST = sql.raw("n.block_number desc, split_part(n.id, '-', 2)::int desc, n.id desc");

/**
 * The registrar's row and the NameWrapper's of the domain whose id is `domainId` (an expression of the statement
 * they join), each with its latest event: index probes by domain, one row each at most, so a page of domains gets its
 * registrations in its own statement instead of the level's next one.
 */
export function registrationJoins(domainId: SQL): SQL {
  return sql`left join lateral (select r.id, r.registration_date, r.expiry_date, r.registrant_id from registration r where r.domain_id = ${domainId} order by r.id limit 1) jr on true
    left join lateral (select n.id, n.transaction_id from name_registered n where n.registration_id = jr.id order by ${LATEST_EVENT_FIRST} limit 1) jre on jr.id is not null
    left join lateral (select w.domain_id, w.expiry_date, w.fuses, w.owner_id from wrapped_domain w where w.domain_id = ${domainId} order by w.id limit 1) jw on true
    left join lateral (select n.id, n.transaction_id from name_wrapped n where n.domain_id = jw.domain_id order by ${LATEST_EVENT_FIRST} limit 1) jwe on jw.domain_id is not null`;
}

/** A row carrying `REGISTRATION_COLUMNS` (or the level statement's same columns) as the domain's registration entry. */
export function registrationEntryOf(row: JoinedRow, domainId: string): RegistrationEntry {
  if (row.r_id == null && row.w_domain_id == null) return null;
  return {
    r:
      row.r_id == null
        ? null
        : {
            id: row.r_id as string,
            domain_id: domainId,
            registration_date: String(row.r_registration_date),
            expiry_date: String(row.r_expiry_date),
            registrant_id: row.r_registrant_id as string,
            event_id: (row.r_event_id ?? null) as string | null,
            event_tx: (row.r_event_tx ?? null) as string | null,
          },
    w:
      row.w_domain_id == null
        ? null
        : {
            domain_id: domainId,
            expiry_date: String(row.w_expiry_date),
            fuses: Number(row.w_fuses),
            owner_id: row.w_owner_id as string,
            created_at: null,
            event_id: (row.w_event_id ?? null) as string | null,
            event_tx: (row.w_event_tx ?? null) as string | null,
          },
  };
}

/** A domain row that came with its registration joined (`withRegistration`): the entry, made once. */
export interface RegistrationCarrier {
  registration?: RegistrationEntry;
}
