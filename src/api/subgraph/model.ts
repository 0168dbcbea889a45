import { getTableColumns, getTableName } from "drizzle-orm";
import { toSnakeCase } from "drizzle-orm/casing";
import type { PgTable } from "drizzle-orm/pg-core";
import * as tables from "../../../ponder.schema";

/*
 * The ENS subgraph's entity model (types, fields, nullability, relations) mapped onto our tables. Everything else
 * in /subgraph (GraphQL types, filters, orderBy enums, SQL) is generated from this one description, so adding a field
 * means adding one line here.
 */

export type ScalarKind = "ID" | "String" | "Bytes" | "BigInt" | "Int" | "Boolean";

export type FieldDef =
  /** A column. `list` fields are Postgres arrays (Resolver.texts, Resolver.coinTypes). */
  | { kind: "scalar"; name: string; column: string; type: ScalarKind; nonNull: boolean; list?: boolean }
  /** A column holding the related entity's id (`owner: Account!` stored in `ownerId`). */
  | { kind: "ref"; name: string; column: string; target: string; nonNull: boolean }
  /** The reverse side of a ref (`@derivedFrom`): rows of `target` whose `foreign` column holds our id. */
  | { kind: "derived"; name: string; target: string; foreign: string; many: boolean; nonNull: boolean };

export interface EntityDef {
  name: string;
  /** Set for tables; interfaces list their implementations instead. */
  table?: PgTable;
  /** A mutable entity's history table (its versions, for queries at a past block: history.ts). */
  history?: PgTable;
  /** An event entity: never changed once written; its `logVersion` column says from which block it exists. */
  immutable?: boolean;
  implementations?: string[];
  interfaces?: string[];
  fields: FieldDef[];
  /** Root field names (`domain` / `domains`). */
  singular: string;
  plural: string;
}

const id = (): FieldDef => ({ kind: "scalar", name: "id", column: "id", type: "ID", nonNull: true });
const scalar = (name: string, type: ScalarKind, nonNull = false, column = name): FieldDef => ({
  kind: "scalar",
  name,
  column,
  type,
  nonNull,
});
const ref = (name: string, target: string, nonNull = false, column = `${name}Id`): FieldDef => ({
  kind: "ref",
  name,
  column,
  target,
  nonNull,
});
const many = (name: string, target: string, foreign: string, nonNull = true): FieldDef => ({
  kind: "derived",
  name,
  target,
  foreign,
  many: true,
  nonNull,
});
const one = (name: string, target: string, foreign: string): FieldDef => ({
  kind: "derived",
  name,
  target,
  foreign,
  many: false,
  nonNull: false,
});

const eventBase = (): FieldDef[] => [id(), scalar("blockNumber", "Int", true), scalar("transactionID", "Bytes", true)];
const domainEvent = (...extra: FieldDef[]): FieldDef[] => [...eventBase(), ref("domain", "Domain", true), ...extra];
const registrationEvent = (...extra: FieldDef[]): FieldDef[] => [
  ...eventBase(),
  ref("registration", "Registration", true),
  ...extra,
];
const resolverEvent = (...extra: FieldDef[]): FieldDef[] => [
  ...eventBase(),
  ref("resolver", "Resolver", true),
  ...extra,
];

const lowerFirst = (s: string) => s[0]!.toLowerCase() + s.slice(1);

function entity(
  name: string,
  table: PgTable | undefined,
  fields: FieldDef[],
  extra: Partial<EntityDef> = {},
): EntityDef {
  const singular = lowerFirst(name);
  return { name, table, fields, singular, plural: `${singular}s`, ...extra };
}

const DOMAIN_EVENTS: [string, PgTable, FieldDef[]][] = [
  ["Transfer", tables.transfer, domainEvent(ref("owner", "Account", true))],
  ["NewOwner", tables.newOwner, domainEvent(ref("parentDomain", "Domain", true), ref("owner", "Account", true))],
  ["NewResolver", tables.newResolver, domainEvent(ref("resolver", "Resolver", true))],
  ["NewTTL", tables.newTTL, domainEvent(scalar("ttl", "BigInt", true))],
  ["WrappedTransfer", tables.wrappedTransfer, domainEvent(ref("owner", "Account", true))],
  [
    "NameWrapped",
    tables.nameWrapped,
    domainEvent(
      scalar("name", "String"),
      scalar("fuses", "Int", true),
      ref("owner", "Account", true),
      scalar("expiryDate", "BigInt", true),
    ),
  ],
  ["NameUnwrapped", tables.nameUnwrapped, domainEvent(ref("owner", "Account", true))],
  ["FusesSet", tables.fusesSet, domainEvent(scalar("fuses", "Int", true))],
  ["ExpiryExtended", tables.expiryExtended, domainEvent(scalar("expiryDate", "BigInt", true))],
];

const REGISTRATION_EVENTS: [string, PgTable, FieldDef[]][] = [
  [
    "NameRegistered",
    tables.nameRegistered,
    registrationEvent(ref("registrant", "Account", true), scalar("expiryDate", "BigInt", true)),
  ],
  ["NameRenewed", tables.nameRenewed, registrationEvent(scalar("expiryDate", "BigInt", true))],
  ["NameTransferred", tables.nameTransferred, registrationEvent(ref("newOwner", "Account", true))],
];

const RESOLVER_EVENTS: [string, PgTable, FieldDef[]][] = [
  ["AddrChanged", tables.addrChanged, resolverEvent(ref("addr", "Account", true))],
  [
    "MulticoinAddrChanged",
    tables.multicoinAddrChanged,
    resolverEvent(scalar("coinType", "BigInt", true), scalar("addr", "Bytes", true)),
  ],
  ["NameChanged", tables.nameChanged, resolverEvent(scalar("name", "String", true))],
  ["AbiChanged", tables.abiChanged, resolverEvent(scalar("contentType", "BigInt", true))],
  ["PubkeyChanged", tables.pubkeyChanged, resolverEvent(scalar("x", "Bytes", true), scalar("y", "Bytes", true))],
  ["TextChanged", tables.textChanged, resolverEvent(scalar("key", "String", true), scalar("value", "String"))],
  ["ContenthashChanged", tables.contenthashChanged, resolverEvent(scalar("hash", "Bytes", true))],
  [
    "InterfaceChanged",
    tables.interfaceChanged,
    resolverEvent(scalar("interfaceID", "Bytes", true), scalar("implementer", "Bytes", true)),
  ],
  [
    "AuthorisationChanged",
    tables.authorisationChanged,
    resolverEvent(
      scalar("owner", "Bytes", true),
      scalar("target", "Bytes", true),
      scalar("isAuthorized", "Boolean", true),
    ),
  ],
  ["VersionChanged", tables.versionChanged, resolverEvent(scalar("version", "BigInt", true))],
];

function buildEntities(): Map<string, EntityDef> {
  const list: EntityDef[] = [
    entity(
      "Domain",
      tables.domain,
      [
        id(),
        scalar("name", "String"),
        scalar("labelName", "String"),
        scalar("labelhash", "Bytes"),
        ref("parent", "Domain"),
        many("subdomains", "Domain", "parent"),
        scalar("subdomainCount", "Int", true),
        ref("resolvedAddress", "Account"),
        ref("resolver", "Resolver"),
        scalar("ttl", "BigInt"),
        scalar("isMigrated", "Boolean", true),
        scalar("createdAt", "BigInt", true),
        ref("owner", "Account", true),
        ref("registrant", "Account"),
        ref("wrappedOwner", "Account"),
        scalar("expiryDate", "BigInt"),
        one("registration", "Registration", "domain"),
        one("wrappedDomain", "WrappedDomain", "domain"),
        many("events", "DomainEvent", "domain"),
      ],
      { history: tables.domainHistory },
    ),
    entity(
      "Account",
      tables.account,
      [
        id(),
        many("domains", "Domain", "owner"),
        many("wrappedDomains", "WrappedDomain", "owner", false),
        many("registrations", "Registration", "registrant", false),
      ],
      { history: tables.accountHistory },
    ),
    entity(
      "Resolver",
      tables.resolver,
      [
        id(),
        ref("domain", "Domain"),
        scalar("address", "Bytes", true),
        ref("addr", "Account"),
        scalar("contentHash", "Bytes"),
        { kind: "scalar", name: "texts", column: "texts", type: "String", nonNull: false, list: true },
        { kind: "scalar", name: "coinTypes", column: "coinTypes", type: "BigInt", nonNull: false, list: true },
        many("events", "ResolverEvent", "resolver"),
      ],
      { history: tables.resolverHistory },
    ),
    entity(
      "Registration",
      tables.registration,
      [
        id(),
        ref("domain", "Domain", true),
        scalar("registrationDate", "BigInt", true),
        scalar("expiryDate", "BigInt", true),
        scalar("cost", "BigInt"),
        ref("registrant", "Account", true),
        scalar("labelName", "String"),
        many("events", "RegistrationEvent", "registration"),
      ],
      { history: tables.registrationHistory },
    ),
    entity(
      "WrappedDomain",
      tables.wrappedDomain,
      [
        id(),
        ref("domain", "Domain", true),
        scalar("expiryDate", "BigInt", true),
        scalar("fuses", "Int", true),
        ref("owner", "Account", true),
        scalar("name", "String"),
      ],
      { history: tables.wrappedDomainHistory },
    ),
  ];
  const groups: [string, [string, PgTable, FieldDef[]][], () => FieldDef[]][] = [
    ["DomainEvent", DOMAIN_EVENTS, () => domainEvent()],
    ["RegistrationEvent", REGISTRATION_EVENTS, () => registrationEvent()],
    ["ResolverEvent", RESOLVER_EVENTS, () => resolverEvent()],
  ];
  for (const [iface, events, common] of groups) {
    list.push(entity(iface, undefined, common(), { implementations: events.map(([n]) => n) }));
    for (const [name, table, fields] of events) {
      list.push(entity(name, table, fields, { interfaces: [iface], immutable: true }));
    }
  }
  return new Map(list.map((e) => [e.name, e]));
}

export const ENTITIES = buildEntities();

export function entityOf(name: string): EntityDef {
  const e = ENTITIES.get(name);
  if (!e) throw new Error(`unknown entity ${name}`);
  return e;
}

export function fieldOf(entity: EntityDef, name: string): FieldDef | undefined {
  return entity.fields.find((f) => f.name === name);
}

/** The concrete entities a query over `name` reads: itself, or an interface's implementations. */
export function concreteEntities(entity: EntityDef): EntityDef[] {
  return entity.implementations ? entity.implementations.map(entityOf) : [entity];
}

// ---- Physical layout ---------------------------------------------------------------------------------------------

export interface TableInfo {
  name: string;
  /** Table key (camelCase, as in ponder.schema.ts) → database column name (Ponder writes snake_case). */
  columns: Map<string, string>;
  /** Database column name → its SQL type, as created. */
  sqlTypes: Map<string, string>;
}

const tableInfos = new WeakMap<PgTable, TableInfo>();

export function tableInfo(table: PgTable): TableInfo {
  let info = tableInfos.get(table);
  if (!info) {
    const columns = new Map<string, string>();
    const sqlTypes = new Map<string, string>();
    for (const [key, col] of Object.entries(getTableColumns(table))) {
      // Ponder's drizzle instances use `casing: "snake_case"`: a column without an explicit name gets its key in
      // snake case.
      const dbName = (col as { keyAsName?: boolean }).keyAsName === false ? col.name : toSnakeCase(key);
      columns.set(key, dbName);
      sqlTypes.set(dbName, col.getSQLType());
    }
    info = { name: getTableName(table), columns, sqlTypes };
    tableInfos.set(table, info);
  }
  return info;
}

/** The database column behind a scalar or ref field. */
export function columnOf(entity: EntityDef, field: FieldDef): string {
  if (field.kind === "derived") throw new Error(`${entity.name}.${field.name} has no column`);
  const table = entity.table ?? entityOf(entity.implementations![0]!).table!;
  const col = tableInfo(table).columns.get(field.column);
  if (!col) throw new Error(`${entity.name}.${field.name}: table has no column ${field.column}`);
  return col;
}
