import type { Address, Hex } from "viem";
import { coinTypeForChain, DEFAULT_EVM_COIN_TYPE } from "../../lib/coin-types";
import { isNormalizedName } from "../../lib/name-input";
import { reverseLabel } from "../../lib/reverse-nodes";
import type { Namespace } from "../../namespaces/types";
import { ancestorsOf, type RegistrySource, routeName } from "./routing";

/*
 * Forward resolution (ENSIP-10) and primary names (ENSIP-19), written once over a backend: the index or the chains'
 * RPC. Both give the same answer for the same chain state; the index is faster.
 */

export interface RecordsRequest {
  coinTypes: bigint[];
  texts: string[];
  name: boolean;
}

export interface RecordsAnswer {
  name?: string | null;
  /** Coin type (decimal) → address (lowercase hex), null when unset. */
  addresses?: Record<string, string | null>;
  texts?: Record<string, string | null>;
}

/** The index cannot answer this request; the caller resolves it onchain instead. */
export class NotInIndex extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "NotInIndex";
  }
}

export interface ResolutionBackend {
  /** ENSIP-10's walk: the first of `ancestors` (nearest first) the source has a resolver for. */
  findResolver(
    source: RegistrySource,
    ancestors: { name: string; node: Hex }[],
  ): Promise<{ resolver: Address; index: number } | undefined>;
  /** Whether the resolver implements ENSIP-10's `resolve(bytes,bytes)` (IExtendedResolver). */
  isExtendedResolver(chainId: number, resolver: Address): Promise<boolean>;
  /** The requested records of `node`; through `resolve(dnsName, …)` when `extendedName` is given. */
  records(
    chainId: number,
    resolver: Address,
    node: Hex,
    request: RecordsRequest,
    extendedName?: string,
  ): Promise<RecordsAnswer>;
  /** A standalone reverse registrar's name for the address under the coin type (default or an L2's), or null. */
  reverseName(address: Address, coinType: bigint): Promise<string | null>;
}

export function emptyAnswer(request: RecordsRequest): RecordsAnswer {
  return {
    ...(request.name ? { name: null } : {}),
    ...(request.coinTypes.length > 0
      ? { addresses: Object.fromEntries(request.coinTypes.map((c) => [c.toString(), null])) }
      : {}),
    ...(request.texts.length > 0 ? { texts: Object.fromEntries(request.texts.map((k) => [k, null])) } : {}),
  };
}

export class Resolution {
  constructor(
    private readonly namespace: Namespace,
    private readonly backend: ResolutionBackend,
  ) {}

  /** The records of a normalized name; every requested record is present, null when unset. */
  async records(name: string, request: RecordsRequest): Promise<RecordsAnswer> {
    const route = routeName(name, this.namespace);
    const ancestors = ancestorsOf(name);
    for (const source of route.threedns) {
      const found = await this.backend.findResolver(source, ancestors.slice(0, 1));
      if (found) return this.read(source.chainId, found.resolver, name, ancestors[0].node, true, request);
    }
    if (!route.registry) return emptyAnswer(request);
    const found = await this.backend.findResolver(route.registry, ancestors);
    if (!found) return emptyAnswer(request);
    return this.read(route.registry.chainId, found.resolver, name, ancestors[0].node, found.index === 0, request);
  }

  private async read(
    chainId: number,
    resolver: Address,
    name: string,
    node: Hex,
    exact: boolean,
    request: RecordsRequest,
  ) {
    // ENSIP-10: an extended resolver answers through resolve(); any other answers only for its own name.
    if (await this.backend.isExtendedResolver(chainId, resolver))
      return this.backend.records(chainId, resolver, node, request, name);
    if (!exact) return emptyAnswer(request);
    return this.backend.records(chainId, resolver, node, request);
  }

  /**
   * ENSIP-19: the address's primary name on a chain. On the ENS root chain the `addr.reverse` name, else the chain's
   * L2 reverse registrar; then the default reverse registrar's. It counts only if it is normalized and resolves back
   * to the address under the chain's coin type.
   */
  async primaryName(address: Address, chainId: number): Promise<string | null> {
    const rootChainId = this.namespace.datasources.ensroot?.chain.id ?? 1;
    const coinType = coinTypeForChain(chainId, rootChainId);
    const specific =
      chainId === rootChainId
        ? ((await this.records(`${reverseLabel(address)}.addr.reverse`, { coinTypes: [], texts: [], name: true }))
            .name ?? null)
        : await this.backend.reverseName(address, coinType);
    const name = specific || (await this.backend.reverseName(address, DEFAULT_EVM_COIN_TYPE));
    if (!name || !isNormalizedName(name)) return null;
    const forward = await this.records(name, { coinTypes: [coinType], texts: [], name: false });
    return forward.addresses?.[coinType.toString()] === address.toLowerCase() ? name : null;
  }
}
