import type { Address } from "viem";
import { Chain } from "../chain";
import { loadDevnetContracts } from "../contracts";
import type { Deployed } from "../deploy/types";
import type { NameFacts } from "./model";

export interface ReverseOnlyChainResult {
  reverseRegistrar: Deployed;
  firstBlock: number;
  /** address (lowercase) → the name it set last on this chain's L2 reverse registrar. */
  primaries: Record<string, string>;
  /** The cross-chain account's name here, when it holds a root name. */
  crossChain: string | undefined;
}

/**
 * A chain with only an ENSIP-19 L2 reverse registrar, as Arbitrum and Scroll are for ENS: accounts name themselves
 * there with `.eth` names they hold on the root chain (`rootNames`, in scenario order). Every namer first sets a
 * placeholder and then its real name, so the index must keep the last `NameForAddrChanged`; one more account sets a
 * name that does not exist, which ENSIP-19's forward check must reject.
 */
export async function playReverseOnlyChain(
  chain: Chain,
  rootNames: readonly NameFacts[],
  crossChainAccount: Address,
): Promise<ReverseOnlyChainResult> {
  const { own } = loadDevnetContracts();
  const firstBlock = (await chain.blockNumber()) + 1;
  const reverseRegistrar = await chain.deploy("L2ReverseRegistrar", own.StandaloneReverseRegistrar);
  const byHolder = new Map<string, string>();
  for (const f of rootNames) {
    const plain = f.labels.length === 2 && f.labels[1] === "eth" && /^[a-z0-9-]+$/.test(f.labels[0]!);
    if (plain && f.addr && !f.deleted && !byHolder.has(f.addr.toLowerCase()))
      byHolder.set(f.addr.toLowerCase(), f.name);
  }
  const cross = crossChainAccount.toLowerCase();
  // The cross-chain account first, then up to three others (ordered by address so every seed picks alike).
  const namers = [...byHolder.keys()]
    .filter((a) => a !== cross)
    .sort()
    .slice(0, 3);
  if (byHolder.has(cross)) namers.unshift(cross);
  const setName = (account: string, name: string, note: string) =>
    Chain.call(
      account as Address,
      reverseRegistrar.address,
      own.StandaloneReverseRegistrar.abi,
      "setName",
      [name],
      note,
    );
  const primaries: Record<string, string> = {};
  await chain.send(namers.map((a) => setName(a, `placeholder-${chain.chainId}.eth`, "placeholder L2 primary name")));
  await chain.send(namers.map((a) => setName(a, byHolder.get(a)!, "L2 primary name")));
  for (const a of namers) primaries[a] = byHolder.get(a)!;
  const unheld = chain.accounts
    .map((a) => a.toLowerCase())
    .find((a) => a !== cross && !byHolder.has(a) && a !== chain.deployer.toLowerCase());
  if (unheld) {
    await chain.send([setName(unheld, `never-registered-${chain.chainId}.eth`, "L2 primary name of no name")]);
    primaries[unheld] = `never-registered-${chain.chainId}.eth`;
  }
  return { reverseRegistrar, firstBlock, primaries, crossChain: byHolder.get(cross) };
}
