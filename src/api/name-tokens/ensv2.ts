import { sql } from "drizzle-orm";
import type { Hex } from "viem";

/** One ENSv2 registry token of a name (ensv2 plugin), with the name's canonical name and expiry. */
export interface Ensv2TokenRow {
  chain_id: number;
  contract: Hex;
  token_id: Hex;
  owner: Hex;
  mint_status: "minted" | "burned";
  domain_name: string | null;
  expiry: string;
}

/**
 * Every token id the ENSv2 name with this node had (its regenerations and re-registrations burn one id and mint the
 * next): one index lookup on ensv2_domain.node, then ensv2_token.domain_id. Empty without the ensv2 plugin.
 */
export function ensv2TokensQuery(node: Hex) {
  return sql`select t.chain_id, t.contract, t.token_id, t.owner, t.mint_status, d.name as domain_name, d.expiry
    from ensv2_domain d
    join ensv2_token t on t.domain_id = d.id
    where d.node = ${node}
    order by t.chain_id, t.contract, t.token_id`;
}
