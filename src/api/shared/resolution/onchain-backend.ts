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
  namehash,
  type PublicClient,
  parseAbi,
  RpcRequestError,
  TimeoutError,
  WebSocketRequestError,
  zeroAddress,
} from "viem";
import { RegistryAbi, ResolverAbi, StandaloneReverseRegistrarAbi } from "../../../../abis";
import { coinTypeForChain, DEFAULT_EVM_COIN_TYPE, ETH_COIN_TYPE } from "../../../lib/coin-types";
import { dnsEncode } from "../../../lib/dns-wire";
import { rpcTransport } from "../../../lib/rpc-transport";
import { L2_REVERSE_DATASOURCES, type Namespace } from "../../../namespaces/types";
import { tracedCcipRequest } from "./ccip-read";
import {
  type Ensv2Settings,
  ensv2LabelsOf,
  ensv2SettingsOf,
  PERMISSIONED_REGISTRY_INTERFACE,
  PERMISSIONED_RESOLVER_INTERFACE,
  type RegistryStep,
  WRAPPER_REGISTRY_INTERFACE,
  walkEnsv2,
} from "./ensv2";
import {
  interpretAbi,
  interpretAddress,
  interpretBytes,
  interpretImplementer,
  interpretName,
  interpretPubkey,
  interpretText,
  interpretVersion,
} from "./interpret";
import { emptyAnswer, type RecordsAnswer, type RecordsRequest } from "./records";
import type { ResolutionBackend } from "./resolve";
import type { RegistrySource } from "./routing";
import { currentStep, FORWARD_RESOLUTION } from "./trace";

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
const UniversalResolverAbi = parseAbi([
  "function findResolver(bytes name) view returns (address, bytes32, uint256)",
  "function resolveWithGateways(bytes name, bytes data, string[] gateways) view returns (bytes, address)",
]);
const Ensv2RegistryAbi = parseAbi([
  "function getResolver(string label) view returns (address)",
  "function getSubregistry(string label) view returns (address)",
]);
const EXTENDED_CACHE_MS = 10 * 60_000;
/**
 * The batch gateway a client passes to `resolveWithGateways` (viem's `localBatchGatewayUrl`): viem answers the
 * UniversalResolver's batched CCIP-Read itself. Onchain resolvers never need it.
 */
const LOCAL_BATCH_GATEWAY = "x-batch-gateway:true";

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
    | typeof UniversalResolverAbi
    | typeof Ensv2RegistryAbi;
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

type RecordCall = <T>(functionName: string, args: readonly unknown[]) => Promise<T | undefined>;

/** The requested records of `node` through `call` (one resolver read each; undefined: reverted or no data). */
async function readRecords(node: Hex, request: RecordsRequest, call: RecordCall): Promise<RecordsAnswer> {
  const address = async (coinType: bigint): Promise<string | null> => {
    const raw = await call<Hex>("addr", [node, coinType]);
    // Resolvers older than multicoin (ENSIP-9) only answer addr(node), for ETH.
    if (raw === undefined && coinType === ETH_COIN_TYPE)
      return interpretAddress(coinType, await call<Address>("addr", [node]));
    return interpretAddress(coinType, raw);
  };
  const [name, contenthash, addresses, texts, kinds] = await Promise.all([
    request.name ? call<string>("name", [node]).then(interpretName) : undefined,
    request.contenthash ? call<Hex>("contenthash", [node]).then(interpretBytes) : undefined,
    Promise.all(request.coinTypes.map(async (c) => [c.toString(), await address(c)] as const)),
    Promise.all(request.texts.map(async (k) => [k, interpretText(await call<string>("text", [node, k]))] as const)),
    readOtherKinds(node, request, call),
  ]);
  return {
    ...emptyAnswer(request),
    ...(request.name ? { name: name ?? null } : {}),
    ...(request.coinTypes.length > 0 ? { addresses: Object.fromEntries(addresses) } : {}),
    ...(request.texts.length > 0 ? { texts: Object.fromEntries(texts) } : {}),
    ...(request.contenthash ? { contenthash: contenthash ?? null } : {}),
    ...kinds,
  };
}

/** Pubkey, ABI, interface implementers, zonehash and version, as the resolver's own getters answer them. */
async function readOtherKinds(node: Hex, request: RecordsRequest, call: RecordCall): Promise<Partial<RecordsAnswer>> {
  const out: Partial<RecordsAnswer> = {};
  await Promise.all([
    request.pubkey &&
      call<readonly [Hex, Hex]>("pubkey", [node]).then((p) => {
        out.pubkey = interpretPubkey(p?.[0], p?.[1]);
      }),
    request.abiMasks?.length &&
      Promise.all(
        request.abiMasks.map(async (mask) => {
          const found = await call<readonly [bigint, Hex]>("ABI", [node, mask]);
          return [mask.toString(), interpretAbi(found?.[0], found?.[1])] as const;
        }),
      ).then((abis) => {
        out.abis = Object.fromEntries(abis);
      }),
    request.interfaces?.length &&
      Promise.all(
        request.interfaces.map(
          async (id) => [id, interpretImplementer(await call<Address>("interfaceImplementer", [node, id]))] as const,
        ),
      ).then((implementers) => {
        out.interfaces = Object.fromEntries(implementers);
      }),
    request.dnszonehash &&
      call<Hex>("zonehash", [node]).then((z) => {
        out.dnszonehash = interpretBytes(z) as Hex | null;
      }),
    request.version &&
      call<bigint>("recordVersions", [node]).then((v) => {
        out.version = interpretVersion(v);
      }),
  ]);
  return out;
}

export class OnchainBackend implements ResolutionBackend {
  private readonly clients = new Map<number, PublicClient>();
  private readonly interfaces = new Map<string, { at: number; value: Promise<boolean> }>();
  private readonly ensv2: Ensv2Settings | undefined;

  constructor(
    private readonly namespace: Namespace,
    private readonly rpcUrls: ReadonlyMap<number, string>,
  ) {
    this.ensv2 = ensv2SettingsOf(namespace);
  }

  private client(chainId: number): PublicClient {
    let client = this.clients.get(chainId);
    if (!client) {
      const url = this.rpcUrls.get(chainId);
      if (!url) throw new Error(`no RPC URL for chain ${chainId}`);
      client = createPublicClient({
        transport: rpcTransport(url, "resolution", { retryCount: 2, timeout: 10_000 }),
        ccipRead: { request: tracedCcipRequest },
      }) as PublicClient;
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
      currentStep()?.span.event(FORWARD_RESOLUTION, "registry-resolver", resolver?.toLowerCase() ?? "null", {
        registry: source.registry,
        node: ancestors[index].node,
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
      // Beside ENSv2, the namespace's UniversalResolver is ENSv1's only where the namespace names its
      // UniversalResolverV2 apart (the devnet). Otherwise it may be (or become: contracts-v2 deploys it as an
      // upgradable proxy) the ENSv2 one, which walks ENSv2 rather than this registry (sepolia-v2).
      (this.ensv2 !== undefined &&
        (this.ensv2.universalResolver === undefined || this.ensv2.universalResolver === universal.toLowerCase())) ||
      source.chainId !== root.chain.id ||
      source.registry !== registry?.toLowerCase() ||
      source.exactOnly ||
      ancestors.length === 0
    ) {
      return "unanswered";
    }
    const wire = dnsEncode(ancestors[0]!.name);
    currentStep()?.span.set("universalResolver", universal.toLowerCase());
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

  /** ERC-165 `supportsInterface(id)` of a contract, cached for 10 minutes (a revert or no answer is false). */
  supportsInterface(chainId: number, contract: Address, id: Hex): Promise<boolean> {
    const key = `${chainId}-${contract}-${id}`;
    const cached = this.interfaces.get(key);
    if (cached && Date.now() - cached.at < EXTENDED_CACHE_MS) return cached.value;
    const value = this.read<boolean>(chainId, contract, {
      abi: ExtendedResolverAbi,
      functionName: "supportsInterface",
      args: [id],
    }).then((v) => v === true);
    this.interfaces.set(key, { at: Date.now(), value });
    value.catch(() => this.interfaces.delete(key));
    return value;
  }

  isExtendedResolver(chainId: number, resolver: Address): Promise<boolean> {
    return this.supportsInterface(chainId, resolver, EXTENDED_RESOLVER_INTERFACE);
  }

  /** Whether a resolver is ENSIP-10 extended, and whether it is ENSv2's PermissionedResolver (IPermissionedResolver). */
  async resolverKind(chainId: number, resolver: Address): Promise<{ extended: boolean; permissioned: boolean }> {
    const [extended, permissioned] = await Promise.all([
      this.isExtendedResolver(chainId, resolver),
      this.supportsInterface(chainId, resolver, PERMISSIONED_RESOLVER_INTERFACE),
    ]);
    return { extended, permissioned: extended && permissioned };
  }

  /** A PermissionedRegistry (or UserRegistry) that is no WrapperRegistry: its getters read only its own entries. */
  async isPlainPermissionedRegistry(chainId: number, registry: Address): Promise<boolean> {
    const [permissioned, wrapper] = await Promise.all([
      this.supportsInterface(chainId, registry, PERMISSIONED_REGISTRY_INTERFACE),
      this.supportsInterface(chainId, registry, WRAPPER_REGISTRY_INTERFACE),
    ]);
    return permissioned && !wrapper;
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
        // `args` picks the overload: addr(node) returns an address, addr(node, coinType) bytes.
        return decodeFunctionResult({ abi: ResolverAbi, functionName, args, data: result } as never) as T;
      } catch {
        return undefined;
      }
    };
    return readRecords(node, request, call);
  }

  /**
   * UniversalResolverV2's `findResolver` where the namespace has one; else the same walk by `eth_call` of the
   * registries' `getResolver`/`getSubregistry` (LibRegistry.findResolver, ensv2.ts).
   */
  async findEnsv2Resolver(ensv2: Ensv2Settings, name: string) {
    const { wire, labels } = ensv2LabelsOf(name);
    if (ensv2.universalResolver) {
      currentStep()?.span.set("universalResolver", ensv2.universalResolver);
      const found = await this.read<readonly [Address, Hex, bigint]>(ensv2.chainId, ensv2.universalResolver, {
        abi: UniversalResolverAbi,
        functionName: "findResolver",
        args: [wire],
      });
      if (!found || found[0] === zeroAddress) return undefined;
      const index = labelIndexAt(wire, Number(found[2]));
      if (index === undefined) throw new Error(`UniversalResolverV2 answered offset ${found[2]} for ${wire}`);
      return { resolver: found[0].toLowerCase() as Address, index };
    }
    return walkEnsv2(ensv2.rootRegistry, labels, async (registry, label): Promise<RegistryStep> => {
      const at = (functionName: string) =>
        this.read<Address>(ensv2.chainId, registry, { abi: Ensv2RegistryAbi, functionName, args: [label.text] });
      const [resolver, subregistry] = await Promise.all([at("getResolver"), at("getSubregistry")]);
      const some = (a: Address | undefined) => (a && a !== zeroAddress ? (a.toLowerCase() as Address) : null);
      return { resolver: some(resolver), subregistry: some(subregistry) };
    });
  }

  /**
   * The records through UniversalResolverV2's `resolveWithGateways(name, data)` (it checks the resolver and calls it,
   * through `resolve()` when extended); without one, as it would: an extended resolver through `resolve()`, any
   * other for its own name only.
   */
  async ensv2Records(ensv2: Ensv2Settings, resolver: Address, name: string, index: number, request: RecordsRequest) {
    const node = namehash(name);
    const universal = ensv2.universalResolver;
    if (universal) {
      currentStep()?.span.set("universalResolver", universal);
      const { wire } = ensv2LabelsOf(name);
      return readRecords(node, request, async <T>(functionName: string, args: readonly unknown[]) => {
        const data = encodeFunctionData({ abi: ResolverAbi, functionName, args } as never);
        const result = await this.read<readonly [Hex, Address]>(ensv2.chainId, universal, {
          abi: UniversalResolverAbi,
          functionName: "resolveWithGateways",
          args: [wire, data, [LOCAL_BATCH_GATEWAY]],
        });
        if (result === undefined) return undefined;
        try {
          return decodeFunctionResult({ abi: ResolverAbi, functionName, args, data: result[0] } as never) as T;
        } catch {
          return undefined;
        }
      });
    }
    if (await this.isExtendedResolver(ensv2.chainId, resolver))
      return this.records(ensv2.chainId, resolver, node, request, name);
    if (index > 0) return emptyAnswer(request);
    return this.records(ensv2.chainId, resolver, node, request);
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
