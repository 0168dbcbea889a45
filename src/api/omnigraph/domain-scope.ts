import type { DomainScope } from "./domain-sql";
import type { V2DomainScope } from "./ensv2/sql";

/** The scopes a list has in each version: ENSv1's, ENSv2's, or both (one merged list). */
export interface VersionedScope {
  v1?: DomainScope;
  v2?: V2DomainScope;
}
