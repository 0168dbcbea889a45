import { type Abi, type Address, getAddress } from "viem";
import { Chain } from "../chain";
import { loadDevnetContracts } from "../contracts";
import type { RootContract } from "../deploy/root";
import type { ChainDeployment } from "../deploy/types";
import type { ScenarioContext } from "./context";
import { type FullProfileFacts, fullProfileCalls, fullProfileOf } from "./full-profile";
import type { NameFacts } from "./model";

/**
 * The full profile on an ENSv1 `.eth` name of the root chain (the cross-chain account's primary name, so reverse
 * resolution leads to it), written by whoever controls the name. The PublicResolver and the ModernResolver take every
 * setter; a name on another resolver (or wrapped on the PublicResolver, which does not see through the NameWrapper)
 * is first pointed at the ModernResolver, whose records then replace the old ones in the facts.
 */
export async function writeRootFullProfile(
  ctx: ScenarioContext,
  d: ChainDeployment<RootContract>,
  name: string,
  account: Address,
): Promise<FullProfileFacts> {
  const { own, real } = loadDevnetContracts();
  const f = [...ctx.book.byNode.values()].find((x) => x.name === name);
  if (!f) throw new Error(`full profile: ${name} is not a scenario name`);
  const A = (k: RootContract) => d.contracts[k].address.toLowerCase() as Address;
  const { registry, wrapped, holder } = await controllerOf(ctx, d, f);
  const registryAbi = real.ENSRegistryWithFallback.abi as Abi;
  const current = (f.resolver ?? "").toLowerCase();
  const usable = current === A("ModernResolver") || (current === A("PublicResolver") && !wrapped);
  const resolver = usable ? (current as Address) : A("ModernResolver");
  const resolverAbi = (resolver === A("PublicResolver") ? real.PublicResolver.abi : own.ModernResolver.abi) as Abi;
  const note = "full profile";
  const txs = usable
    ? []
    : [
        wrapped
          ? Chain.call(holder, A("NameWrapper"), own.NameWrapper.abi, "setResolver", [f.node, resolver], note)
          : Chain.call(holder, registry, registryAbi, "setResolver", [f.node, resolver], note),
      ];
  const profile = fullProfileOf(f.name, ctx.chain.chainId, "ENSv1", account, resolver);
  for (const c of fullProfileCalls(f.node, profile))
    txs.push(Chain.call(holder, resolver, resolverAbi, c.functionName, c.args, note));
  await ctx.chain.send(txs);
  f.resolver = resolver;
  f.texts = { ...(usable ? f.texts : {}), ...profile.texts };
  f.addr = profile.account;
  return profile;
}

/** Who controls a root-chain name's records: its registry (old or new), and the owner there or the wrapped holder. */
export async function controllerOf(ctx: ScenarioContext, d: ChainDeployment<RootContract>, f: NameFacts) {
  const { own, real } = loadDevnetContracts();
  const A = (k: RootContract) => d.contracts[k].address.toLowerCase() as Address;
  const unmigrated = f.via === "old-registry" && !f.migrated;
  const registry = unmigrated ? A("RegistryOld") : A("Registry");
  const owner = (
    await ctx.chain.read<Address>(registry, real.ENSRegistryWithFallback.abi as Abi, "owner", [f.node])
  ).toLowerCase();
  const wrapped = owner === A("NameWrapper");
  // Checksummed: the chain keeps its local nonces by the address as `eth_accounts` spells it.
  const holder = getAddress(
    wrapped ? await ctx.chain.read<Address>(A("NameWrapper"), own.NameWrapper.abi, "ownerOf", [BigInt(f.node)]) : owner,
  );
  return { registry, wrapped, holder };
}
