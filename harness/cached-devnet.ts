/*
 * A devnet whose played chains are kept under .cache/devnet-states/<key>/: the first run plays the scenario and saves
 * each anvil's state (anvil_dumpState: accounts, blocks, transactions, receipts) and the manifest; a later run with
 * the same inputs starts the anvils from those files (--load-state) instead of replaying tens of thousands of blocks.
 * The key covers what decides the chains' content: seed, names, and the devnet's own sources and contracts.
 */
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { gunzipSync } from "node:zlib";
import { startAnvil } from "../devnet/src/anvil";
import { startDevnet } from "../devnet/src/index";
import { readManifestWithScenario, writeManifest } from "../devnet/src/manifest";
import { cacheDir, devnetDir } from "../devnet/src/paths";
import { Rpc } from "../devnet/src/rpc";
import { ingestDemoLabelSet, startLabelsServer } from "../labels-service/src/index";
import type { DevnetManifest } from "../src/namespaces/devnet-manifest";
import type { DevnetWithLabels } from "./devnet-fixture";

/** Bump when the cached files' layout changes. */
const LAYOUT_VERSION = 1;

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.isFile() ? [join(dir, e.name)] : [],
  );
}

/** What decides a played devnet: its inputs and every file of devnet/src and devnet/contracts. */
export function devnetCacheKey(seed: number, names: number, txsPerBlock: number): string {
  const hash = createHash("sha256").update(JSON.stringify({ LAYOUT_VERSION, seed, names, txsPerBlock }));
  for (const sub of ["src", "contracts"]) {
    for (const file of filesUnder(join(devnetDir, sub)).sort()) {
      hash.update(relative(devnetDir, file)).update(readFileSync(file));
    }
  }
  return hash.digest("hex").slice(0, 16);
}

export interface CachedDevnet extends DevnetWithLabels {
  /** "replayed from cache" or "played": how this run got its chains. */
  origin: "cache" | "played";
  /** Seconds to get the chains ready (play or load). */
  seconds: number;
}

/**
 * Sizes whose states are not saved: anvil_dumpState answers one JSON-RPC string, and a chain much past 50,000 names
 * (1.9 GiB of state) would exceed the longest string V8 can hold, after the whole scenario had been played.
 */
const LARGEST_SAVED = Number(process.env.BENCH_SAVE_STATES_UP_TO ?? 50_000);

/**
 * A devnet of `names` names (seed `seed`, `txsPerBlock` transactions per played block) with its label service, from
 * the state cache when it holds one.
 */
export async function startCachedDevnet(
  seed: number,
  names: number,
  txsPerBlock: number,
  log: (line: string) => void,
): Promise<CachedDevnet> {
  const key = devnetCacheKey(seed, names, txsPerBlock);
  const stateDir = join(cacheDir, "devnet-states", `${names}-${key}`);
  const dir = mkdtempSync(join(tmpdir(), "nameindex-scale-"));
  const manifestPath = join(dir, "manifest.json");
  const t0 = Date.now();
  let stopChains: () => Promise<void>;
  let manifest: DevnetManifest;
  let origin: CachedDevnet["origin"];
  if (existsSync(join(stateDir, "manifest.json"))) {
    origin = "cache";
    manifest = readManifestWithScenario(join(stateDir, "manifest.json"));
    const ids = Object.keys(manifest.chains);
    const anvils = await Promise.all(
      ids.map((id) => startAnvil({ chainId: Number(id), loadStatePath: join(stateDir, `chain-${id}.json`) })),
    );
    stopChains = async () => void (await Promise.all(anvils.map((a) => a.stop())));
    const expected = manifest.scenario.blocks as Record<string, number>;
    for (const [i, a] of anvils.entries()) {
      manifest.chains[ids[i]!] = { ...manifest.chains[ids[i]!]!, rpcUrl: a.rpcUrl, pid: a.pid };
      const head = Number(await new Rpc(a.rpcUrl).call<string>("eth_blockNumber"));
      if (head !== expected[ids[i]!]) {
        await stopChains();
        throw new Error(
          `cached chain ${ids[i]} loaded at block ${head}, expected ${expected[ids[i]!]}; delete ${stateDir}`,
        );
      }
    }
    writeManifest(manifestPath, manifest);
  } else {
    origin = "played";
    const devnet = await startDevnet({ seed, names, manifestPath, log, pruneHistory: true, txsPerBlock });
    stopChains = devnet.stop;
    manifest = devnet.manifest;
    try {
      if (names > LARGEST_SAVED)
        log(`not saving the chains' state: ${names} names is past BENCH_SAVE_STATES_UP_TO=${LARGEST_SAVED}`);
      else await saveChainStates(manifest, stateDir, log);
    } catch (error) {
      await stopChains();
      throw error;
    }
  }
  const seconds = (Date.now() - t0) / 1000;
  try {
    const scenario = manifest.scenario as { labels?: string[]; unhealableLabels?: string[] };
    const labelsDbPath = join(dir, "labels.sqlite");
    await ingestDemoLabelSet({
      dbPath: labelsDbPath,
      extraLabels: scenario.labels ?? [],
      excludeLabels: scenario.unhealableLabels ?? [],
    });
    const labels = await startLabelsServer({ dbPath: labelsDbPath, port: 0, host: "127.0.0.1" });
    return {
      devnet: { manifest, manifestPath, stop: stopChains },
      labelsUrl: labels.url,
      labelsDbPath,
      origin,
      seconds,
      async stop() {
        await labels.close();
        await stopChains();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stopChains();
    throw error;
  }
}

/** Each chain's anvil_dumpState and the manifest, written next to `stateDir` and renamed into place, so an interrupted run leaves no half cache. */
async function saveChainStates(manifest: DevnetManifest, stateDir: string, log: (line: string) => void): Promise<void> {
  const partial = `${stateDir}.partial-${process.pid}`;
  mkdirSync(partial, { recursive: true });
  for (const [id, chain] of Object.entries(manifest.chains)) {
    const dumped = await new Rpc(chain.rpcUrl).call<string>("anvil_dumpState");
    writeFileSync(join(partial, `chain-${id}.json`), gunzipSync(Buffer.from(dumped.slice(2), "hex")));
  }
  writeManifest(join(partial, "manifest.json"), manifest);
  rmSync(stateDir, { recursive: true, force: true });
  renameSync(partial, stateDir);
  const bytes = filesUnder(stateDir).reduce((n, f) => n + statSync(f).size, 0);
  log(`saved the chains' state to ${stateDir} (${(bytes / 2 ** 20).toFixed(0)} MiB)`);
}
