import { Batcher } from "../batch";
import type { OmnigraphContext } from "../context";
import {
  type V2DomainRow,
  type V2RegistryRow,
  v2DomainsByIdQuery,
  v2DomainsByNodeQuery,
  v2RegistriesByIdQuery,
  v2RootRegistryQuery,
} from "./sql";

/** ENSv2 rows by key, every lookup of one level of the answer in one statement per kind. */

export function loadV2Domain(ctx: OmnigraphContext, id: string): Promise<V2DomainRow | null> {
  return ctx
    .batcher(
      "v2-domain-by-id",
      () =>
        new Batcher<string, V2DomainRow | null>(async (ids) => {
          const rows = await ctx.query<V2DomainRow>(v2DomainsByIdQuery(ids));
          return new Map(rows.map((r) => [r.id, r]));
        }, null),
    )
    .load(id.toLowerCase());
}

export function loadV2DomainByNode(ctx: OmnigraphContext, node: string): Promise<V2DomainRow | null> {
  return ctx
    .batcher(
      "v2-domain-by-node",
      () =>
        new Batcher<string, V2DomainRow | null>(async (nodes) => {
          const rows = await ctx.query<V2DomainRow>(v2DomainsByNodeQuery(nodes));
          return new Map(rows.map((r) => [r.node!, r]));
        }, null),
    )
    .load(node.toLowerCase());
}

export function loadV2Registry(ctx: OmnigraphContext, id: string): Promise<V2RegistryRow | null> {
  return ctx
    .batcher(
      "v2-registry-by-id",
      () =>
        new Batcher<string, V2RegistryRow | null>(async (ids) => {
          const rows = await ctx.query<V2RegistryRow>(v2RegistriesByIdQuery(ids));
          return new Map(rows.map((r) => [r.id, r]));
        }, null),
    )
    .load(id.toLowerCase());
}

/** The ENSv2 root registry, when the index has one (the ensv2 plugin runs); once per request. */
export function loadV2Root(ctx: OmnigraphContext): Promise<V2RegistryRow | null> {
  return ctx.shared("v2-root", async () => (await ctx.query<V2RegistryRow>(v2RootRegistryQuery()))[0] ?? null);
}
