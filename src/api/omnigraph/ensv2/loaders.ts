import type { OmnigraphContext } from "../context";
import { loadRowByKey } from "../domain-loader";
import {
  type V2DomainRow,
  type V2RegistryRow,
  v2DomainsByIdQuery,
  v2RegistriesByIdQuery,
  v2RootRegistryQuery,
} from "./sql";

/** ENSv2 rows by key, every lookup of one level of the answer in one statement per kind. */

export function loadV2Domain(ctx: OmnigraphContext, id: string): Promise<V2DomainRow | null> {
  return loadRowByKey(ctx, "v2-domain-by-id", v2DomainsByIdQuery, (r: V2DomainRow) => r.id, id);
}

export function loadV2Registry(ctx: OmnigraphContext, id: string): Promise<V2RegistryRow | null> {
  return loadRowByKey(ctx, "v2-registry-by-id", v2RegistriesByIdQuery, (r: V2RegistryRow) => r.id, id);
}

/** The ENSv2 root registry, when the index has one (the ensv2 plugin runs); once per request. */
export function loadV2Root(ctx: OmnigraphContext): Promise<V2RegistryRow | null> {
  return ctx.shared("v2-root", async () => (await ctx.query<V2RegistryRow>(v2RootRegistryQuery()))[0] ?? null);
}
