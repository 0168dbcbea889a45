import { sql } from "drizzle-orm";
import type { OmnigraphContext } from "../context";
import { encodeCursor, type PageArgs, pageWindow, toConnection } from "../cursor";
import { EMITTER_EVENTS, type EventsArgs, eventsConnection } from "../events";
import { idBounds } from "../keyset";
import { type ResolverModel, resolverId, rootChainIdOf } from "../model";
import { nodeOfNameInput } from "../names";
import { permissionsOf } from "./permissions";

/*
 * A resolver contract and the names it holds records for (the subgraph's per-node resolver rows), and the events it
 * emitted. `bridged` is not answered here (docs/api.md); its permissions are ENSv2's (permissions.ts).
 */

interface ResolverRow {
  id: string;
  domain_id: string | null;
  texts: string[] | null;
  coin_types: string[] | null;
}

/** Rows of this resolver on its chain: the root chain's ids have no chain suffix. */
function chainCondition(r: ResolverModel, rootChainId: number) {
  return r.chainId === rootChainId ? sql`id ~ '^0x[0-9a-f]{40}-0x[0-9a-f]{64}$'` : sql`id like ${`%-${r.chainId}`}`;
}

const recordsOf = (row: ResolverRow) => ({
  id: row.id,
  node: row.domain_id ?? row.id.split("-")[1],
  name: null,
  keys: row.texts ?? [],
  coinTypes: (row.coin_types ?? []).map((c) => BigInt(c)),
});

export const resolverResolvers = {
  id: (r: ResolverModel) => resolverId(r),
  contract: (r: ResolverModel) => r,
  extended: (r: ResolverModel, _: unknown, ctx: OmnigraphContext) =>
    ctx.deps.resolution.onchainBackend.isExtendedResolver(r.chainId, r.address),
  bridged: () => null,
  permissions: (r: ResolverModel, _: unknown, ctx: OmnigraphContext) => permissionsOf(ctx, r),
  events: (r: ResolverModel, args: EventsArgs, ctx: OmnigraphContext) =>
    eventsConnection(ctx, resolverId(r), args, rootChainIdOf(ctx.deps.namespace), EMITTER_EVENTS),
  records: async (r: ResolverModel, args: PageArgs, ctx: OmnigraphContext) => {
    const { size, backward } = pageWindow(args);
    const conds = [
      sql`address = ${r.address}`,
      chainCondition(r, rootChainIdOf(ctx.deps.namespace)),
      ...idBounds(args, sql.raw("id")),
    ];
    const where = sql.join(conds, sql` and `);
    const rows = await ctx.query<ResolverRow>(
      sql`select id, domain_id, texts, coin_types from resolver where ${where} order by id ${sql.raw(backward ? "desc" : "asc")} limit ${size + 1}`,
    );
    return toConnection(
      rows,
      args,
      (row) => encodeCursor(row.id, row.id),
      recordsOf,
      async () => {
        const [count] = await ctx.query<{ count: number }>(
          sql`select count(*)::int as count from resolver where address = ${r.address} and ${chainCondition(r, rootChainIdOf(ctx.deps.namespace))}`,
        );
        return Number(count?.count ?? 0);
      },
    );
  },
  records_: async (
    r: ResolverModel,
    args: { by: { name?: string | null; node?: string | null } },
    ctx: OmnigraphContext,
  ) => {
    const node = args.by.node ?? nodeOfNameInput(args.by.name ?? "");
    const rootChainId = rootChainIdOf(ctx.deps.namespace);
    const id = `${r.address}-${node.toLowerCase()}${r.chainId === rootChainId ? "" : `-${r.chainId}`}`;
    const [row] = await ctx.query<ResolverRow>(
      sql`select id, domain_id, texts, coin_types from resolver where id = ${id}`,
    );
    return row ? recordsOf(row) : null;
  },
};
