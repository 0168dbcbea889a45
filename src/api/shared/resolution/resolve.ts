import type { Address, Hex } from "viem";
import { coinTypeForChain, DEFAULT_EVM_COIN_TYPE } from "../../../lib/coin-types";
import { isNormalizedName } from "../../../lib/name-input";
import { reverseLabel } from "../../../lib/reverse-nodes";
import type { Namespace } from "../../../namespaces/types";
import { type Ensv2Settings, ensv2SettingsOf } from "./ensv2";
import { emptyAnswer, type RecordsAnswer, type RecordsRequest } from "./records";
import { ancestorsOf, type RegistrySource, routeName } from "./routing";
import { FORWARD_RESOLUTION, NO_TRACE, REVERSE_RESOLUTION, type StepSpan, type Tracer } from "./trace";
import { describeFoundResolver, recordEvents, selectionAttribute } from "./trace-attributes";

/*
 * Forward resolution (ENSIP-10) and primary names (ENSIP-19), written once over a backend: the index or the chains'
 * RPC. Both give the same answer for the same chain state; the index is faster.
 *
 * Where the namespace has an ENSv2 deployment, a name resolves first as UniversalResolverV2 resolves it, from the
 * ENSv2 root registry (ensv2.ts); where ENSv2 has no resolver for it or any ancestor, or its resolver is the
 * deployment's ENSV1Resolver (the fallback that mirrors ENSv1), it resolves through ENSv1 as before.
 */

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
  /**
   * ENSv2: UniversalResolverV2's `findResolver(name)` from the ENSv2 root registry: the deepest resolver on the
   * way down and its label index (0: the name's own), undefined when there is none.
   */
  findEnsv2Resolver(ensv2: Ensv2Settings, name: string): Promise<{ resolver: Address; index: number } | undefined>;
  /** ENSv2: the requested records of `name` as UniversalResolverV2 reads them from the resolver it found. */
  ensv2Records(
    ensv2: Ensv2Settings,
    resolver: Address,
    name: string,
    index: number,
    request: RecordsRequest,
  ): Promise<RecordsAnswer>;
}

/** Where a resolution reads: the index (protocol acceleration) or the chains' RPC. Named in its trace. */
export type ResolutionSource = "index" | "chain";

export interface ResolutionTracing {
  tracer: Tracer;
  source: ResolutionSource;
}

export class Resolution {
  private readonly ensv2: Ensv2Settings | undefined;
  private readonly tracer: Tracer;
  private readonly source: ResolutionSource;

  constructor(
    private readonly namespace: Namespace,
    private readonly backend: ResolutionBackend,
    tracing: ResolutionTracing = { tracer: NO_TRACE, source: "chain" },
  ) {
    this.ensv2 = ensv2SettingsOf(namespace);
    this.tracer = tracing.tracer;
    this.source = tracing.source;
  }

  private get rootChainId(): number {
    return this.namespace.datasources.ensroot?.chain.id ?? 1;
  }

  /** The records of a normalized name; every requested record is present, null when unset. */
  records(name: string, request: RecordsRequest): Promise<RecordsAnswer> {
    const attributes = () => ({
      name,
      selection: selectionAttribute(request),
      chainId: this.rootChainId,
      source: this.source,
    });
    return this.tracer.step(FORWARD_RESOLUTION, "forward-resolution", attributes, async (span) => {
      const ensv2 = this.ensv2;
      if (ensv2) {
        const found = await this.findResolver(
          name,
          { chainId: ensv2.chainId, registry: ensv2.rootRegistry, protocol: "ENSv2" },
          () => this.backend.findEnsv2Resolver(ensv2, name),
        );
        // ENSV1Resolver answers as ENSv1 does: the same as no ENSv2 resolver at all (docs/api.md).
        const ensv1Fallback = found !== undefined && found.resolver === ensv2.ensv1Resolver;
        span.event(FORWARD_RESOLUTION, "ensv2-resolver-exists", found !== undefined && !ensv1Fallback, {
          ensv1Fallback,
        });
        if (found && !ensv1Fallback) {
          span.event(FORWARD_RESOLUTION, "active-resolver-exists", true);
          return this.execute({ chainId: ensv2.chainId, resolver: found.resolver, name, protocol: "ENSv2" }, () =>
            this.backend.ensv2Records(ensv2, found.resolver, name, found.index, request),
          );
        }
      }
      return this.ensv1Records(name, request, span);
    });
  }

  /** ENSv1: Basenames, Lineanames and 3DNS names on their chains, the rest on the ENS root chain's registry. */
  private async ensv1Records(name: string, request: RecordsRequest, span: StepSpan): Promise<RecordsAnswer> {
    const route = routeName(name, this.namespace);
    const ancestors = ancestorsOf(name);
    for (const source of route.threedns) {
      const found = await this.findResolver(name, this.registryAttributes(source), () =>
        this.backend.findResolver(source, ancestors.slice(0, 1)),
      );
      if (found) return this.read(source.chainId, found.resolver, name, ancestors[0].node, true, request, span);
    }
    const registry = route.registry;
    if (!registry) {
      span.event(FORWARD_RESOLUTION, "active-resolver-exists", false);
      return emptyAnswer(request);
    }
    const found = await this.findResolver(name, this.registryAttributes(registry), () =>
      this.backend.findResolver(registry, ancestors),
    );
    span.event(FORWARD_RESOLUTION, "active-resolver-exists", found !== undefined);
    if (!found) return emptyAnswer(request);
    return this.read(registry.chainId, found.resolver, name, ancestors[0].node, found.index === 0, request, span);
  }

  private async read(
    chainId: number,
    resolver: Address,
    name: string,
    node: Hex,
    exact: boolean,
    request: RecordsRequest,
    span: StepSpan,
  ) {
    // ENSIP-10: an extended resolver answers through resolve(); any other answers only for its own name.
    const extended = await this.backend.isExtendedResolver(chainId, resolver);
    span.event(FORWARD_RESOLUTION, "extended-resolver", extended, { resolver, chainId });
    const step = { chainId, resolver, node, name, protocol: "ENSv1", extended };
    if (extended) return this.execute(step, () => this.backend.records(chainId, resolver, node, request, name));
    if (!exact) {
      span.event(FORWARD_RESOLUTION, "wildcard-supported", false, { resolver, chainId });
      return emptyAnswer(request);
    }
    return this.execute(step, () => this.backend.records(chainId, resolver, node, request));
  }

  /** The peer's `find-resolver` step around a backend's walk; the outcome in its attributes. */
  private findResolver(
    name: string,
    attributes: Record<string, string | number | boolean>,
    find: () => Promise<{ resolver: Address; index: number } | undefined>,
  ) {
    return this.tracer.step(FORWARD_RESOLUTION, "find-resolver", { name, ...attributes }, async (span) => {
      const found = await find();
      describeFoundResolver(span, name, found);
      return found;
    });
  }

  private registryAttributes(source: RegistrySource) {
    return {
      chainId: source.chainId,
      registry: source.registry,
      protocol: "ENSv1",
      ...(source.oldRegistry ? { fallbackRegistry: source.oldRegistry } : {}),
      ...(source.exactOnly ? { exactOnly: true } : {}),
    };
  }

  /** The peer's `execute-resolve-calls` step: the resolver's answers, one `read-record` event each. */
  private execute(
    attributes: Record<string, string | number | boolean>,
    read: () => Promise<RecordsAnswer>,
  ): Promise<RecordsAnswer> {
    return this.tracer.step(
      FORWARD_RESOLUTION,
      "execute-resolve-calls",
      { ...attributes, source: this.source },
      async (span) => {
        const answer = await read();
        recordEvents(span, answer, this.source);
        return answer;
      },
    );
  }

  /**
   * ENSIP-19: the address's primary name on a chain. On the ENS root chain the `addr.reverse` name, else the chain's
   * L2 reverse registrar; then the default reverse registrar's. It counts only if it is normalized and resolves back
   * to the address under the chain's coin type.
   */
  async primaryName(address: Address, chainId: number): Promise<string | null> {
    const rootChainId = this.rootChainId;
    const coinType = coinTypeForChain(chainId, rootChainId);
    const attributes = { address, coinType: coinType.toString(), chainId, source: this.source };
    return this.tracer.step(REVERSE_RESOLUTION, "reverse-resolution", attributes, async (span) => {
      const reverseName = (forCoinType: bigint) =>
        this.tracer.step(
          REVERSE_RESOLUTION,
          "resolve-reverse-name",
          { coinType: forCoinType.toString(), source: this.source },
          async (step) => {
            const found =
              forCoinType === 60n && chainId === rootChainId
                ? ((
                    await this.records(`${reverseLabel(address)}.addr.reverse`, {
                      coinTypes: [],
                      texts: [],
                      name: true,
                    })
                  ).name ?? null)
                : await this.backend.reverseName(address, forCoinType);
            step.set("reverseName", found ?? "null");
            return found;
          },
        );
      const specific = await reverseName(coinType);
      const name = specific || (await reverseName(DEFAULT_EVM_COIN_TYPE));
      span.event(REVERSE_RESOLUTION, "name-record-exists-check", Boolean(name));
      if (!name || !isNormalizedName(name)) {
        if (name) span.event(REVERSE_RESOLUTION, "name-is-normalized", false, { name });
        return null;
      }
      const forward = await this.tracer.step(
        REVERSE_RESOLUTION,
        "forward-resolve-address-record",
        { name, coinType: coinType.toString() },
        () => this.records(name, { coinTypes: [coinType], texts: [], name: false }),
      );
      const matches = forward.addresses?.[coinType.toString()] === address.toLowerCase();
      span.event(REVERSE_RESOLUTION, "verify-resolved-address-matches-address", matches);
      return matches ? name : null;
    });
  }
}
