import type { Address } from "viem";
import { Chain, type Tx } from "../chain";
import { loadDevnetContracts } from "../contracts";
import type { RootContract } from "../deploy/root";
import type { ChainDeployment } from "../deploy/types";
import type { ScenarioContext } from "./context";
import type { NameFacts } from "./model";
import { controllerOf } from "./root-profile";

/** ENSIP-11: the coin type an L2 primary name must forward-resolve under (`0x80000000 | chainId`). */
export function l2CoinType(chainId: number): bigint {
  return 0x80000000n | BigInt(chainId);
}

/**
 * What a user does on an L2 to get a primary name there (ENSIP-19): point the name's address for this chain's coin
 * type at themselves, then name themselves on the chain's L2 reverse registrar. Without the first step the name does
 * not resolve back under the chain's coin type, and the primary name is null.
 */
export function l2PrimaryNameTxs(chainId: number, facts: NameFacts, who: Address, l2ReverseRegistrar: Address): Tx[] {
  const { own } = loadDevnetContracts();
  return [
    Chain.call(
      who,
      facts.resolver!,
      own.ModernResolver.abi,
      "setAddr",
      [facts.node, l2CoinType(chainId), who],
      "Resolver.setAddr(L2 coin type)",
    ),
    Chain.call(
      who,
      l2ReverseRegistrar,
      own.StandaloneReverseRegistrar.abi,
      "setName",
      [facts.name],
      "L2ReverseRegistrar.setName",
    ),
  ];
}

export type PrimaryRegistrar =
  /** The root chain: `addr.reverse` through the ReverseRegistrar (it gives the reverse node its default resolver), and the default reverse registrar. */
  | { kind: "root"; reverseRegistrar: Address; defaultReverseRegistrar: Address }
  | { kind: "l2"; l2ReverseRegistrar: Address };

/**
 * The cross-chain account names itself on a chain with a name it holds there whose ETH address record points back at
 * it, as a user would: on the root chain through the ReverseRegistrar (replacing any earlier `addr.reverse` name,
 * which takes precedence over the default reverse registrar's) and the default reverse registrar; on an L2 through
 * its L2 reverse registrar, after setting the chain's coin type. Returns the name, or undefined if it holds none.
 */
export async function setCrossChainPrimary(
  ctx: ScenarioContext,
  registrar: PrimaryRegistrar,
  managedSuffix: string,
): Promise<string | undefined> {
  const account = ctx.crossChainAccount;
  const candidate = [...ctx.book.byNode.values()].find(
    (f) =>
      f.addr === account.toLowerCase() &&
      f.resolver &&
      !f.deleted &&
      f.name.endsWith(managedSuffix) &&
      f.labels.length === managedSuffix.split(".").length &&
      f.labels.every((l) => /^[a-z0-9-]+$/.test(l)),
  );
  if (!candidate) return undefined;
  const { own, real } = loadDevnetContracts();
  const note = "cross-chain primary name";
  const txs =
    registrar.kind === "root"
      ? [
          Chain.call(account, registrar.reverseRegistrar, real.ReverseRegistrar.abi, "setName", [candidate.name], note),
          Chain.call(
            account,
            registrar.defaultReverseRegistrar,
            own.StandaloneReverseRegistrar.abi,
            "setName",
            [candidate.name],
            note,
          ),
        ]
      : l2PrimaryNameTxs(ctx.chain.chainId, candidate, account, registrar.l2ReverseRegistrar);
  await ctx.chain.send(txs);
  return candidate.name;
}

/**
 * The cross-chain account names itself on an L2 that has no names of its own (the Optimism chain) with its root-chain
 * name, as ENSIP-19 asks: the name's address for the L2's coin type, on the root chain's resolver, then the L2 reverse
 * registrar.
 */
export async function setRootNamePrimaryOnL2(
  rootCtx: ScenarioContext,
  rootDeployment: ChainDeployment<RootContract>,
  l2: Chain,
  l2ReverseRegistrar: Address,
  name: string,
): Promise<void> {
  const { own } = loadDevnetContracts();
  const facts = [...rootCtx.book.byNode.values()].find((f) => f.name === name);
  if (!facts?.resolver) throw new Error(`L2 primary name: ${name} has no resolver on the root chain`);
  const { holder } = await controllerOf(rootCtx, rootDeployment, facts);
  const account = rootCtx.crossChainAccount;
  const note = "cross-chain primary name (root name on an L2)";
  await rootCtx.chain.send([
    Chain.call(
      holder,
      facts.resolver,
      own.ModernResolver.abi,
      "setAddr",
      [facts.node, l2CoinType(l2.chainId), account],
      note,
    ),
  ]);
  await l2.send([Chain.call(account, l2ReverseRegistrar, own.StandaloneReverseRegistrar.abi, "setName", [name], note)]);
}
