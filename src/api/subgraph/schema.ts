import {
  GraphQLBoolean,
  GraphQLEnumType,
  type GraphQLEnumValueConfigMap,
  GraphQLError,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  GraphQLID,
  type GraphQLInputFieldConfigMap,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLInt,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  Kind,
  type SelectionSetNode,
} from "graphql";
import { blockOf, nestedReading, readingFor, type SubgraphHistory, type SubgraphMeta } from "./at-block";
import { SubgraphQueryError } from "./errors";
import type { SubgraphLimits } from "./limits";
import type { Loader } from "./loader";
import { ENTITIES, type EntityDef, entityOf, type FieldDef, type ScalarKind } from "./model";
import { type ListArgs, opsFor, type Row, textValue } from "./sql";

/*
 * The GraphQL schema of The Graph's ENS subgraph API (type, input and enum names as The Graph generates them:
 * `Domain_filter`, `Domain_orderBy`, `Block_height`, `_Meta_`), built from the entity model.
 */

export type { BlockRef, SubgraphMeta } from "./at-block";

export interface SubgraphContext {
  loader: Loader;
  meta: () => Promise<SubgraphMeta>;
  limits: SubgraphLimits;
  /** The entity history and the chain's blocks, for `block:` below the head and `_change_block`; absent: none kept. */
  history?: SubgraphHistory;
}

// ---- Scalars -----------------------------------------------------------------------------------------------------

const INTEGER = /^-?\d+$/;

function parseBigInt(value: unknown): string {
  if (typeof value === "number" && Number.isInteger(value)) return String(value);
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string" && INTEGER.test(value.trim())) return BigInt(value.trim()).toString();
  throw new GraphQLError(`Invalid BigInt value: ${JSON.stringify(value)} (expected a decimal integer string)`);
}

export const BigIntScalar = new GraphQLScalarType({
  name: "BigInt",
  serialize: (v) => (typeof v === "bigint" ? v.toString() : String(v)),
  parseValue: parseBigInt,
  parseLiteral(ast) {
    if (ast.kind === Kind.STRING || ast.kind === Kind.INT) return parseBigInt(ast.value);
    throw new GraphQLError("Invalid BigInt literal: expected a string or an integer");
  },
});

function parseBytes(value: unknown): string {
  if (typeof value === "string" && /^(0x)?[0-9a-fA-F]*$/.test(value)) {
    // Bytes compare as bytes in The Graph, so hex case never matters.
    return `0x${value.replace(/^0x/, "").toLowerCase()}`;
  }
  throw new GraphQLError(`Invalid Bytes value: ${JSON.stringify(value)} (expected a 0x-prefixed hex string)`);
}

export const BytesScalar = new GraphQLScalarType({
  name: "Bytes",
  // The Graph prints bytes as lowercase hex, whatever case a handler stored.
  serialize: (v) => String(v).toLowerCase(),
  parseValue: parseBytes,
  parseLiteral(ast) {
    if (ast.kind === Kind.STRING) return parseBytes(ast.value);
    throw new GraphQLError("Invalid Bytes literal: expected a hex string");
  },
});

const SCALARS: Record<ScalarKind, GraphQLScalarType> = {
  ID: GraphQLID,
  String: GraphQLString,
  Bytes: BytesScalar,
  BigInt: BigIntScalar,
  Int: GraphQLInt,
  Boolean: GraphQLBoolean,
};

function decode(kind: ScalarKind, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  if (kind === "Int") return Number(v);
  if (kind === "Boolean") return v === true || v === "true" || v === "t";
  return v;
}

// ---- Shared types ------------------------------------------------------------------------------------------------

const OrderDirection = new GraphQLEnumType({
  name: "OrderDirection",
  description: "Defines the order direction, either ascending or descending",
  values: { asc: { value: "asc" }, desc: { value: "desc" } },
});

const BlockChangedFilter = new GraphQLInputObjectType({
  name: "BlockChangedFilter",
  fields: { number_gte: { type: new GraphQLNonNull(GraphQLInt) } },
});

export const BlockHeight = new GraphQLInputObjectType({
  name: "Block_height",
  fields: {
    hash: { type: BytesScalar },
    number: { type: GraphQLInt },
    number_gte: { type: GraphQLInt },
  },
});

const SubgraphErrorPolicy = new GraphQLEnumType({
  name: "_SubgraphErrorPolicy_",
  values: {
    allow: { value: "allow", description: "Data will be returned even if the subgraph has indexing errors" },
    deny: { value: "deny", description: "If the subgraph has indexing errors, data will be omitted. The default." },
  },
});

const BlockType = new GraphQLObjectType({
  name: "_Block_",
  fields: {
    hash: { type: BytesScalar, description: "The hash of the block" },
    number: { type: new GraphQLNonNull(GraphQLInt), description: "The block number" },
    timestamp: {
      type: GraphQLInt,
      description: "Integer representation of the timestamp stored in blocks for the chain",
    },
    parentHash: { type: BytesScalar, description: "The hash of the parent block" },
  },
});

const MetaType = new GraphQLObjectType({
  name: "_Meta_",
  description: "The type for the top-level _meta field",
  fields: {
    block: { type: new GraphQLNonNull(BlockType) },
    deployment: { type: new GraphQLNonNull(GraphQLString) },
    hasIndexingErrors: { type: new GraphQLNonNull(GraphQLBoolean) },
  },
});

// ---- Arguments ---------------------------------------------------------------------------------------------------

interface RawListArgs {
  where?: Record<string, unknown> | null;
  orderBy?: string | null;
  orderDirection?: "asc" | "desc" | null;
  first?: number | null;
  skip?: number | null;
}

export function listArgs(raw: RawListArgs, limits: SubgraphLimits): ListArgs {
  const first = raw.first ?? 100;
  const skip = raw.skip ?? 0;
  if (first < 0 || first > limits.maxFirst) {
    throw new SubgraphQueryError(`The \`first\` argument must be between 0 and ${limits.maxFirst}, but is ${first}`);
  }
  if (skip < 0 || skip > limits.maxSkip) {
    throw new SubgraphQueryError(`The \`skip\` argument must be between 0 and ${limits.maxSkip}, but is ${skip}`);
  }
  return { where: raw.where, orderBy: raw.orderBy, orderDirection: raw.orderDirection, first, skip };
}

/**
 * The to-one relations a root field's selection reads on its entity (through fragments too), which the root
 * statement can carry along: refs to tables (an Account is only its id, never read) and derived one-to-ones.
 */
export function embeddable(entity: EntityDef, info: GraphQLResolveInfo): FieldDef[] {
  if (entity.implementations) return [];
  const names = new Set<string>();
  const typeNames = new Set([entity.name, ...(entity.interfaces ?? [])]);
  const visit = (set: SelectionSetNode | undefined, seen: Set<string>) => {
    for (const sel of set?.selections ?? []) {
      if (sel.kind === Kind.FIELD) names.add(sel.name.value);
      else if (sel.kind === Kind.INLINE_FRAGMENT) {
        if (!sel.typeCondition || typeNames.has(sel.typeCondition.name.value)) visit(sel.selectionSet, seen);
      } else if (!seen.has(sel.name.value)) {
        const frag = info.fragments[sel.name.value];
        if (frag && typeNames.has(frag.typeCondition.name.value)) {
          visit(frag.selectionSet, new Set([...seen, sel.name.value]));
        }
      }
    }
  };
  for (const node of info.fieldNodes) visit(node.selectionSet, new Set());
  return entity.fields.filter(
    (f) => names.has(f.name) && ((f.kind === "ref" && f.target !== "Account") || (f.kind === "derived" && !f.many)),
  );
}

// ---- Entity types ------------------------------------------------------------------------------------------------

export function buildSubgraphSchema(): GraphQLSchema {
  const outputTypes = new Map<string, GraphQLObjectType | GraphQLInterfaceType>();
  const filterTypes = new Map<string, GraphQLInputObjectType>();
  const orderByTypes = new Map<string, GraphQLEnumType>();

  const outputOf = (name: string) => outputTypes.get(name)!;

  const filterOf = (entity: EntityDef): GraphQLInputObjectType => {
    const existing = filterTypes.get(entity.name);
    if (existing) return existing;
    const type: GraphQLInputObjectType = new GraphQLInputObjectType({
      name: `${entity.name}_filter`,
      fields: () => {
        const fields: GraphQLInputFieldConfigMap = {};
        for (const f of entity.fields) {
          if (f.kind === "derived") {
            fields[`${f.name}_`] = { type: filterOf(entityOf(f.target)) };
            continue;
          }
          const list = f.kind === "scalar" && !!f.list;
          const base: GraphQLInputType =
            f.kind === "ref" ? GraphQLString : f.name === "id" ? GraphQLID : SCALARS[f.type];
          for (const op of opsFor(f.kind === "ref" ? "ref" : f.type, list)) {
            const key = op ? `${f.name}_${op}` : f.name;
            const isListValue = list ? op !== "has" && op !== "not_has" : op === "in" || op === "not_in";
            fields[key] = {
              type: isListValue ? new GraphQLList(new GraphQLNonNull(base)) : base,
            };
          }
          if (f.kind === "ref") fields[`${f.name}_`] = { type: filterOf(entityOf(f.target)) };
        }
        fields._change_block = { type: BlockChangedFilter, description: "Filter for the block changed event." };
        fields.and = { type: new GraphQLList(type) };
        fields.or = { type: new GraphQLList(type) };
        return fields;
      },
    });
    filterTypes.set(entity.name, type);
    return type;
  };

  const orderByOf = (entity: EntityDef): GraphQLEnumType => {
    const existing = orderByTypes.get(entity.name);
    if (existing) return existing;
    const values: GraphQLEnumValueConfigMap = {};
    for (const f of entity.fields) {
      values[f.name] = { value: f.name };
      const nestable = f.kind === "ref" || (f.kind === "derived" && !f.many);
      if (!nestable) continue;
      for (const g of entityOf(f.target).fields) {
        if (g.kind === "scalar" && !g.list) values[`${f.name}__${g.name}`] = { value: `${f.name}__${g.name}` };
      }
    }
    const type = new GraphQLEnumType({ name: `${entity.name}_orderBy`, values });
    orderByTypes.set(entity.name, type);
    return type;
  };

  const collectionArgs = (entity: EntityDef): GraphQLFieldConfigArgumentMap => ({
    skip: { type: GraphQLInt, defaultValue: 0 },
    first: { type: GraphQLInt, defaultValue: 100 },
    orderBy: { type: orderByOf(entity) },
    orderDirection: { type: OrderDirection },
    where: { type: filterOf(entity) },
  });

  const fieldConfig = (f: FieldDef): GraphQLFieldConfig<Row, SubgraphContext> => {
    if (f.kind === "scalar") {
      let type: GraphQLOutputType = SCALARS[f.type];
      if (f.list) type = new GraphQLList(new GraphQLNonNull(type));
      if (f.nonNull) type = new GraphQLNonNull(type);
      const column = f.column;
      const kind = f.type;
      return {
        type,
        resolve: f.list
          ? (row) => (row[column] as unknown[] | null)?.map((v) => decode(kind, v)) ?? null
          : (row) => decode(kind, row[column]),
      };
    }
    const target = entityOf(f.target);
    if (f.kind === "ref") {
      const type = f.nonNull ? new GraphQLNonNull(outputOf(f.target)) : outputOf(f.target);
      const column = f.column;
      return {
        type,
        resolve: (row, _args, ctx) => {
          const id = row[column] as string | null;
          if (id === null || id === undefined) return null;
          // An Account holds nothing but its id: no need to read it.
          if (target.name === "Account") return { id, __typename: "Account" };
          const reading = ctx.loader.readingOf(row);
          const known = ctx.loader.peekById(target, id, reading);
          return known !== undefined ? known : ctx.loader.byId(target, id, reading);
        },
      };
    }
    if (!f.many) {
      return {
        type: outputOf(f.target),
        resolve: (row, _args, ctx) => {
          const reading = ctx.loader.readingOf(row);
          const known = ctx.loader.peekDerivedOne(target, f.foreign, row.id, reading);
          return known !== undefined ? known : ctx.loader.derivedOne(target, f.foreign, row.id, reading);
        },
      };
    }
    const list = new GraphQLList(new GraphQLNonNull(outputOf(f.target)));
    return {
      type: f.nonNull ? new GraphQLNonNull(list) : list,
      args: collectionArgs(target),
      resolve: async (row, args, ctx) => {
        const list = listArgs(args, ctx.limits);
        // Read where the parent was read; a `_change_block` filter reads the history.
        const reading = await nestedReading(ctx.meta, ctx.history, ctx.loader.readingOf(row), list.where);
        return ctx.loader.children(target, f.foreign, list, row.id, reading);
      },
    };
  };

  const fieldsOf = (entity: EntityDef) => (): GraphQLFieldConfigMap<Row, SubgraphContext> =>
    Object.fromEntries(entity.fields.map((f) => [f.name, fieldConfig(f)]));

  for (const entity of ENTITIES.values()) {
    if (entity.implementations) {
      outputTypes.set(
        entity.name,
        new GraphQLInterfaceType({
          name: entity.name,
          fields: fieldsOf(entity),
          resolveType: (row: Row) => row.__typename,
        }),
      );
    }
  }
  for (const entity of ENTITIES.values()) {
    if (entity.implementations) continue;
    outputTypes.set(
      entity.name,
      new GraphQLObjectType({
        name: entity.name,
        interfaces: () => (entity.interfaces ?? []).map((i) => outputTypes.get(i) as GraphQLInterfaceType),
        fields: fieldsOf(entity),
      }),
    );
  }

  // ---- Root fields -----------------------------------------------------------------------------------------------
  const blockArgs: GraphQLFieldConfigArgumentMap = {
    block: {
      type: BlockHeight,
      description:
        "The block at which the query should be executed. Can either be a `{ hash: Bytes }` value containing a block hash, a `{ number: Int }` containing the block number, or a `{ number_gte: Int }` containing the minimum block number. In the case of `number_gte`, the query will be executed on the latest block only if the subgraph has progressed to or past the minimum block number. Defaults to the latest block when omitted.",
    },
    subgraphError: { type: new GraphQLNonNull(SubgraphErrorPolicy), defaultValue: "deny" },
  };
  const queryFields: GraphQLFieldConfigMap<unknown, SubgraphContext> = {};
  for (const entity of ENTITIES.values()) {
    queryFields[entity.singular] = {
      type: outputOf(entity.name),
      args: { id: { type: new GraphQLNonNull(GraphQLID) }, ...blockArgs },
      resolve: async (_src, args, ctx, info) => {
        const reading = await readingFor(ctx.meta, ctx.history, args.block, undefined);
        return ctx.loader.one(entity, textValue(args.id), embeddable(entity, info), reading);
      },
    };
    queryFields[entity.plural] = {
      type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(outputOf(entity.name)))),
      args: { ...collectionArgs(entity), ...blockArgs },
      resolve: async (_src, args, ctx, info) => {
        const list = listArgs(args, ctx.limits);
        const reading = await readingFor(ctx.meta, ctx.history, args.block, list.where);
        return ctx.loader.list(entity, list, embeddable(entity, info), reading);
      },
    };
  }
  queryFields._meta = {
    type: MetaType,
    description: "Access to subgraph metadata",
    args: { block: { type: BlockHeight } },
    resolve: async (_src, args, ctx) => {
      const meta = await ctx.meta();
      const block = await blockOf(meta, ctx.history, args.block);
      if (!meta.block) throw new SubgraphQueryError("No block has been indexed yet");
      // At a past block, that block (graph-node answers the block the query ran at).
      return block ? { ...meta, block } : meta;
    },
  };

  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: "Query", fields: queryFields }),
    types: [...outputTypes.values()],
  });
}
