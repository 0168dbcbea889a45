import type { Address } from "viem";
import type { Chain } from "../chain";
import { loadDevnetContracts } from "../contracts";
import { deployBase, type Premint } from "../deploy/base";
import { deployLinea } from "../deploy/linea";
import { deployOptimism } from "../deploy/optimism";
import { deployRoot } from "../deploy/root";
import { managedNameOf } from "../names";
import { playBasenames } from "./base";
import { ScenarioContext } from "./context";
import { playDnsRecords } from "./dns-records";
import { playEnsv2 } from "./ensv2";
import { playLinea } from "./linea";
import { allocate, type NameFacts } from "./model";
import { setCrossChainPrimary, setRootNamePrimaryOnL2 } from "./primary";
import { LabelSource, oddLabels, Random } from "./random";
import { playReverseOnlyChain } from "./reverse-l2";
import { playRoot } from "./root";
import { writeRootFullProfile } from "./root-profile";
import { playSales } from "./sales";
import { playThreeDNS } from "./threedns";
import { playThreeDNSSubnames } from "./threedns-subnames";

export interface ScenarioChains {
  root: Chain;
  base: Chain;
  linea: Chain;
  /** The rehearsal's fourth chain: 3DNS and an L2 reverse registrar, as on OP Mainnet. */
  optimism?: Chain;
  /** Reverse-only chains (L2 reverse registrar only), as Arbitrum and Scroll. */
  arbitrum?: Chain;
  scroll?: Chain;
}

/**
 * How `--names N` splits across registration paths. The minimums make even a tiny scenario exercise every event
 * kind (each path's story needs a few names: e.g. wrapped names to transfer, unwrap and burn fuses on).
 */
const WEIGHTS = {
  legacy: { weight: 20, min: 5 },
  old: { weight: 8, min: 2 },
  wrapped: { weight: 15, min: 7 },
  unwrapped: { weight: 12, min: 4 },
  ea: { weight: 5, min: 1 },
  regular: { weight: 8, min: 3 },
  upgradeable: { weight: 7, min: 2 },
  premint: { weight: 1, min: 1 },
  threedns: { weight: 8, min: 4 },
  lineaNormal: { weight: 8, min: 4 },
  lineaOwner: { weight: 3, min: 1 },
  lineaPoh: { weight: 3, min: 1 },
};

const threednsNamesOf = (ctx: ScenarioContext) => [...ctx.book.byNode.values()].filter((f) => f.via === "3dns");

/** Structural labels every name ends in (or passes through); they are part of `labels` too. */
const STRUCTURAL = ["eth", "reverse", "addr"];

/**
 * Deploys every chain and plays the scenario on them concurrently (each chain's own PRNG stream and word
 * slice keep it deterministic). Returns the deployments and what the manifest's `scenario` needs.
 */
export async function runScenario(
  chains: ScenarioChains,
  seed: number,
  totalNames: number,
  log: (line: string) => void,
) {
  const sizes = allocate(totalNames, WEIGHTS);
  // Outside WEIGHTS, so a devnet without the Optimism chain keeps its exact scenario.
  const threednsOptimismNames = Math.max(3, Math.round(sizes.threedns / 4));
  const odd = oddLabels(new Random(seed ^ 0x5eed));
  const count = chains.optimism ? 4 : 3;
  const mk = (chain: Chain, index: number) =>
    new ScenarioContext(
      chain,
      new LabelSource(new Random(seed * 7919 + index), { index, count }),
      seed * 104729 + index,
      log,
    );
  const rootCtx = mk(chains.root, 0);
  const baseCtx = mk(chains.base, 1);
  const lineaCtx = mk(chains.linea, 2);
  const optimismCtx = chains.optimism && mk(chains.optimism, 3);

  const playRootChain = async () => {
    const d = await deployRoot(chains.root);
    const out = await playRoot(
      rootCtx,
      d,
      { legacy: sizes.legacy, old: sizes.old, wrapped: sizes.wrapped, unwrapped: sizes.unwrapped },
      odd,
    );
    const crossChain = await setCrossChainPrimary(
      rootCtx,
      {
        kind: "root",
        reverseRegistrar: d.contracts.ReverseRegistrar.address,
        defaultReverseRegistrar: d.contracts.DefaultReverseRegistrar.address,
      },
      ".eth",
    );
    if (crossChain)
      out.primaries[rootCtx.crossChainAccount.toLowerCase()] = { legacy: crossChain, default: crossChain };
    // Last, so every earlier step (and its random draws) is the same with or without them.
    const sales = await playSales(rootCtx, d);
    // ENSv2 beside ENSv1, after all of it: ENSv1's addresses, blocks and draws stay those of a devnet without it.
    const { own, real } = loadDevnetContracts();
    const ensv2 = await playEnsv2(
      rootCtx,
      {
        registry: d.contracts.Registry.address,
        nameWrapper: d.contracts.NameWrapper.address,
        baseRegistrar: d.contracts.BaseRegistrar.address,
        nameWrapperAbi: own.NameWrapper.abi,
        modernResolver: d.contracts.ModernResolver.address,
        modernResolverAbi: own.ModernResolver.abi,
        primaryNames: new Set(
          Object.values(out.primaries).flatMap((p) => [p.legacy, p.default].filter((n) => n !== undefined)),
        ),
        baseRegistrarAbi: real.BaseRegistrarImplementation.abi,
        book: rootCtx.book,
      },
      totalNames,
    );
    // After ENSv2 too: a profile written by a name's holder moves no deployer nonce, block or draw before it.
    const fullProfile = crossChain && (await writeRootFullProfile(rootCtx, d, crossChain, rootCtx.crossChainAccount));
    return { d, ...out, crossChain, sales, ensv2, fullProfile };
  };
  const playBaseChain = async () => {
    const premints: Premint[] = Array.from({ length: sizes.premint }, () => ({
      label: baseCtx.labels.word(),
      owner: baseCtx.owner(),
    }));
    const d = await deployBase(chains.base, premints);
    const basenames = await playBasenames(
      baseCtx,
      d,
      { ea: sizes.ea, regular: sizes.regular, upgradeable: sizes.upgradeable },
      premints,
    );
    const threedns = await playThreeDNS(baseCtx, d, sizes.threedns);
    await playThreeDNSSubnames(
      baseCtx,
      d.contracts.ThreeDNSToken.address,
      d.contracts.ThreeDNSResolver.address,
      threednsNamesOf(baseCtx),
    );
    await playDnsRecords(
      baseCtx,
      d.contracts.ThreeDNSResolver.address,
      threednsNamesOf(baseCtx),
      d.contracts.Resolver.address,
    );
    const crossChain = await setCrossChainPrimary(
      baseCtx,
      { kind: "l2", l2ReverseRegistrar: d.contracts.L2ReverseRegistrar.address },
      `.${managedNameOf(chains.base, "base").name}`,
    );
    if (crossChain) basenames.primaries[baseCtx.crossChainAccount.toLowerCase()] = crossChain;
    return { d, primaries: basenames.primaries, threedns, crossChain };
  };
  const playLineaChain = async () => {
    const pohAccounts = chains.linea.accounts.slice(-Math.min(10, chains.linea.accounts.length - 1));
    const d = await deployLinea(chains.linea, pohAccounts);
    const out = await playLinea(
      lineaCtx,
      d,
      { normal: sizes.lineaNormal, owner: sizes.lineaOwner, poh: Math.min(sizes.lineaPoh, pohAccounts.length) },
      pohAccounts,
    );
    const crossChain = await setCrossChainPrimary(
      lineaCtx,
      { kind: "l2", l2ReverseRegistrar: d.contracts.L2ReverseRegistrar.address },
      `.${managedNameOf(chains.linea, "linea").name}`,
    );
    if (crossChain) out.primaries[lineaCtx.crossChainAccount.toLowerCase()] = crossChain;
    return { d, ...out, crossChain };
  };
  const playOptimismChain = async () => {
    if (!optimismCtx) return undefined;
    const d = await deployOptimism(optimismCtx.chain);
    const threedns = await playThreeDNS(optimismCtx, d, threednsOptimismNames);
    await playThreeDNSSubnames(
      optimismCtx,
      d.contracts.ThreeDNSToken.address,
      d.contracts.ThreeDNSResolver.address,
      threednsNamesOf(optimismCtx),
    );
    await playDnsRecords(optimismCtx, d.contracts.ThreeDNSResolver.address, threednsNamesOf(optimismCtx));
    return { d, threedns };
  };
  const [root, base, linea, optimism] = await Promise.all([
    playRootChain(),
    playBaseChain(),
    playLineaChain(),
    playOptimismChain(),
  ]);
  // After the root chain: the cross-chain account names itself on Optimism with its root name (Optimism has none).
  let optimismPrimary: string | undefined;
  if (chains.optimism && optimism && root.crossChain) {
    const registrar = optimism.d.contracts.L2ReverseRegistrar.address;
    await setRootNamePrimaryOnL2(rootCtx, root.d, chains.optimism, registrar, root.crossChain);
    optimismPrimary = root.crossChain;
  }
  // After the root chain: their accounts name themselves with the .eth names they hold there.
  const rootNames = [...rootCtx.book.byNode.values()];
  const [arbitrum, scroll] = await Promise.all(
    [chains.arbitrum, chains.scroll].map((c) => c && playReverseOnlyChain(c, rootNames, rootCtx.crossChainAccount)),
  );

  const contexts = optimismCtx ? [rootCtx, baseCtx, lineaCtx, optimismCtx] : [rootCtx, baseCtx, lineaCtx];
  const names: NameFacts[] = contexts.flatMap((c) => [...c.book.byNode.values()]);
  // Reverse-registrar labels are the lowercase hex of each address that set a legacy reverse name.
  const reverseLabels = Object.entries(root.primaries)
    .filter(([, p]) => p.legacy)
    .map(([addr]) => addr.slice(2));
  const managedLabels = [managedNameOf(chains.base, "base").label, managedNameOf(chains.linea, "linea").label];
  const labelSet = new Set<string>([
    ...STRUCTURAL,
    ...managedLabels,
    ...base.threedns.tlds.map((t) => t.tld),
    ...reverseLabels,
  ]);
  for (const c of contexts) for (const l of c.labels.used) labelSet.add(l);
  const unhealable = new Set<string>();
  for (const c of contexts) for (const l of c.labels.unhealable) unhealable.add(l);

  return {
    deployments: {
      root: root.d,
      ensv2: root.ensv2.deployment,
      base: base.d,
      linea: linea.d,
      optimism: optimism?.d,
      arbitrum,
      scroll,
    },
    scenario: {
      scenarioVersion: 1,
      namesRequested: totalNames,
      sizes,
      labels: [...labelSet].sort(),
      unhealableLabels: [...unhealable].sort(),
      oddLabels: odd,
      names,
      primaryNames: {
        root: root.primaries,
        base: base.primaries,
        linea: linea.primaries,
        ...(optimismPrimary ? { optimism: { [rootCtx.crossChainAccount.toLowerCase()]: optimismPrimary } } : {}),
        ...(arbitrum ? { arbitrum: arbitrum.primaries } : {}),
        ...(scroll ? { scroll: scroll.primaries } : {}),
      },
      /** One account with a primary name on every chain (addr.reverse and the default reverse registrar on the root chain). */
      crossChainPrimary: {
        address: rootCtx.crossChainAccount.toLowerCase() as Address,
        names: {
          [String(chains.root.chainId)]: root.crossChain,
          [String(chains.base.chainId)]: base.crossChain,
          [String(chains.linea.chainId)]: linea.crossChain,
          ...(chains.optimism && optimismPrimary ? { [String(chains.optimism.chainId)]: optimismPrimary } : {}),
          ...(chains.arbitrum && arbitrum ? { [String(chains.arbitrum.chainId)]: arbitrum.crossChain } : {}),
          ...(chains.scroll && scroll ? { [String(chains.scroll.chainId)]: scroll.crossChain } : {}),
        },
      },
      accounts: chains.root.accounts.map((a) => a.toLowerCase() as Address),
      nameSales: root.sales,
      /** The ENSv2 tree on the root chain (docs/ensv2.md). */
      ensv2: root.ensv2.scenario,
      /** Names holding every record kind a real profile has (ENSv1: the cross-chain account's root name; ENSv2). */
      fullProfiles: [root.fullProfile, root.ensv2.fullProfile].filter((p) => p !== undefined),
    },
  };
}
