/*
 * The lengths of the Omnigraph's unfiltered domain lists recounted from the tables, with the lists' own conditions
 * (src/api/omnigraph/domain-sql.ts and ensv2/sql.ts: the root left out, the effective owner, a non-null ENSv2 owner),
 * keyed like `domain_list_count` (src/lib/list-counts.ts). What the indexer keeps must equal this; seeded fixtures
 * (no indexer) are given this as their kept counts.
 */

const ROOT = `0x${"00".repeat(32)}`;

export const LIST_RECOUNT_SQL = `
  select 'v1-children:' || parent_id as id, count(*)::int as count from domain
    where parent_id is not null and id <> '${ROOT}' group by parent_id
  union all
  select 'v1-owner:' || coalesce(wrapped_owner_id, registrant_id, owner_id), count(*)::int from domain
    where id <> '${ROOT}' group by coalesce(wrapped_owner_id, registrant_id, owner_id)
  union all
  select 'v2-registry:' || registry_id, count(*)::int from ensv2_domain group by registry_id
  union all
  select 'v2-owner:' || owner, count(*)::int from ensv2_domain where owner is not null group by owner`;

/** Replaces `domain_list_count` with the recount (a seeded fixture's stand-in for what the indexer keeps). */
export const SEED_LIST_COUNTS_SQL = [
  "delete from domain_list_count",
  `insert into domain_list_count (id, count) ${LIST_RECOUNT_SQL}`,
];
