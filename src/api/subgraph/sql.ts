import { type SQL, sql } from "drizzle-orm";
import { SubgraphQueryError } from "./errors";
import { entityById, entitySource, idArray, VERSION_COLUMN } from "./history";
import { MAX_LIST_VALUES } from "./limits";
import {
  columnOf,
  concreteEntities,
  type EntityDef,
  entityOf,
  type FieldDef,
  fieldOf,
  type ScalarKind,
  tableInfo,
} from "./model";
import { READ_HEAD, type Reading } from "./reading";

/*
 * SQL for The Graph's query semantics, generated with drizzle's `sql` builder: `where` filters, `orderBy` with the
 * primary key as the final tie-breaker, `first`/`skip`, and the batched (one statement per nested field and level)
 * form of nested collections. Every column is read as text so rows look the same on PostgreSQL and PGlite and the
 * union of an interface's tables lines up; the GraphQL layer turns them back into Int/Boolean.
 */

export interface ListArgs {
  where?: Record<string, unknown> | null;
  orderBy?: string | null;
  orderDirection?: "asc" | "desc" | null;
  first: number;
  skip: number;
}

export type Row = Record<string, unknown> & { id: string; __typename: string };

interface Ctx {
  aliases: number;
  reading: Reading;
}

const source = (entity: EntityDef, ctx: { reading: Reading }) => entitySource(entity, ctx.reading.at);
/** The one row with id `id` (history.ts `entityById`). */
const byId = (entity: EntityDef, ctx: { reading: Reading }, id: SQL) => entityById(entity, ctx.reading.at, id);

const col = (alias: string, column: string): SQL => sql`${sql.identifier(alias)}.${sql.identifier(column)}`;

const STRING_MATCH = [
  "contains",
  "contains_nocase",
  "not_contains",
  "not_contains_nocase",
  "starts_with",
  "starts_with_nocase",
  "not_starts_with",
  "not_starts_with_nocase",
  "ends_with",
  "ends_with_nocase",
  "not_ends_with",
  "not_ends_with_nocase",
] as const;
const FILTER_OPS = ["not", "gt", "lt", "gte", "lte", "in", "not_in", ...STRING_MATCH, "has", "not_has"] as const;
export type FilterOp = "" | (typeof FILTER_OPS)[number];

const COMPARE: FilterOp[] = ["", "not", "gt", "lt", "gte", "lte", "in", "not_in"];

/** The operators The Graph offers for a field of this shape (relations compare their id as a String). */
export function opsFor(type: ScalarKind | "ref", list: boolean): FilterOp[] {
  if (list) return ["", "not", "contains", "contains_nocase", "not_contains", "not_contains_nocase", "has", "not_has"];
  switch (type) {
    case "ID":
    case "Int":
    case "BigInt":
      return COMPARE;
    case "Boolean":
      return ["", "not", "in", "not_in"];
    case "Bytes":
      return [...COMPARE, "contains", "not_contains"];
    case "String":
    case "ref":
      return [...COMPARE, ...STRING_MATCH];
  }
}

/** Splits a filter key (`name_not_starts_with_nocase`, `owner_`, `and`) into its field and operator. */
export function parseFilterKey(key: string): { field: string; op: FilterOp | "_" } {
  if (key.endsWith("_") && !key.endsWith("__")) return { field: key.slice(0, -1), op: "_" };
  // Longest operator first, so `not_in` wins over `in`.
  const ops = [...FILTER_OPS].sort((a, b) => b.length - a.length);
  for (const op of ops) {
    if (key.endsWith(`_${op}`)) return { field: key.slice(0, -op.length - 1), op };
  }
  return { field: key, op: "" };
}

function sqlTypeOf(kind: ScalarKind): string {
  switch (kind) {
    case "BigInt":
      return "numeric";
    case "Int":
      return "integer";
    case "Boolean":
      return "boolean";
    default:
      return "text";
  }
}

/** PostgreSQL text cannot hold NUL, so no stored value can match one: say so instead of failing in the database. */
export function textValue(value: unknown): string {
  const s = String(value);
  if (s.includes("\u0000")) throw new SubgraphQueryError("String values cannot contain NUL (\\u0000) characters");
  return s;
}

/** A parameter typed like the column it is compared with. Inputs arrive already coerced by the GraphQL scalars. */
function param(kind: ScalarKind, value: unknown, key: string): SQL {
  if (value === null || value === undefined) throw new SubgraphQueryError(`\`${key}\` does not accept null`);
  switch (kind) {
    case "BigInt":
      return sql`${String(value)}::numeric`;
    case "Int":
      return sql`${Number(value)}::integer`;
    case "Boolean":
      return sql`${Boolean(value)}::boolean`;
    case "Bytes":
      return sql`${String(value).toLowerCase()}::text`;
    default:
      return sql`${textValue(value)}::text`;
  }
}

function checkList(values: unknown, key: string): unknown[] {
  if (!Array.isArray(values)) throw new SubgraphQueryError(`\`${key}\` expects a list`);
  if (values.length > MAX_LIST_VALUES) {
    throw new SubgraphQueryError(`\`${key}\` has ${values.length} values, the limit is ${MAX_LIST_VALUES}`);
  }
  return values;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function likePattern(op: FilterOp, value: string): string {
  const v = escapeLike(value);
  if (op.includes("contains")) return `%${v}%`;
  if (op.includes("starts_with")) return `${v}%`;
  return `%${v}`;
}

function listParam(kind: ScalarKind, list: unknown, key: string): SQL {
  const values = checkList(list, key);
  if (values.length === 0) return sql`ARRAY[]::${sql.raw(sqlTypeOf(kind))}[]`;
  return sql`ARRAY[${sql.join(
    values.map((v) => param(kind, v, key)),
    sql`, `,
  )}]`;
}

function scalarCondition(expr: SQL, kind: ScalarKind, op: FilterOp, value: unknown, key: string): SQL {
  switch (op) {
    case "":
      return value === null ? sql`${expr} IS NULL` : sql`${expr} = ${param(kind, value, key)}`;
    case "not":
      return value === null ? sql`${expr} IS NOT NULL` : sql`${expr} <> ${param(kind, value, key)}`;
    case "gt":
      return sql`${expr} > ${param(kind, value, key)}`;
    case "lt":
      return sql`${expr} < ${param(kind, value, key)}`;
    case "gte":
      return sql`${expr} >= ${param(kind, value, key)}`;
    case "lte":
      return sql`${expr} <= ${param(kind, value, key)}`;
    case "in":
    case "not_in": {
      const values = checkList(value, key);
      if (values.length === 0) return op === "in" ? sql`false` : sql`${expr} IS NOT NULL`;
      const list = sql.join(
        values.map((v) => param(kind, v, key)),
        sql`, `,
      );
      return op === "in" ? sql`${expr} IN (${list})` : sql`${expr} NOT IN (${list})`;
    }
    default: {
      if (value === null) throw new SubgraphQueryError(`\`${key}\` does not accept null`);
      const text = textValue(value);
      const negate = op.startsWith("not_");
      if (kind === "Bytes") {
        // Bytes are stored as 0x-hex text; a match must start on a byte, as The Graph compares the bytes themselves
        // (`0xa0` is not in 0x1a0b). The Bytes scalar checked the hex; checked again here because it becomes a regex.
        const hex = text.toLowerCase().replace(/^0x/, "");
        if (!/^[0-9a-f]*$/.test(hex)) throw new SubgraphQueryError(`\`${key}\` takes a 0x-prefixed hex string`);
        const aligned = `^0x(..)*${hex}`;
        return negate ? sql`${expr} !~ ${aligned}` : sql`${expr} ~ ${aligned}`;
      }
      const pattern = likePattern(op, text);
      const nocase = op.endsWith("_nocase");
      const cmp = nocase ? sql`ILIKE` : sql`LIKE`;
      return negate ? sql`${expr} NOT ${cmp} ${pattern}` : sql`${expr} ${cmp} ${pattern}`;
    }
  }
}

function listCondition(expr: SQL, kind: ScalarKind, op: FilterOp, value: unknown, key: string): SQL {
  switch (op) {
    case "":
      return value === null ? sql`${expr} IS NULL` : sql`${expr} = ${listParam(kind, value, key)}`;
    case "not":
      return value === null ? sql`${expr} IS NOT NULL` : sql`${expr} <> ${listParam(kind, value, key)}`;
    case "contains":
      return sql`${expr} @> ${listParam(kind, value, key)}`;
    case "not_contains":
      return sql`NOT coalesce(${expr} @> ${listParam(kind, value, key)}, false)`;
    case "contains_nocase":
    case "not_contains_nocase": {
      const all = checkList(value, key).map(
        (v) => sql`EXISTS (SELECT 1 FROM unnest(${expr}) AS e(v) WHERE lower(e.v::text) = lower(${textValue(v)}))`,
      );
      const cond = all.length ? sql`(${sql.join(all, sql` AND `)})` : sql`true`;
      return op === "contains_nocase" ? cond : sql`NOT ${cond}`;
    }
    case "has":
      return sql`${param(kind, value, key)} = ANY(${expr})`;
    case "not_has":
      return sql`NOT coalesce(${param(kind, value, key)} = ANY(${expr}), false)`;
    default:
      throw new SubgraphQueryError(`\`${key}\` is not supported on list fields`);
  }
}

/**
 * The condition for one `where` object over `entity` rows aliased `alias`. `idExpr` overrides where the entity's id
 * lives; Account rows hold nothing but their id, so a nested `owner_: {…}` filter reads the owning column directly
 * instead of joining the account table.
 */
export function whereSql(
  entity: EntityDef,
  where: Record<string, unknown> | null | undefined,
  alias: string,
  ctx: Ctx,
  idExpr?: SQL,
): SQL | undefined {
  if (!where) return undefined;
  const conds: SQL[] = [];
  for (const [key, value] of Object.entries(where)) {
    if (value === undefined) continue;
    if (key === "and" || key === "or") {
      if (!Array.isArray(value)) throw new SubgraphQueryError(`\`${key}\` expects a list of filters`);
      const parts = value
        .filter((v): v is Record<string, unknown> => v !== null && typeof v === "object")
        .map((v) => whereSql(entity, v, alias, ctx, idExpr) ?? sql`true`);
      if (parts.length === 0) continue;
      conds.push(sql`(${sql.join(parts, key === "and" ? sql` AND ` : sql` OR `)})`);
      continue;
    }
    if (key === "_change_block") {
      if (value === null) continue;
      conds.push(changeBlockCondition(entity, value as { number_gte?: number }, alias, ctx, idExpr));
      continue;
    }
    const { field: fieldName, op } = parseFilterKey(key);
    const field = fieldOf(entity, fieldName);
    if (!field) throw new SubgraphQueryError(`Type \`${entity.name}_filter\` has no field \`${key}\``);

    if (op === "_") {
      if (value === null) continue;
      conds.push(nestedCondition(entity, field, value as Record<string, unknown>, alias, ctx, idExpr));
      continue;
    }
    if (field.kind === "derived") throw new SubgraphQueryError(`\`${key}\` is not a filter of ${entity.name}`);
    const expr = field.name === "id" && idExpr ? idExpr : col(alias, columnOf(entity, field));
    if (field.kind === "scalar" && field.list) conds.push(listCondition(expr, field.type, op, value, key));
    else conds.push(scalarCondition(expr, field.kind === "ref" ? "String" : field.type, op, value, key));
  }
  if (conds.length === 0) return undefined;
  return conds.length === 1 ? conds[0] : sql`(${sql.join(conds, sql` AND `)})`;
}

/**
 * `_change_block: { number_gte: N }`: the row as read was written at block N or later (graph-node's rule: the
 * entity's version has changed since N). A read of the live tables cannot say; the Loader reads the history instead
 * whenever a filter holds one (reading.ts).
 */
function changeBlockCondition(
  entity: EntityDef,
  value: { number_gte?: number },
  alias: string,
  ctx: Ctx,
  idExpr: SQL | undefined,
): SQL {
  const n = value.number_gte;
  if (typeof n !== "number") throw new SubgraphQueryError("`_change_block` takes `number_gte`");
  if (ctx.reading.at === null) throw new Error("_change_block read from the live tables");
  const first = ctx.reading.blockStarts.get(n);
  // A block the chain does not have yet: nothing has changed since.
  if (first === undefined) return sql`false`;
  const since = sql`${first.toString()}::numeric`;
  if (idExpr) {
    // Accounts are read through the referencing column: look the account's version up by that id.
    const a = `t${++ctx.aliases}`;
    return sql`EXISTS (SELECT 1 FROM ${source(entity, ctx)} ${sql.identifier(a)} WHERE ${col(a, "id")} = ${idExpr} AND ${col(
      a,
      VERSION_COLUMN,
    )} >= ${since})`;
  }
  return sql`${col(alias, VERSION_COLUMN)} >= ${since}`;
}

function nestedCondition(
  entity: EntityDef,
  field: FieldDef,
  where: Record<string, unknown>,
  alias: string,
  ctx: Ctx,
  idExpr: SQL | undefined,
): SQL {
  if (field.kind === "scalar") throw new SubgraphQueryError(`\`${field.name}_\` is not a filter of ${entity.name}`);
  const target = entityOf(field.target);
  if (field.kind === "ref") {
    const refExpr = col(alias, columnOf(entity, field));
    if (target.name === "Account") {
      return sql`(${refExpr} IS NOT NULL AND ${whereSql(target, where, alias, ctx, refExpr) ?? sql`true`})`;
    }
    const a = `t${++ctx.aliases}`;
    const inner = whereSql(target, where, a, ctx);
    return sql`EXISTS (SELECT 1 FROM ${byId(target, ctx, refExpr)} ${sql.identifier(a)}${inner ? sql` WHERE ${inner}` : sql``})`;
  }
  // Derived: rows of the target (or of each of an interface's tables) pointing back at us.
  const ownId = idExpr ?? col(alias, "id");
  const branches = concreteEntities(target).map((t) => {
    const a = `t${++ctx.aliases}`;
    const fk = columnOf(t, fieldOf(t, field.foreign)!);
    const inner = whereSql(t, where, a, ctx);
    return sql`EXISTS (SELECT 1 FROM ${source(t, ctx)} ${sql.identifier(a)} WHERE ${col(
      a,
      fk,
    )} = ${ownId}${inner ? sql` AND ${inner}` : sql``})`;
  });
  return branches.length === 1 ? branches[0]! : sql`(${sql.join(branches, sql` OR `)})`;
}

// ---- Ordering ----------------------------------------------------------------------------------------------------

/** The sort expression for an `orderBy` value: a column, or one level into a related entity (`parent__name`). */
export function orderExpr(entity: EntityDef, orderBy: string, alias: string, ctx: Ctx): SQL {
  const [head, nested] = orderBy.split("__") as [string, string | undefined];
  const field = fieldOf(entity, head);
  if (!field) throw new SubgraphQueryError(`\`${orderBy}\` is not a valid orderBy value for ${entity.name}`);
  if (field.kind === "scalar") return col(alias, columnOf(entity, field));
  if (field.kind === "derived" && field.many) {
    throw new SubgraphQueryError(`Ordering ${entity.name} by the list field \`${head}\` is not supported`);
  }
  const target = entityOf(field.target);
  const nestedField = fieldOf(target, nested ?? "id");
  if (!nestedField || nestedField.kind !== "scalar") {
    throw new SubgraphQueryError(`\`${orderBy}\` is not a valid orderBy value for ${entity.name}`);
  }
  if (field.kind === "ref") {
    const refExpr = col(alias, columnOf(entity, field));
    if (nestedField.name === "id") return refExpr;
    const a = `t${++ctx.aliases}`;
    return sql`(SELECT ${col(a, columnOf(target, nestedField))} FROM ${byId(target, ctx, refExpr)} ${sql.identifier(a)})`;
  }
  const a = `t${++ctx.aliases}`;
  const fk = columnOf(target, fieldOf(target, field.foreign)!);
  return sql`(SELECT ${col(a, columnOf(target, nestedField))} FROM ${source(target, ctx)} ${sql.identifier(a)} WHERE ${col(
    a,
    fk,
  )} = ${col(alias, "id")} ORDER BY ${col(a, "id")} LIMIT 1)`;
}

// ---- Selecting rows ----------------------------------------------------------------------------------------------

/** Column keys read for a query over `entities` (an interface reads the union of its tables' columns). */
function columnKeys(entities: EntityDef[]): string[] {
  const keys = new Set<string>();
  for (const e of entities) for (const k of tableInfo(e.table!).columns.keys()) keys.add(k);
  return [...keys];
}

const selectLists = new Map<string, SQL>();

/**
 * `alias.col::text AS "key", …, 'Type' AS "__typename"`: static per entity, key set and alias, so rendered once.
 * (drizzle's builder is slow with many chunks; this list is most of a statement.)
 */
function selectList(entity: EntityDef, keys: string[], alias: string): SQL {
  const cacheKey = `${entity.name}|${alias}|${keys.join(",")}`;
  let cached = selectLists.get(cacheKey);
  if (!cached) {
    const info = tableInfo(entity.table!);
    const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
    const parts = keys.map((key) => {
      const column = info.columns.get(key);
      if (!column) return `NULL::text AS ${q(key)}`;
      const isArray = info.sqlTypes.get(column)!.endsWith("[]");
      return `${q(alias)}.${q(column)}::${isArray ? "text[]" : "text"} AS ${q(key)}`;
    });
    // Entity names are fixed identifiers from the model, safe as literals.
    parts.push(`'${entity.name}'::text AS "__typename"`);
    cached = sql.raw(parts.join(", "));
    selectLists.set(cacheKey, cached);
  }
  return cached;
}

const dir = (d: "asc" | "desc") => sql.raw(d === "desc" ? "DESC" : "ASC");

/**
 * One SELECT over a concrete table: filtered, sorted (`__sort`, then id) and limited to the rows the page needs.
 * `scope` restricts it to the children of one parent (`fk = <parent expr>`), for the lateral form.
 */
function branch(
  entity: EntityDef,
  keys: string[],
  args: ListArgs,
  limit: number,
  offset: number,
  scope: { fk: string; parent: SQL } | undefined,
  withSortColumn: boolean,
  embeds: FieldDef[],
  reading: Reading,
): SQL {
  const ctx: Ctx = { aliases: 0, reading };
  const alias = "t0";
  const conds: SQL[] = [];
  if (scope) conds.push(sql`${col(alias, scope.fk)} = ${scope.parent}`);
  const w = whereSql(entity, args.where, alias, ctx);
  if (w) conds.push(w);
  const d = dir(args.orderDirection ?? "asc");
  const sortKey = args.orderBy && args.orderBy !== "id" ? orderExpr(entity, args.orderBy, alias, ctx) : undefined;
  const order = sortKey ? sql`${sortKey} ${d}, ${col(alias, "id")} ${d}` : sql`${col(alias, "id")} ${d}`;
  let extra = withSortColumn && sortKey ? sql`, ${sortKey} AS "__sort"` : sql``;
  if (embeds.length) extra = sql`${extra}, ${embedList(entity, embeds, alias, reading)}`;
  return sql`SELECT ${selectList(entity, keys, alias)}${extra} FROM ${source(entity, ctx)} ${sql.identifier(alias)}${conds.length ? sql` WHERE ${sql.join(conds, sql` AND `)}` : sql``} ORDER BY ${order} LIMIT ${sql.raw(
    String(limit),
  )}${offset ? sql` OFFSET ${sql.raw(String(offset))}` : sql``}`;
}

/** A page of `entity` (a table or an interface), optionally per parent (`scope`). */
function pageSql(entity: EntityDef, args: ListArgs, reading: Reading, scope?: { foreign: string; parent: SQL }): SQL {
  const impls = concreteEntities(entity);
  const keys = columnKeys(impls);
  const fkOf = (e: EntityDef) =>
    scope ? { fk: columnOf(e, fieldOf(e, scope.foreign)!), parent: scope.parent } : undefined;
  if (impls.length === 1 && !entity.implementations) {
    return branch(entity, keys, args, args.first, args.skip, fkOf(entity), false, [], reading);
  }
  // Interface: each table's best first+skip rows, then the page over their union.
  const sorted = !!args.orderBy && args.orderBy !== "id";
  const parts = impls.map(
    (e) => sql`(${branch(e, keys, args, args.first + args.skip, 0, fkOf(e), sorted, [], reading)})`,
  );
  return pageOver(parts, keys, args, sorted);
}

/** The page over several parts, each already holding its best first+skip rows (with `__sort` when `sorted`). */
function pageOver(parts: SQL[], keys: string[], args: ListArgs, sorted: boolean): SQL {
  const d = dir(args.orderDirection ?? "asc");
  const order = sorted ? sql`"u"."__sort" ${d}, "u"."id" ${d}` : sql`"u"."id" ${d}`;
  const cols = sql.join(
    [...keys, "__typename"].map((k) => sql`"u".${sql.identifier(k)}`),
    sql`, `,
  );
  return sql`SELECT ${cols} FROM (${sql.join(parts, sql` UNION ALL `)}) "u" ORDER BY ${order} LIMIT ${sql.raw(
    String(args.first),
  )}${args.skip ? sql` OFFSET ${sql.raw(String(args.skip))}` : sql``}`;
}

export function listQuery(
  entity: EntityDef,
  args: ListArgs,
  embeds: FieldDef[] = [],
  reading: Reading = READ_HEAD,
): SQL {
  if (embeds.length && !entity.implementations) {
    return branch(entity, columnKeys([entity]), args, args.first, args.skip, undefined, false, embeds, reading);
  }
  return pageSql(entity, args, reading);
}

// ---- Embedded to-one relations -----------------------------------------------------------------------------------

/** The column an embedded relation's row arrives in (JSON of its text columns, or null). */
export const embedKey = (field: FieldDef) => `__embed_${field.name}`;

/**
 * For each to-one relation the query selects (Domain.resolver, Domain.registration, Registration.domain, …), its row
 * as JSON in the same statement, so a page and its relations cost one round trip. Every value is already text, so
 * JSON loses nothing. PostgreSQL evaluates these subqueries after ORDER BY/LIMIT, for the returned rows only.
 */
function embedList(entity: EntityDef, embeds: FieldDef[], alias: string, reading: Reading): SQL {
  const own = (column: string) => col(alias, column);
  return sql.join(
    embeds.map((f, i) => {
      if (f.kind === "scalar") throw new Error("scalars are not embedded");
      const target = entityOf(f.target);
      const a = `e${i}`;
      // A reference by id, or the one row pointing back by a foreign key: found by key either way.
      const table = source(target, { reading });
      const rows =
        f.kind === "ref"
          ? sql`${byId(target, { reading }, own(columnOf(entity, f)))} ${sql.identifier(a)}`
          : // The rows pointing at this one, fenced (OFFSET 0) so that the foreign key's index finds them: left to
            // itself the planner may walk the primary key in id order until one matches, the whole table for a
            // row that has none (an unanalyzed `registration`: 5.7 ms against 0.2 ms per domain on 8,682 rows).
            sql`(SELECT * FROM ${table} ${sql.identifier(a)} WHERE ${col(a, columnOf(target, fieldOf(target, f.foreign)!))} = ${own(
              "id",
            )} OFFSET 0) ${sql.identifier(a)} ORDER BY ${col(a, "id")}`;
      return sql`(SELECT row_to_json("j") FROM (SELECT ${selectList(target, columnKeys([target]), a)} FROM ${rows} LIMIT 1) AS "j") AS ${sql.identifier(
        embedKey(f),
      )}`;
    }),
    sql`, `,
  );
}

/** One row by id with its embedded relations (root `domain(id:)` and the like). */
export function byIdQuery(entity: EntityDef, id: string, embeds: FieldDef[], reading: Reading = READ_HEAD): SQL {
  return sql`SELECT ${selectList(entity, columnKeys([entity]), "t0")}, ${embedList(entity, embeds, "t0", reading)} FROM ${byId(
    entity,
    { reading },
    sql`${id}::text`,
  )} "t0"`;
}

/**
 * The children of many parents in one statement: for each parent id, a lateral page of the rows whose `foreign`
 * field points at it. Each page uses the (fk, …) index of its table, so this is N index probes, not a scan.
 */
export function childrenQuery(
  entity: EntityDef,
  foreign: string,
  parentIds: string[],
  args: ListArgs,
  reading: Reading = READ_HEAD,
): SQL {
  if (parentIds.length === 1) {
    // One parent (`domain(id:) { subdomains }`): its id as a constant lets the planner use the column's statistics,
    // so a parent with many children (`eth`) is read in index order up to the page instead of fetched whole and sorted.
    const [parentId] = parentIds;
    const page = pageSql(entity, args, reading, { foreign, parent: sql`${parentId}::text` });
    return sql`SELECT ${parentId}::text AS "__parent", "x".* FROM (${page}) AS "x"`;
  }
  const inner = pageSql(entity, args, reading, { foreign, parent: sql`"p"."__parent"` });
  return sql`SELECT "p"."__parent", "x".* FROM unnest(${idArray(parentIds)}) AS "p"("__parent") CROSS JOIN LATERAL (${inner}) AS "x"`;
}

/** Rows by id; an interface looks in each of its tables. */
export function byIdsQuery(entity: EntityDef, ids: string[], reading: Reading = READ_HEAD): SQL {
  const impls = concreteEntities(entity);
  const keys = columnKeys(impls);
  const parts = impls.map((e) =>
    reading.at === null || e.immutable
      ? sql`SELECT ${selectList(e, keys, "t0")} FROM ${source(e, { reading })} "t0" WHERE "t0"."id" = ANY(${idArray(ids)})`
      : // At a block, each id's one version by a backward probe: the general source tests every version of the id
        // (`eth`'s, one per child added: 1,685 at 3,000 names, 7.7 ms for one row).
        sql`SELECT ${selectList(e, keys, "t0")} FROM unnest(${idArray(ids)}) AS "i"("id") CROSS JOIN LATERAL ${byId(
          e,
          { reading },
          sql`"i"."id"`,
        )} "t0"`,
  );
  return parts.length === 1 ? parts[0]! : sql.join(parts, sql` UNION ALL `);
}

/** The one row of `entity` whose `foreign` field points at each parent (Domain.registration, Domain.wrappedDomain). */
export function derivedOneQuery(
  entity: EntityDef,
  foreign: string,
  parentIds: string[],
  reading: Reading = READ_HEAD,
): SQL {
  const fk = columnOf(entity, fieldOf(entity, foreign)!);
  const keys = columnKeys([entity]);
  return sql`SELECT DISTINCT ON (${col("t0", fk)}) ${col("t0", fk)} AS "__parent", ${selectList(
    entity,
    keys,
    "t0",
  )} FROM ${source(entity, { reading })} "t0" WHERE ${col("t0", fk)} = ANY(${idArray(parentIds)}) ORDER BY ${col(
    "t0",
    fk,
  )}, ${col("t0", "id")}`;
}
