import { join } from "node:path";
import { type DevnetManifest, devnetManifestSchema } from "../../src/namespaces/devnet-manifest";
import { actionTopics, registrarActions, source } from "./actions";
import { type AnvilChain, startAnvil } from "./anvil";
import { Chain } from "./chain";
import { loadDevnetContracts } from "./contracts";
import { countEvents, type ManifestDatasource, writeManifest } from "./manifest";
import { runDir } from "./paths";
import { runScenario } from "./scenario/index";
import { type ChainShape, chainsOfShape, type DevnetShape, LOCAL_DEVNET_SHAPE } from "./shape";

export type { RegistrarActionFact } from "./actions";

export { devnetAbis, loadDevnetContracts, MANIFEST_CONTRACT_SOURCES } from "./contracts";
export { manifestContractEvents, ponderSignature } from "./events";
export type { DevnetScenario, NameFacts } from "./scenario/model";
export {
  type ChainShape,
  type DevnetShape,
  LOCAL_DEVNET_SHAPE,
  LOCAL_DEVNET_SHAPE_WITH_OPTIMISM,
  LOCAL_DEVNET_SHAPE_WITH_REVERSE_L2S,
} from "./shape";

/** The typed `scenario` of a manifest written by the devnet (throws for a hand-written manifest without one). */
export function scenarioOf(manifest: DevnetManifest): import("./scenario/model").DevnetScenario {
  const s = manifest.scenario as Partial<import("./scenario/model").DevnetScenario>;
  if (s.scenarioVersion !== 1 || !s.eventCounts || !s.names)
    throw new Error("this manifest carries no devnet scenario (written by hand?)");
  return s as import("./scenario/model").DevnetScenario;
}

/**
 * The chains start this far in the past so the scenario's time travel (commitment ages) ends before the wall clock;
 * the padding then lands on real time. A chain ahead of the clock would stall omnichain indexing (events are ordered
 * by timestamp across chains) and make realtime checks meaningless.
 */
const GENESIS_LEAD_SECONDS = 24 * 60 * 60;

export interface StartDevnetOptions {
  seed?: number;
  names?: number;
  manifestPath?: string;
  /** Seconds between blocks after the scenario (interval mining); 0 or absent: automine, blocks only on demand. */
  mineInterval?: number;
  log?: (line: string) => void;
  /** Chain ids, genesis heights and fixed addresses (default: the local devnet, 31337–31339). */
  shape?: DevnetShape;
  /** Start the anvils with `--prune-history` (see StartAnvilOptions.pruneHistory): for benchmarks' large scenarios. */
  pruneHistory?: boolean;
  /**
   * Transactions per block while playing (default 200). anvil's cost per mined block grows with the chain's state (at
   * 250,000 names the root chain's blocks went from 22 ms to ~1.9 s each, and a late block of 1 transaction cost as
   * much as one of 200), so a large scenario's play is mostly mining, which fewer, larger blocks amortize. But anvil's
   * receipts grow faster than the block (2,000 per block: 2.5–5.4 s of receipts per block), so 2,000 was slower at
   * 40,000 and at 250,000 names (`git show d420317:docs/operations.md`, "Session 15"). The events are the same; their blocks are not.
   */
  txsPerBlock?: number;
}

export interface RunningDevnet {
  manifest: DevnetManifest;
  manifestPath: string;
  stop(): Promise<void>;
}

/**
 * Starts the shape's anvils (by default ENS root 31337, "base" 31338, "linea" 31339), deploys every contract, plays
 * the scenario, writes the manifest and returns. `stop()` ends the anvils it started; they also die with this process.
 */
export async function startDevnet(opts: StartDevnetOptions = {}): Promise<RunningDevnet> {
  const seed = opts.seed ?? 1;
  const names = opts.names ?? 40;
  const manifestPath = opts.manifestPath ?? join(runDir, "manifest.json");
  const log = opts.log ?? (() => {});
  // Chain.send steps through a scenario step by this many: anything but a whole number ≥ 1 would never end.
  if (opts.txsPerBlock !== undefined && (!Number.isInteger(opts.txsPerBlock) || opts.txsPerBlock < 1)) {
    throw new Error(`txsPerBlock must be a whole number ≥ 1, got ${opts.txsPerBlock}`);
  }
  const started: AnvilChain[] = [];
  const stop = async () => {
    await Promise.all(started.map((a) => a.stop()));
  };
  try {
    const t0 = Date.now();
    log("compiling contracts and fetching the ENS artifacts");
    // Before the chains play concurrently: a cold solc-js build blocks the event loop for ~20 s.
    loadDevnetContracts();
    const shape = opts.shape ?? LOCAL_DEVNET_SHAPE;
    const shapes = chainsOfShape(shape);
    const anvils = await Promise.all(
      shapes.map(async (s) => {
        const a = await startAnvil({
          chainId: s.chainId,
          genesisNumber: s.genesisNumber,
          genesisTimestamp: Math.floor(Date.now() / 1000) - GENESIS_LEAD_SECONDS,
          pruneHistory: opts.pruneHistory,
          txsPerBlock: opts.txsPerBlock,
        });
        started.push(a);
        return a;
      }),
    );
    for (const a of anvils) log(`chain ${a.chainId}: ${a.rpcUrl} (pid ${a.pid})`);
    const chains = await Promise.all(anvils.map((a) => Chain.connect(a.chainId, a.rpcUrl, opts.txsPerBlock)));
    chains.forEach((c, i) => {
      c.placements = shapes[i]!.placements ?? {};
      c.managedLabel = shapes[i]!.managedLabel;
      c.ensv2Registrar = shapes[i]!.ensv2Registrar ?? "ETHRegistrar";
    });
    const chainOf = (s: ChainShape | undefined) => (s ? chains[shapes.indexOf(s)] : undefined);
    const [root, base, linea] = chains as [Chain, Chain, Chain];
    const [optimism, arbitrum, scroll] = [chainOf(shape.optimism), chainOf(shape.arbitrum), chainOf(shape.scroll)];
    let txs = 0;
    for (const chain of chains) {
      await chain.syncNonces();
      chain.keepTopics = actionTopics();
      chain.onBlock = (n) => {
        txs += n;
      };
    }
    const progress = setInterval(() => log(`… ${txs} transactions`), 5000);
    let result: Awaited<ReturnType<typeof runScenario>>;
    try {
      result = await runScenario({ root, base, linea, optimism, arbitrum, scroll }, seed, names, log);
    } finally {
      clearInterval(progress);
    }
    const { deployments: d, scenario } = result;

    await Promise.all(
      chains.map(async (c) => {
        // Bring the chain's clock to the wall clock: padding just behind now, then later blocks at real time.
        const paddingStart = Math.floor(Date.now() / 1000) - shape.paddingBlocks;
        const chainTime = await c.latestTimestamp();
        if (chainTime < paddingStart) await c.setNextBlockTimestamp(paddingStart);
        else log(`chain ${c.chainId}: scenario time ran ${chainTime - paddingStart} s past the wall clock`);
        await c.mineEmpty(shape.paddingBlocks);
        if (chainTime < paddingStart) await c.setTime(Math.floor(Date.now() / 1000));
      }),
    );
    for (const chain of chains) {
      if (opts.mineInterval && opts.mineInterval > 0)
        await chain.rpc.call("evm_setIntervalMining", [opts.mineInterval]);
      else await chain.rpc.call("evm_setAutomine", [true]);
    }

    const rc = d.root.contracts;
    const bc = d.base.contracts;
    const lc = d.linea.contracts;
    const ref = (x: { address: `0x${string}`; block: number }) => ({ address: x.address, startBlock: x.block });
    const datasources: Record<string, ManifestDatasource> = {
      ensroot: {
        chain: root,
        contracts: {
          RegistryOld: ref(rc.RegistryOld),
          Registry: ref(rc.Registry),
          Resolver: { startBlock: d.root.firstBlock },
          BaseRegistrar: ref(rc.BaseRegistrar),
          LegacyEthRegistrarController: ref(rc.LegacyEthRegistrarController),
          WrappedEthRegistrarController: ref(rc.WrappedEthRegistrarController),
          UnwrappedEthRegistrarController: ref(rc.UnwrappedEthRegistrarController),
          RenewalWithReferrer: ref(rc.RenewalWithReferrer),
          NameWrapper: ref(rc.NameWrapper),
          UniversalResolver: ref(rc.UniversalResolver),
          ReverseRegistrar: ref(rc.ReverseRegistrar),
          DefaultReverseRegistrar: ref(rc.DefaultReverseRegistrar),
          Seaport: ref(rc.Seaport),
        },
      },
      basenames: {
        chain: base,
        contracts: {
          Registry: ref(bc.Registry),
          Resolver: { startBlock: d.base.firstBlock },
          BaseRegistrar: ref(bc.BaseRegistrar),
          EARegistrarController: ref(bc.EARegistrarController),
          RegistrarController: ref(bc.RegistrarController),
          UpgradeableRegistrarController: ref(bc.UpgradeableRegistrarController),
        },
      },
      lineanames: {
        chain: linea,
        contracts: {
          Registry: ref(lc.Registry),
          Resolver: { startBlock: d.linea.firstBlock },
          BaseRegistrar: ref(lc.BaseRegistrar),
          EthRegistrarController: ref(lc.EthRegistrarController),
          NameWrapper: ref(lc.NameWrapper),
        },
      },
      threednsBase: {
        chain: base,
        contracts: { ThreeDNSToken: ref(bc.ThreeDNSToken), ThreeDNSResolver: ref(bc.ThreeDNSResolver) },
      },
      reverseBase: { chain: base, contracts: { L2ReverseRegistrar: ref(bc.L2ReverseRegistrar) } },
      reverseLinea: { chain: linea, contracts: { L2ReverseRegistrar: ref(lc.L2ReverseRegistrar) } },
    };
    const oc = d.optimism?.contracts;
    if (optimism && oc) {
      datasources.threednsOptimism = {
        chain: optimism,
        contracts: { ThreeDNSToken: ref(oc.ThreeDNSToken), ThreeDNSResolver: ref(oc.ThreeDNSResolver) },
      };
      datasources.reverseOptimism = { chain: optimism, contracts: { L2ReverseRegistrar: ref(oc.L2ReverseRegistrar) } };
    }
    for (const [ds, chain, played] of [
      ["reverseArbitrum", arbitrum, d.arbitrum],
      ["reverseScroll", scroll, d.scroll],
    ] as const) {
      if (chain && played) datasources[ds] = { chain, contracts: { L2ReverseRegistrar: ref(played.reverseRegistrar) } };
    }

    const chainEntry = (name: string, a: AnvilChain) =>
      [String(a.chainId), { name, rpcUrl: a.rpcUrl, pid: a.pid }] as const;
    const manifest = devnetManifestSchema.parse({
      version: 1,
      createdAt: new Date().toISOString(),
      seed,
      chains: Object.fromEntries(anvils.map((a, i) => chainEntry(shapes[i]!.name, a))),
      datasources: Object.fromEntries(
        Object.entries(datasources).map(([name, ds]) => [
          name,
          {
            chainId: ds.chain.chainId,
            // Written only where the shape changes it, so the local devnet's manifest keeps the defaults.
            ...((name === "basenames" || name === "lineanames") && ds.chain.managedLabel
              ? { managedName: `${ds.chain.managedLabel}.eth` }
              : {}),
            contracts: ds.contracts,
          },
        ]),
      ),
      ensv2: {
        chainId: root.chainId,
        contracts: Object.fromEntries(Object.entries(d.ensv2.contracts).map(([k, v]) => [k, ref(v)])),
      },
      scenario: {
        ...scenario,
        otherContracts: {
          ensroot: Object.fromEntries(Object.entries(rc).map(([k, v]) => [k, v.address])),
          basenames: Object.fromEntries(Object.entries(bc).map(([k, v]) => [k, v.address])),
          lineanames: Object.fromEntries(Object.entries(lc).map(([k, v]) => [k, v.address])),
          ...(oc ? { optimism: Object.fromEntries(Object.entries(oc).map(([k, v]) => [k, v.address])) } : {}),
          ...(d.arbitrum ? { arbitrum: { L2ReverseRegistrar: d.arbitrum.reverseRegistrar.address } } : {}),
          ...(d.scroll ? { scroll: { L2ReverseRegistrar: d.scroll.reverseRegistrar.address } } : {}),
        },
        eventCounts: countEvents(datasources),
        registrarActions: [
          ...registrarActions(root, source("ensroot", "BaseRegistrar", rc.BaseRegistrar.address), [
            source("ensroot", "LegacyEthRegistrarController", rc.LegacyEthRegistrarController.address),
            source("ensroot", "WrappedEthRegistrarController", rc.WrappedEthRegistrarController.address),
            source("ensroot", "UnwrappedEthRegistrarController", rc.UnwrappedEthRegistrarController.address),
            source("ensroot", "RenewalWithReferrer", rc.RenewalWithReferrer.address),
          ]),
          ...registrarActions(base, source("basenames", "BaseRegistrar", bc.BaseRegistrar.address), [
            source("basenames", "EARegistrarController", bc.EARegistrarController.address),
            source("basenames", "RegistrarController", bc.RegistrarController.address),
            source("basenames", "UpgradeableRegistrarController", bc.UpgradeableRegistrarController.address),
          ]),
          ...registrarActions(linea, source("lineanames", "BaseRegistrar", lc.BaseRegistrar.address), [
            source("lineanames", "EthRegistrarController", lc.EthRegistrarController.address),
          ]),
        ],
        blocks: Object.fromEntries(
          await Promise.all(chains.map(async (c) => [String(c.chainId), await c.blockNumber()] as const)),
        ),
      },
    });
    writeManifest(manifestPath, manifest);
    const total = Object.values(manifest.scenario.eventCounts as Record<string, number>).reduce((a, b) => a + b, 0);
    log(
      `scenario done in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${scenario.names.length} names, ${txs} transactions, ${total} indexed events`,
    );
    return { manifest, manifestPath, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
