/*
 * The Omnigraph's unfiltered domain lists whose length the indexer keeps (`domain_list_count`), and the id of each
 * count: `<list>:<key>`, the key being exactly what the list's SQL compares (src/api/omnigraph/domain-sql.ts,
 * ensv2/sql.ts), so a count equals a recount of the list.
 */

/**
 * - `v1-children`: `domain` rows whose `parent_id` is the key (`Domain.subdomains`, `ENSv1Registry.domains`);
 * - `v1-owner`: `domain` rows but the root whose effective owner (wrapped owner, else registrant, else registry owner)
 *   is the key (`Account.domains`' ENSv1 part);
 * - `v2-registry`: `ensv2_domain` rows whose `registry_id` is the key (`ENSv2Registry.domains`, `ENSv2Domain.subdomains`);
 * - `v2-owner`: `ensv2_domain` rows whose `owner` is the key (`Account.domains`' ENSv2 part).
 */
export type CountedList = "v1-children" | "v1-owner" | "v2-registry" | "v2-owner";

export const listCountId = (list: CountedList, key: string): string => `${list}:${key}`;
