import { ACCOUNT_SDL } from "./account";
import { DOMAIN_SDL } from "./domain";
import { EFP_SDL } from "./efp";
import { EVENTS_SDL } from "./events";
import { PERMISSIONS_SDL } from "./permissions";
import { QUERY_SDL } from "./query";
import { REGISTRATION_SDL } from "./registration";
import { REGISTRY_SDL } from "./registry";
import { RESOLUTION_SDL } from "./resolution";
import { RESOLVER_SDL } from "./resolver";
import { SCALARS_SDL } from "./scalars";

/*
 * The Omnigraph's type system: the peer's public schema's types, fields, arguments and defaults (the facts a client's
 * query is validated against), described in our own words (what repeats, connections and an interface's fields in
 * its implementations, is filled in by describe.ts); what each field answers here is in docs/api.md. One file per
 * area of the graph. `test/omnigraph/compatibility.test.ts` compares it with the peer's published SDL.
 */
export const OMNIGRAPH_SDL = [
  QUERY_SDL,
  SCALARS_SDL,
  DOMAIN_SDL,
  REGISTRY_SDL,
  REGISTRATION_SDL,
  ACCOUNT_SDL,
  RESOLVER_SDL,
  RESOLUTION_SDL,
  EVENTS_SDL,
  PERMISSIONS_SDL,
  EFP_SDL,
].join("\n");
