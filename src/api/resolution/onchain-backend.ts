import {
  type Address,
  BaseError,
  createPublicClient,
  decodeFunctionResult,
  ExecutionRevertedError,
  encodeFunctionData,
  type Hex,
  HttpRequestError,
  hexToBytes,
  http,
  type PublicClient,
  parseAbi,
  RpcRequestError,
  TimeoutError,
  WebSocketRequestError,
  zeroAddress,
} from "viem";
import { RegistryAbi, ResolverAbi, StandaloneReverseRegistrarAbi } from "../../../abis";
import { coinTypeForChain, DEFAULT_EVM_COIN_TYPE, ETH_COIN_TYPE } from "../../lib/coin-types";
import { dnsEncode } from "../../lib/dns-wire";
import { L2_REVERSE_DATASOURCES, type Namespace } from "../../namespaces/types";
import { interpretAddress, interpretName, interpretText } from "./interpret";
import type { RecordsAnswer, RecordsRequest, ResolutionBackend } from "./resolve";
import type { RegistrySource } from "./routing";

/*
 * Resolution by reading the chains directly: on the ENS root chain the namespace's UniversalResolver finds a name's
 * resolver in one call (`findResolver`, ENSIP-10's walk over the registry with fallback); elsewhere, or where the
 * namespace has none or it reverts, the registry's `resolver(node)` up the parents. Then the resolver's record
 * functions, or its ENSIP-10 `resolve()`. A read that reverts or returns nothing is an unset record; an unreachable
 * RPC is an error.
 */

const ExtendedResolverAbi = parseAbi([
  "function supportsInterface(bytes4 interfaceID) view returns (bool)",
  "function resolve(bytes name, bytes data) view returns (bytes)",
]);
const EXTENDED_RESOLVER_INTERFACE = "0x9061b923";
const UniversalResolverAbi = parseAbi(["function findResolver(bytes name) view returns (address, bytes32, uint256)"]);
const EXTENDED_CACHE_MS = 10 * 60_000;

/**
 * The RPC failed to answer (unreachable, timeout, 5xx, 429, or a JSON-RPC error that is not the chain's revert,
 * such as -32603 from a failing provider): the read has no answer, which must not pass for an unset record.
 */
export function isTransportError(error: unknown): boolean {
  if (!(error instanceof BaseError)) return false;
  if (
    error.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError || e instanceof WebSocketRequestError)
  )
    return true;
  // viem wraps some provider errors (-32603 with data) as ContractFunctionRevertedError: only an execution revert is the chain's answer.
  return (
    Boolean(error.walk((e) => e instanceof RpcRequestError)) && !error.walk((e) => e instanceof ExecutionRevertedError)
  );
}

type Call = {
  abi:
    | typeof ResolverAbi
    | typeof RegistryAbi
    | typeof StandaloneReverseRegistrarAbi
    | typeof ExtendedResolverAbi
    | typeof UniversalResolverAbi;
  functionName: string;
  args: readonly unknown[];
};

/** How many labels of a DNS wire-format name come before byte `offset` (a label boundary); undefined if none is there. */
export function labelIndexAt(wire: Hex, offset: number): number | undefined {
  const bytes = hexToBytes(wire);
  let at = 0;
  for (let index = 0; at < bytes.length; index++) {
    if (at === offset) return index;
    if (bytes[at] === 0) return undefined;
    at += 1 + bytes[at]!;
  }
  return undefined;
}

export class OnchainBackend implements ResolutionBackend {
  private readonly clients = new Map<number, PublicClient>();
  private readonly extended = new Map<string, { at: number; value: Promise<boolean> }>();

  constructor(
    private readonly namespace: Namespace,
    private readonly rpcUrls: ReadonlyMap<number, string>,
  ) {}

  private client(chainId: number): PublicClient {
    let client = this.clients.get(chainId);
    if (!client) {
      const url = this.rpcUrls.get(chainId);
      if (!url) throw new Error(`no RPC URL for chain ${chainId}`);
      client = createPublicClient({ transport: http(url, { retryCount: 2, timeout: 10_000 }) }) as PublicClient;
      this.clients.set(chainId, client);
    }
    return client;
  }

  /** One read; undefined when it reverts or returns no data (an unset record or a missing function). */
  private async read<T>(chainId: number, to: Address, call: Call): Promise<T | undefined> {
    try {
      return (await this.client(chainId).readContract({ address: to, ...call } as never)) as T;
    } catch (error) {
      if (isTransportError(error)) throw error;
      return undefined;
    }
  }

  async findResolver(source: RegistrySource, ancestors: { name: string; node: Hex }[]) {
    const viaUniversal = await this.findResolverUniversally(source, ancestors);
    if (viaUniversal !== "unanswered") return viaUniversal;
    for (let index = 0; index < ancestors.length; index++) {
      const resolver = await this.read<Address>(source.chainId, source.registry, {
        abi: RegistryAbi,
        functionName: "resolver",
        args: [ancestors[index].node],
      });
      if (resolver && resolver !== zeroAddress) return { resolver: resolver.toLowerCase() as Address, index };
      if (source.exactOnly) return undefined;
    }
    return undefined;
  }

  /** The UniversalResolver's `findResolver` for the root chain's registry; "unanswered" where it cannot be asked. */
  private async findResolverUniversally(source: RegistrySource, ancestors: { name: string; node: Hex }[]) {
    const root = this.namespace.datasources.ensroot;
    const universal = root?.contracts.UniversalResolver?.address;
    const registry = root?.contracts.Registry?.address;
    if (
      !universal ||
      source.chainId !== root.chain.id ||
      source.registry !== registry?.toLowerCase() ||
      source.exactOnly ||
      ancestors.length === 0
    ) {
      return "unanswered";
    }
    const wire = dnsEncode(ancestors[0]!.name);
    const found = await this.read<readonly [Address, Hex, bigint]>(source.chainId, universal, {
      abi: UniversalResolverAbi,
      functionName: "findResolver",
      args: [wire],
    });
    if (found === undefined) return "unanswered";
    const [resolver, , offset] = found;
    if (resolver === zeroAddress) return undefined;
    const index = labelIndexAt(wire, Number(offset));
    if (index === undefined || index >= ancestors.length) return "unanswered";
    return { resolver: resolver.toLowerCase() as Address, index };
  }

  isExtendedResolver(chainId: number, resolver: Address): Promise<boolean> {
    const key = `${chainId}-${resolver}`;
    const cached = this.extended.get(key);
    if (cached && Date.now() - cached.at < EXTENDED_CACHE_MS) return cached.value;
    const value = this.read<boolean>(chainId, resolver, {
      abi: ExtendedResolverAbi,
      functionName: "supportsInterface",
      args: [EXTENDED_RESOLVER_INTERFACE],
    }).then((v) => v === true);
    this.extended.set(key, { at: Date.now(), value });
    value.catch(() => this.extended.delete(key));
    return value;
  }

  async records(
    chainId: number,
    resolver: Address,
    node: Hex,
    request: RecordsRequest,
    extendedName?: string,
  ): Promise<RecordsAnswer> {
    const call = async <T>(functionName: string, args: readonly unknown[]): Promise<T | undefined> => {
      if (extendedName === undefined) return this.read<T>(chainId, resolver, { abi: ResolverAbi, functionName, args });
      const data = encodeFunctionData({ abi: ResolverAbi, functionName, args } as never);
      const result = await this.read<Hex>(chainId, resolver, {
        abi: ExtendedResolverAbi,
        functionName: "resolve",
        args: [dnsEncode(extendedName), data],
      });
      if (result === undefined) return undefined;
      try {
        return decodeFunctionResult({ abi: ResolverAbi, functionName, data: result } as never) as T;
      } catch {
        return undefined;
      }
    };
    const address = async (coinType: bigint): Promise<string | null> => {
      const raw = await call<Hex>("addr", [node, coinType]);
      // Resolvers older than multicoin (ENSIP-9) only answer addr(node), for ETH.
      if (raw === undefined && coinType === ETH_COIN_TYPE)
        return interpretAddress(coinType, await call<Address>("addr", [node]));
      return interpretAddress(coinType, raw);
    };
    const [name, addresses, texts] = await Promise.all([
      request.name ? call<string>("name", [node]).then(interpretName) : undefined,
      Promise.all(request.coinTypes.map(async (c) => [c.toString(), await address(c)] as const)),
      Promise.all(request.texts.map(async (k) => [k, interpretText(await call<string>("text", [node, k]))] as const)),
    ]);
    return {
      ...(request.name ? { name: name ?? null } : {}),
      ...(request.coinTypes.length > 0 ? { addresses: Object.fromEntries(addresses) } : {}),
      ...(request.texts.length > 0 ? { texts: Object.fromEntries(texts) } : {}),
    };
  }

  async reverseName(address: Address, coinType: bigint): Promise<string | null> {
    const ds = this.namespace.datasources;
    const rootChainId = ds.ensroot?.chain.id ?? 1;
    const registrar =
      coinType === DEFAULT_EVM_COIN_TYPE
        ? ds.ensroot && { chainId: ds.ensroot.chain.id, address: ds.ensroot.contracts.DefaultReverseRegistrar?.address }
        : L2_REVERSE_DATASOURCES.map((name) => ds[name])
            .filter((r) => r !== undefined && coinTypeForChain(r.chain.id, rootChainId) === coinType)
            .map((r) => ({ chainId: r!.chain.id, address: r!.contracts.L2ReverseRegistrar?.address }))[0];
    if (!registrar?.address || !this.rpcUrls.has(registrar.chainId)) return null;
    const name = await this.read<string>(registrar.chainId, registrar.address, {
      abi: StandaloneReverseRegistrarAbi,
      functionName: "nameForAddr",
      args: [address],
    });
    return interpretName(name);
  }
}
