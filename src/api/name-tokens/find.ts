import { sql } from "drizzle-orm";
import type { Hex } from "viem";
import { rowsOf } from "../../lib/sql-rows";
import { nameOf } from "../shared/managed-names";
import type { SqlDb } from "../shared/read-db";
import { type Ensv2TokenRow, ensv2TokensQuery } from "./ensv2";
import { type ChainAccount, type OwnershipType, ownershipType } from "./ownership";

export interface NameTokenJson {
  token: { assetNamespace: "erc721" | "erc1155"; contract: ChainAccount; tokenId: Hex };
  ownership: { ownershipType: OwnershipType; owner: ChainAccount };
  mintStatus: "minted" | "burned";
}

export interface RegisteredNameTokens {
  domainId: Hex;
  name: string | null;
  tokens: NameTokenJson[];
  expiresAt: number | null;
  accurateAsOf: number;
}

interface TokenRow {
  chain_id: number;
  contract: Hex;
  token_id: Hex;
  asset_namespace: "erc721" | "erc1155";
  owner: Hex;
  mint_status: "minted" | "burned";
  domain_name: string | null;
  domain_expiry: string | null;
  label: string | null;
  labelhash: Hex | null;
  parent_node: Hex | null;
  lifecycle_expiry: string | null;
  wrapped_expiry: string | null;
}

/** One index lookup on name_token.domain_id; the lifecycle, domain and wrapped-domain rows come by primary key. */
export function tokensQuery(domainId: Hex) {
  return sql`select t.chain_id, t.contract, t.token_id, t.asset_namespace, t.owner, t.mint_status,
      d.name as domain_name, d.expiry_date as domain_expiry,
      l.label, l.labelhash, l.parent_node, l.expires_at as lifecycle_expiry, w.expiry_date as wrapped_expiry
    from name_token t
    left join registration_lifecycle l on l.id = t.domain_id
    left join wrapped_domain w on w.id = t.domain_id
    left join domain d on d.id = t.domain_id
    where t.domain_id = ${domainId}
    order by t.asset_namespace = 'erc721' desc, t.chain_id, t.contract, t.token_id`;
}

export interface FindNameTokensOptions {
  domainId: Hex;
  /** The requested name, when asked by name (it wins over stored names: it is what the client asked about). */
  name?: string;
  accurateAsOf: number;
  nameWrappers: readonly ChainAccount[];
  managedNameByNode: ReadonlyMap<string, string>;
}

/**
 * The name's tokens, or null when none is indexed: ENSv1's (base registrar, NameWrapper, 3DNS) first, then every
 * ENSv2 registry token id of the name (docs/api.md).
 */
export async function findNameTokens(db: SqlDb, o: FindNameTokensOptions): Promise<RegisteredNameTokens | null> {
  const rows = rowsOf<TokenRow>(await db.execute(tokensQuery(o.domainId)));
  const v2 = rowsOf<Ensv2TokenRow>(await db.execute(ensv2TokensQuery(o.domainId)));
  const first = rows[0];
  if (!first && !v2[0]) return null;
  const name =
    o.name ??
    first?.domain_name ??
    (first && first.labelhash !== null && first.parent_node !== null
      ? nameOf(
          { domain_name: null, label: first.label, labelhash: first.labelhash, parent_node: first.parent_node },
          o.managedNameByNode,
        )
      : null) ??
    v2[0]?.domain_name ??
    null;
  // The registrar's expiry (without grace period) when the registrars plugin has it; for a wrapped subname the
  // NameWrapper's (set by its parent, what the ENS app shows); else the registry plugins' one (3DNS). An unwrapped
  // subname has none: registry names do not expire (null, see docs/api.md).
  // A name registered in ENSv2 (its current registry token minted: registered there, or migrated, when ENSv1's
  // records of it go stale) expires when its registry says; ENSv2 has no grace period.
  const registeredInEnsv2 = v2.some((r) => r.mint_status === "minted");
  const expiry =
    first && !registeredInEnsv2
      ? (first.lifecycle_expiry ?? first.wrapped_expiry ?? first.domain_expiry)
      : (v2[0]?.expiry ?? null);
  const token = (
    r: { chain_id: number; contract: Hex; token_id: Hex; owner: Hex; mint_status: "minted" | "burned" },
    assetNamespace: "erc721" | "erc1155",
  ): NameTokenJson => {
    const owner = { chainId: Number(r.chain_id), address: r.owner };
    return {
      token: { assetNamespace, contract: { chainId: Number(r.chain_id), address: r.contract }, tokenId: r.token_id },
      ownership: { ownershipType: ownershipType(owner, name, o.nameWrappers), owner },
      mintStatus: r.mint_status,
    };
  };
  return {
    domainId: o.domainId,
    name,
    tokens: [...rows.map((r) => token(r, r.asset_namespace)), ...v2.map((r) => token(r, "erc1155"))],
    expiresAt: expiry === null ? null : Number(expiry),
    accurateAsOf: o.accurateAsOf,
  };
}
