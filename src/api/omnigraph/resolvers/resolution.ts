import { GraphQLError, type GraphQLResolveInfo } from "graphql";
import type { Address, Hex } from "viem";
import { isNormalizedName, nameInputProblem } from "../../../lib/name-input";
import { ABI_MASK_LIMIT, emptyAnswer, type RecordsAnswer, type RecordsRequest } from "../../shared/resolution/records";
import { ProtocolTrace, type TraceNode } from "../../shared/resolution/trace";
import { Batcher } from "../batch";
import type { OmnigraphContext } from "../context";
import { MAX_RECORD_KEYS, MAX_RESOLUTIONS_PER_REQUEST } from "../limits";
import { rootChainIdOf } from "../model";
import { canonicalName } from "../names";
import { askedPrimaryNames } from "./primary-names-asked";
import { PROFILE_COIN_TYPES, PROFILE_TEXT_KEYS, profileOf } from "./profile";

/*
 * Resolution inside the graph, through the REST routes' policy (resolution/service.ts): from the index when it is
 * realtime and `accelerate` allows, else from the chains; `acceleration.attempted` says which answered. Every field
 * of one name's resolution at one level of the answer is gathered into one request for that name. A resolution's
 * protocol trace is built only when the query selects `trace`.
 */

export interface ForwardResolveModel {
  name: string | null;
  accelerate: boolean;
}

export const forwardResolve = (name: string | null, accelerate: boolean): ForwardResolveModel => ({ name, accelerate });

type Resolved = { answer: RecordsAnswer; accelerated: boolean; trace?: TraceNode[] };

function spend(ctx: OmnigraphContext) {
  if (++ctx.resolutions > MAX_RESOLUTIONS_PER_REQUEST) {
    throw new GraphQLError(`A query may resolve at most ${MAX_RESOLUTIONS_PER_REQUEST} names or addresses`);
  }
}

/** What one field asks of a name's records; the gatherer joins every field's asks into one request per name. */
export type RecordsAsk = Partial<Omit<RecordsRequest, "name">> & { name?: boolean; trace?: boolean };

const nothing = (): RecordsRequest => ({ coinTypes: [], texts: [], name: false });

/** Both asks at once (lists joined without repeats, flags or'ed). */
function join(into: RecordsRequest, ask: RecordsAsk): RecordsRequest {
  const union = <T>(a: T[] | undefined, b: T[] | undefined) => [...new Set([...(a ?? []), ...(b ?? [])])];
  return {
    coinTypes: union(into.coinTypes, ask.coinTypes),
    texts: union(into.texts, ask.texts),
    name: into.name || !!ask.name,
    contenthash: !!into.contenthash || !!ask.contenthash,
    pubkey: !!into.pubkey || !!ask.pubkey,
    abiMasks: union(into.abiMasks, ask.abiMasks),
    interfaces: union(into.interfaces, ask.interfaces),
    dnszonehash: !!into.dnszonehash || !!ask.dnszonehash,
    version: !!into.version || !!ask.version,
  };
}

/** Every record asked of each name at one level of the answer, read in one resolution per name. */
class RecordsGatherer {
  private readonly wanted = new Map<string, RecordsRequest>();
  /** Names whose resolution a `trace` field asked for: only those build a trace. */
  private readonly traced = new Set<string>();
  private readonly batcher: Batcher<string, Resolved | null>;

  constructor(ctx: OmnigraphContext, accelerate: boolean) {
    this.batcher = new Batcher<string, Resolved | null>(async (names) => {
      const out = new Map<string, Resolved>();
      await Promise.all(
        names.map(async (n) => {
          const request = this.wanted.get(n)!;
          this.wanted.delete(n);
          spend(ctx);
          const tracer = this.traced.delete(n) ? new ProtocolTrace() : undefined;
          const { result, accelerated } = await ctx.deps.resolution.answer(
            ctx.countedDb,
            accelerate,
            (r) => r.records(n, request),
            tracer,
          );
          out.set(n, { answer: result, accelerated, ...(tracer ? { trace: tracer.toJSON() } : {}) });
        }),
      );
      return out;
    }, null);
  }

  load(name: string, ask: RecordsAsk): Promise<Resolved> {
    if (ask.trace) this.traced.add(name);
    this.wanted.set(name, join(this.wanted.get(name) ?? nothing(), ask));
    return this.batcher.load(name).then((r) => r ?? { answer: emptyAnswer(join(nothing(), ask)), accelerated: false });
  }
}

function recordsOf(ctx: OmnigraphContext, f: ForwardResolveModel, ask: RecordsAsk): Promise<Resolved> {
  return ctx.shared(`records:${f.accelerate}`, () => new RecordsGatherer(ctx, f.accelerate)).load(f.name!, ask);
}

/** Names the resolution routes accept; any other has no records to read. */
const resolvable = (name: string | null): name is string =>
  name !== null && name !== "" && nameInputProblem(name) === undefined;

export const forwardResolveResolvers = {
  acceleration: async (f: ForwardResolveModel, _: unknown, ctx: OmnigraphContext) => ({
    requested: f.accelerate,
    attempted: resolvable(f.name) ? (await recordsOf(ctx, f, {})).accelerated : false,
  }),
  records: (f: ForwardResolveModel) => (resolvable(f.name) ? f : null),
  profile: async (f: ForwardResolveModel, _: unknown, ctx: OmnigraphContext) =>
    resolvable(f.name)
      ? profileOf(
          (await recordsOf(ctx, f, { coinTypes: PROFILE_COIN_TYPES, texts: PROFILE_TEXT_KEYS, contenthash: true }))
            .answer,
        )
      : null,
  // The resolution of this level's records (the same one), traced; null for a name that cannot be resolved.
  trace: async (f: ForwardResolveModel, _: unknown, ctx: OmnigraphContext) =>
    resolvable(f.name) ? ((await recordsOf(ctx, f, { trace: true })).trace ?? null) : null,
};

export const resolvedRecordsResolvers = {
  addresses: async (f: ForwardResolveModel, args: { coinTypes: bigint[] }, ctx: OmnigraphContext) => {
    if (args.coinTypes.length > MAX_RECORD_KEYS)
      throw new GraphQLError(`\`coinTypes\` takes at most ${MAX_RECORD_KEYS} coin types`);
    const { answer } = await recordsOf(ctx, f, { coinTypes: args.coinTypes });
    return args.coinTypes.map((c) => ({ coinType: c, address: answer.addresses?.[c.toString()] ?? null }));
  },
  texts: async (f: ForwardResolveModel, args: { keys: string[] }, ctx: OmnigraphContext) => {
    if (args.keys.length > MAX_RECORD_KEYS) throw new GraphQLError(`\`keys\` takes at most ${MAX_RECORD_KEYS} keys`);
    const { answer } = await recordsOf(ctx, f, { texts: args.keys });
    return args.keys.map((key) => ({ key, value: answer.texts?.[key] ?? null }));
  },
  contenthash: async (f: ForwardResolveModel, _: unknown, ctx: OmnigraphContext) =>
    (await recordsOf(ctx, f, { contenthash: true })).answer.contenthash ?? null,
  dnszonehash: async (f: ForwardResolveModel, _: unknown, ctx: OmnigraphContext) =>
    (await recordsOf(ctx, f, { dnszonehash: true })).answer.dnszonehash ?? null,
  pubkey: async (f: ForwardResolveModel, _: unknown, ctx: OmnigraphContext) =>
    (await recordsOf(ctx, f, { pubkey: true })).answer.pubkey ?? null,
  abi: async (f: ForwardResolveModel, args: { contentTypeMask: bigint }, ctx: OmnigraphContext) => {
    const mask = args.contentTypeMask;
    if (mask <= 0n || mask >= ABI_MASK_LIMIT)
      throw new GraphQLError(
        "`contentTypeMask` is a positive bitmask of ENSIP-4 content types (1 JSON, 2 zlib JSON, 4 CBOR, 8 URI) below 2^255",
      );
    const found = (await recordsOf(ctx, f, { abiMasks: [mask] })).answer.abis?.[mask.toString()] ?? null;
    return found && { contentType: BigInt(found.contentType), data: found.data };
  },
  interfaces: async (f: ForwardResolveModel, args: { ids: Hex[] }, ctx: OmnigraphContext) => {
    if (args.ids.length > MAX_RECORD_KEYS)
      throw new GraphQLError(`\`ids\` takes at most ${MAX_RECORD_KEYS} interface ids`);
    const { answer } = await recordsOf(ctx, f, { interfaces: args.ids });
    return args.ids.map((interfaceId) => ({ interfaceId, implementer: answer.interfaces?.[interfaceId] ?? null }));
  },
  // The `name` record, named for what it is used for (ENSIP-19 reverse resolution).
  reverseName: async (f: ForwardResolveModel, _: unknown, ctx: OmnigraphContext) =>
    (await recordsOf(ctx, f, { name: true })).answer.name ?? null,
  version: async (f: ForwardResolveModel, _: unknown, ctx: OmnigraphContext) => {
    const version = (await recordsOf(ctx, f, { version: true })).answer.version;
    return version ? BigInt(version) : null;
  },
};

// ---- reverse resolution -----------------------------------------------------------------------------------------

export interface ReverseResolveModel {
  address: Address;
  accelerate: boolean;
  /** The `resolve` field's own resolve info: what its selection asks (for `trace`). */
  info?: GraphQLResolveInfo;
}

export const reverseResolve = (
  address: Address,
  accelerate: boolean,
  info?: GraphQLResolveInfo,
): ReverseResolveModel => ({ address, accelerate, ...(info ? { info } : {}) });

type ChainName = "ETHEREUM" | "BASE" | "LINEA" | "OPTIMISM" | "ARBITRUM_ONE" | "SCROLL";

/** The namespace's chain of each chain name (the devnet's L2s stand in for Base and Linea). */
function chainsByName(ctx: OmnigraphContext): Map<ChainName, number> {
  const ds = ctx.deps.namespace.datasources;
  const out = new Map<ChainName, number>();
  out.set("ETHEREUM", rootChainIdOf(ctx.deps.namespace));
  const set = (name: ChainName, id: number | undefined) => id !== undefined && out.set(name, id);
  set("BASE", ds.reverseBase?.chain.id ?? ds.basenames?.chain.id);
  set("LINEA", ds.reverseLinea?.chain.id ?? ds.lineanames?.chain.id);
  set("OPTIMISM", ds.reverseOptimism?.chain.id);
  set("ARBITRUM_ONE", ds.reverseArbitrum?.chain.id);
  set("SCROLL", ds.reverseScroll?.chain.id);
  return out;
}

const coinTypeOfChain = (chainId: number, rootChainId: number) =>
  chainId === rootChainId ? 60n : 0x80000000n | BigInt(chainId);

interface PrimaryNameModel {
  chainName: ChainName | null;
  coinType: bigint;
  chainId: number | undefined;
  owner: ReverseResolveModel;
}

function primaryNameTarget(
  ctx: OmnigraphContext,
  r: ReverseResolveModel,
  by: { chainName?: ChainName | null; coinType?: bigint | null },
): PrimaryNameModel {
  const chains = chainsByName(ctx);
  const rootChainId = rootChainIdOf(ctx.deps.namespace);
  if (by.chainName) {
    const chainId = chains.get(by.chainName);
    const coinType = chainId !== undefined ? coinTypeOfChain(chainId, rootChainId) : 0n;
    return { chainName: by.chainName, coinType, chainId, owner: r };
  }
  const coinType = by.coinType ?? 60n;
  const chainId =
    coinType === 60n
      ? rootChainId
      : coinType >= 0x80000000n && coinType < 0x100000000n
        ? Number(coinType & 0x7fffffffn)
        : undefined;
  const known = [...chains.entries()].find(([, id]) => id === chainId);
  return { chainName: known?.[0] ?? null, coinType, chainId: known ? chainId : undefined, owner: r };
}

type PrimaryNameResolved = { name: string | null; accelerated: boolean; trace?: TraceNode[] };

/**
 * An account's primary name on a chain, resolved once per request: `ReverseResolve.trace` asks for it (traced) a level
 * before `PrimaryNameRecord.name` does, and both get the same resolution.
 */
function primaryNameResolution(
  ctx: OmnigraphContext,
  owner: ReverseResolveModel,
  chainId: number,
  traced: boolean,
): Promise<PrimaryNameResolved> {
  const kept = ctx.shared(
    `primary-name:${owner.accelerate}`,
    () => new Map<string, { traced: boolean; resolution: Promise<PrimaryNameResolved> }>(),
  );
  const key = `${owner.address}:${chainId}`;
  const found = kept.get(key);
  if (found && (found.traced || !traced)) return found.resolution;
  const resolution = (async () => {
    spend(ctx);
    const tracer = traced ? new ProtocolTrace() : undefined;
    const { result, accelerated } = await ctx.deps.resolution.answer(
      ctx.countedDb,
      owner.accelerate,
      (r) => r.primaryName(owner.address, chainId),
      tracer,
    );
    return { name: result, accelerated, ...(tracer ? { trace: tracer.toJSON() } : {}) };
  })();
  kept.set(key, { traced, resolution });
  return resolution;
}

async function primaryNameOf(ctx: OmnigraphContext, p: PrimaryNameModel): Promise<string | null> {
  if (p.chainId === undefined) return null;
  return (await primaryNameResolution(ctx, p.owner, p.chainId, false)).name;
}

/** The primary names the `ReverseResolve`'s selection asks, traced: one reverse-resolution root per chain. */
async function reverseTrace(ctx: OmnigraphContext, r: ReverseResolveModel): Promise<TraceNode[]> {
  if (!r.info) return [];
  const chainIds = new Set<number>();
  for (const asked of askedPrimaryNames(r.info)) {
    const targets =
      asked.field === "primaryName"
        ? [reverseResolveResolvers.primaryName(r, asked.args as never, ctx)]
        : reverseResolveResolvers.primaryNames(r, asked.args as never, ctx);
    for (const t of targets) if (t.chainId !== undefined) chainIds.add(t.chainId);
  }
  const resolved = await Promise.all([...chainIds].map((id) => primaryNameResolution(ctx, r, id, true)));
  return resolved.flatMap((p) => p.trace ?? []);
}

/** An account's primary name for a coin type (null where none, or for a coin type of no indexed chain). */
export const primaryNameForCoinType = (ctx: OmnigraphContext, address: Address, coinType: bigint, accelerate = true) =>
  primaryNameOf(ctx, primaryNameTarget(ctx, reverseResolve(address, accelerate), { coinType }));

export const reverseResolveResolvers = {
  acceleration: async (r: ReverseResolveModel, _: unknown, ctx: OmnigraphContext) => ({
    requested: r.accelerate,
    attempted: r.accelerate && (await ctx.deps.resolution.indexIsRealtime()),
  }),
  primaryName: (
    r: ReverseResolveModel,
    args: { by: { chainName?: ChainName; coinType?: bigint } },
    ctx: OmnigraphContext,
  ) => primaryNameTarget(ctx, r, args.by),
  primaryNames: (
    r: ReverseResolveModel,
    args: { where: { chainNames?: ChainName[] | null; coinTypes?: bigint[] | null } },
    ctx: OmnigraphContext,
  ) => {
    const targets = args.where.chainNames
      ? args.where.chainNames.map((chainName) => primaryNameTarget(ctx, r, { chainName }))
      : (args.where.coinTypes ?? []).map((coinType) => primaryNameTarget(ctx, r, { coinType }));
    if (targets.length > MAX_RECORD_KEYS)
      throw new GraphQLError(`\`primaryNames\` takes at most ${MAX_RECORD_KEYS} chains`);
    return targets;
  },
  trace: (r: ReverseResolveModel, _: unknown, ctx: OmnigraphContext) => reverseTrace(ctx, r),
};

export const primaryNameRecordResolvers = {
  chainName: (p: PrimaryNameModel) => p.chainName,
  coinType: (p: PrimaryNameModel) => p.coinType,
  name: async (p: PrimaryNameModel, _: unknown, ctx: OmnigraphContext) => {
    const name = await primaryNameOf(ctx, p);
    return name !== null && isNormalizedName(name) ? canonicalName(name) : null;
  },
  resolve: async (p: PrimaryNameModel, _: unknown, ctx: OmnigraphContext) =>
    forwardResolve(await primaryNameOf(ctx, p), p.owner.accelerate),
};
