import type { Address } from "viem";
import { Chain } from "../chain";
import { loadDevnetContracts } from "../contracts";
import type { ScenarioContext } from "./context";

/**
 * The cross-chain account names itself on a chain's reverse registrar (the default reverse registrar on the root
 * chain, the L2 reverse registrar elsewhere) with a name it holds there whose ETH address record points back at
 * it, so a primary-name lookup forward-resolves. Returns the name, or undefined if it holds none.
 */
export async function setCrossChainPrimary(ctx: ScenarioContext, reverseRegistrar: Address, managedSuffix: string): Promise<string | undefined> {
  const account = ctx.crossChainAccount;
  const candidate = [...ctx.book.byNode.values()].find(
    (f) =>
      f.addr === account.toLowerCase() &&
      !f.deleted &&
      f.name.endsWith(managedSuffix) &&
      f.labels.length === managedSuffix.split(".").length &&
      f.labels.every((l) => /^[a-z0-9-]+$/.test(l)),
  );
  if (!candidate) return undefined;
  const { own } = loadDevnetContracts();
  await ctx.chain.send([Chain.call(account, reverseRegistrar, own.StandaloneReverseRegistrar.abi, "setName", [candidate.name], "cross-chain primary name")]);
  return candidate.name;
}
