import type { Abi, Address } from "viem";
import { Chain, type Tx } from "../chain";
import { loadDevnetContracts } from "../contracts";
import type { RootContract } from "../deploy/root";
import type { ChainDeployment } from "../deploy/types";
import { childNode, ETH_NODE } from "../names";
import { type ScenarioContext, YEAR_SECONDS } from "./context";
import type { NameFacts } from "./model";

export interface RootSizes {
  legacy: number;
  old: number;
  wrapped: number;
  unwrapped: number;
}

/** What every era of the root chain's scenario uses: ABIs, addresses, and helpers to build transactions and names. */
export function makeRootKit(ctx: ScenarioContext, d: ChainDeployment<RootContract>) {
  const { own, real } = loadDevnetContracts();
  const { chain, book } = ctx;
  const A = (k: RootContract) => d.contracts[k].address;
  return {
    ctx,
    own,
    real,
    chain,
    book,
    rng: ctx.rng,
    labels: ctx.labels,
    A,
    reg: real.ENSRegistryWithFallback.abi,
    oldReg: real.ENSRegistry.abi,
    registrar: real.BaseRegistrarImplementation.abi,
    wrapper: own.NameWrapper.abi,
    me: chain.deployer,
    dur: BigInt(YEAR_SECONDS),
    tx: (from: Address, to: RootContract, abi: Abi, fn: string, args: unknown[], value?: bigint): Tx =>
      Chain.call(from, A(to), abi, fn, args, `${to}.${fn}`, value),
    /** Facts of a new .eth 2LD (not yet in the book). */
    ethName: (label: string): NameFacts =>
      ({
        name: `${label}.eth`,
        labels: [label, "eth"],
        node: childNode(ETH_NODE, label),
        chainId: chain.chainId,
      }) as NameFacts,
    /** Adds a subname of `parent` to the book. */
    sub: (parent: NameFacts, label: string, via: string, owner: Address): NameFacts =>
      book.add({
        name: `${label}.${parent.name}`,
        labels: [label, ...parent.labels],
        node: childNode(parent.node, label),
        chainId: chain.chainId,
        via,
        registryOwner: owner,
      }),
  };
}
export type RootKit = ReturnType<typeof makeRootKit>;
