import { sql } from "drizzle-orm";
import type { Address, Hex } from "viem";
import { GRACE_PERIOD_SECONDS } from "../../../lib/names";
import type { Namespace } from "../../../namespaces/types";
import { routeName } from "../../shared/resolution/routing";
import { Batcher } from "../batch";
import type { OmnigraphContext } from "../context";
import { type Connection, emptyConnection, type PageArgs, pageOf, pageWindow } from "../cursor";
import { loadDomain } from "../domain-loader";
import type { DomainRow } from "../domain-sql";
import { type EventModel, eventOf, eventOfLogId } from "../events";
import { list } from "../keyset";
import { type AccountIdModel, accountOf, rootChainIdOf, v1Domain } from "../model";
import { loadRegistrationPrice, type RegistrationPrice, registrationRenewals } from "../registration-actions";
import {
  type JoinedRow,
  LATEST_EVENT_FIRST,
  type RegistrationCarrier,
  type RegistrationEntry,
  registrationEntryOf,
} from "../registration-sql";
import type { RenewalModel } from "./renewal";

/*
 * ENSv1 registrations: a base registrar's (.eth, Basenames, Lineanames), 3DNS's, or, for a wrapped name no base
 * registrar registered, the NameWrapper's. The index keeps the current registration of each name; a base registrar
 * registration's price, referrer and renewals come from the registrars plugin's actions (registration-actions.ts).
 */

export interface RegistrationModel {
  __typename: "BaseRegistrarRegistration" | "NameWrapperRegistration" | "ThreeDNSRegistration";
  id: string;
  domainId: string;
  start: bigint;
  expiry: bigint | null;
  registrant: string | null;
  registrar: AccountIdModel;
  tokenId: bigint;
  fuses: number | null;
  wrapped: { fuses: number; tokenId: bigint } | null;
  event: EventModel | null;
  /** A 3DNS registration's event, by id alone (its transaction and facts are read when asked). */
  eventId?: string | null;
}

function registrarOf(name: string, namespace: Namespace, wrapper: boolean): AccountIdModel {
  const ds = namespace.datasources;
  const pick = (d: (typeof ds)[keyof typeof ds], contract: string): AccountIdModel | undefined =>
    d?.contracts[contract]?.address
      ? { chainId: d.chain.id, address: d.contracts[contract]!.address!.toLowerCase() as Address }
      : undefined;
  for (const l2 of [ds.basenames, ds.lineanames]) {
    if (l2?.managedName && name.endsWith(`.${l2.managedName}`)) {
      return (wrapper ? pick(l2, "NameWrapper") : undefined) ?? pick(l2, "BaseRegistrar")!;
    }
  }
  const route = routeName(name, namespace);
  if (!name.endsWith(".eth") && route.threedns.length > 0)
    return { chainId: route.threedns[0]!.chainId, address: route.threedns[0]!.registry };
  return (
    (wrapper ? pick(ds.ensroot, "NameWrapper") : pick(ds.ensroot, "BaseRegistrar")) ?? {
      chainId: rootChainIdOf(namespace),
      address: "0x0000000000000000000000000000000000000000",
    }
  );
}

/** Whether a name is under a 3DNS TLD of the namespace (its registrar is the 3DNS token). */
function isThreeDnsName(name: string, namespace: Namespace): boolean {
  return (
    !name.endsWith(".eth") &&
    registrarOf(name, namespace, false).address === routeName(name, namespace).threedns[0]?.registry
  );
}

/**
 * The current registration of a domain: at once when its row came with it (the list or lookup statement joined it,
 * because the query asks for it), else every domain of the level in one statement (registrars' and NameWrapper's rows).
 */
export function loadRegistration(
  ctx: OmnigraphContext,
  domain: DomainRow,
): RegistrationModel | null | Promise<RegistrationModel | null> {
  const carried = (domain as RegistrationCarrier).registration;
  if (carried !== undefined) return registrationModel(ctx.deps.namespace, domain, carried);
  // The registrar's row and the NameWrapper's for every domain of the level, in one statement (each with its latest
  // event): the two joins are by primary or unique key, so the statement costs what two would, minus a round trip.
  const both = ctx.batcher(
    "registrations",
    () =>
      new Batcher<string, RegistrationEntry>(async (ids) => {
        const rows = await ctx.query<JoinedRow>(
          sql`select ids.id as domain_id,
              r.id as r_id, r.registration_date as r_registration_date, r.expiry_date as r_expiry_date, r.registrant_id as r_registrant_id,
              re.id as r_event_id, re.transaction_id as r_event_tx,
              w.domain_id as w_domain_id, w.expiry_date as w_expiry_date, w.fuses as w_fuses, w.owner_id as w_owner_id,
              we.id as w_event_id, we.transaction_id as w_event_tx
            from unnest(array[${list(ids)}]::text[]) as ids(id)
            left join registration r on r.domain_id = ids.id
            left join lateral (select id, transaction_id from name_registered n where n.registration_id = r.id order by ${LATEST_EVENT_FIRST} limit 1) re on r.id is not null
            left join wrapped_domain w on w.domain_id = ids.id
            left join lateral (select id, transaction_id from name_wrapped n where n.domain_id = w.domain_id order by ${LATEST_EVENT_FIRST} limit 1) we on w.domain_id is not null
            where r.id is not null or w.domain_id is not null`,
        );
        return new Map(rows.map((row) => [row.domain_id as string, registrationEntryOf(row, row.domain_id as string)]));
      }, null),
  );
  return both.load(domain.id).then((found) => registrationModel(ctx.deps.namespace, domain, found));
}

function registrationModel(
  namespace: Namespace,
  domain: DomainRow,
  found: RegistrationEntry,
): RegistrationModel | null {
  const rootChainId = rootChainIdOf(namespace);
  const r = found?.r ?? null;
  const w = found?.w ?? null;
  const name = domain.name ?? "";
  const labelhash = (domain.labelhash ?? "0x0") as Hex;
  if (r) {
    const threedns = isThreeDnsName(name, namespace);
    return {
      __typename: threedns ? "ThreeDNSRegistration" : "BaseRegistrarRegistration",
      id: r.id,
      domainId: domain.id,
      start: BigInt(r.registration_date),
      expiry: BigInt(r.expiry_date),
      registrant: r.registrant_id,
      registrar: registrarOf(name, namespace, false),
      tokenId: BigInt(threedns ? domain.id : labelhash),
      fuses: null,
      wrapped: w ? { fuses: w.fuses, tokenId: BigInt(domain.id) } : null,
      event: r.event_id ? eventOf(r.event_id, r.event_tx!, rootChainId, r.registration_date) : null,
    };
  }
  if (!w && domain.expiry_date != null && isThreeDnsName(name, namespace)) {
    // 3DNS keeps no registration row: its token sets the domain's owner and expiry (the 3DNS plugin's handlers).
    return {
      __typename: "ThreeDNSRegistration",
      id: `${domain.id}-3dns`,
      domainId: domain.id,
      start: BigInt(domain.created_at),
      expiry: BigInt(domain.expiry_date),
      registrant: domain.owner_id,
      registrar: registrarOf(name, namespace, false),
      tokenId: BigInt(domain.id),
      fuses: null,
      wrapped: null,
      event: null,
      eventId: domain.registration_event_id ?? null,
    };
  }
  if (w) {
    return {
      __typename: "NameWrapperRegistration",
      id: `${domain.id}-wrapped`,
      domainId: domain.id,
      start: BigInt(domain.created_at),
      expiry: BigInt(w.expiry_date),
      registrant: w.owner_id,
      registrar: registrarOf(name, namespace, true),
      tokenId: BigInt(domain.id),
      fuses: w.fuses,
      wrapped: null,
      event: w.event_id ? eventOf(w.event_id, w.event_tx!, rootChainId) : null,
    };
  }
  return null;
}

const nowSeconds = () => BigInt(Math.floor(Date.now() / 1000));

export const registrationResolvers = {
  id: (r: RegistrationModel) => r.id,
  domain: async (r: RegistrationModel, _: unknown, ctx: OmnigraphContext) => {
    const row = await loadDomain(ctx, r.domainId);
    if (!row) throw new Error(`domain ${r.domainId} of registration ${r.id} not found`);
    return v1Domain(row);
  },
  start: (r: RegistrationModel) => r.start,
  expiry: (r: RegistrationModel) => r.expiry,
  expired: (r: RegistrationModel) => {
    if (r.expiry === null) return false;
    const grace = r.__typename === "BaseRegistrarRegistration" ? GRACE_PERIOD_SECONDS : 0n;
    return r.expiry + grace < nowSeconds();
  },
  isInGracePeriod: (r: RegistrationModel) =>
    r.expiry !== null && r.expiry < nowSeconds() && r.expiry + GRACE_PERIOD_SECONDS >= nowSeconds(),
  registrant: (r: RegistrationModel) => accountOf(r.registrant),
  // An ENSv1 registration the Omnigraph returns is a name's current one: nobody ended it (docs/api.md).
  unregistrant: () => null,
  registrar: (r: RegistrationModel) => r.registrar,
  referrer: (r: RegistrationModel, _: unknown, ctx: OmnigraphContext) => priceOf(r, ctx, "referrer"),
  baseCost: (r: RegistrationModel, _: unknown, ctx: OmnigraphContext) => priceOf(r, ctx, "baseCost"),
  premium: (r: RegistrationModel, _: unknown, ctx: OmnigraphContext) => priceOf(r, ctx, "premium"),
  tokenId: (r: RegistrationModel) => r.tokenId,
  fuses: (r: RegistrationModel) => r.fuses ?? 0,
  wrapped: (r: RegistrationModel) => r.wrapped,
  event: (r: RegistrationModel, _: unknown, ctx: OmnigraphContext) => {
    if (r.event) return r.event;
    if (r.eventId) return eventOfLogId(ctx, r.eventId, rootChainIdOf(ctx.deps.namespace));
    throw new Error(`registration ${r.id} has no event in the index`);
  },
  renewals: (
    r: RegistrationModel,
    args: PageArgs,
    ctx: OmnigraphContext,
  ): Promise<Connection<RenewalModel>> | Connection<never> => {
    const action = actionIdOf(r);
    // pageWindow first: a bad `first`/`last` is refused even where the list is empty.
    pageWindow(args);
    return action ? registrationRenewals(ctx, action, pageOf(args)) : emptyConnection();
  },
};

/**
 * The registrars plugin's action of a base registrar's registration: the one whose id is the registration's event id
 * (its NameRegistered). NameWrapper and 3DNS registrations have none (the plugin follows base registrars only).
 */
function actionIdOf(r: RegistrationModel): string | null {
  return r.__typename === "BaseRegistrarRegistration" && r.event ? r.event.id : null;
}

async function priceOf(r: RegistrationModel, ctx: OmnigraphContext, field: keyof RegistrationPrice) {
  const action = actionIdOf(r);
  return action ? (await loadRegistrationPrice(ctx, action))[field] : null;
}
