import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DevnetShape, type RunningDevnet, startDevnet } from "../devnet/src/index";
import { ingestDemoLabelSet, startLabelsServer } from "../labels-service/src/index";

export interface DevnetWithLabels {
  devnet: RunningDevnet;
  labelsUrl: string;
  labelsDbPath: string;
  stop(): Promise<void>;
}

/** A devnet with its scenario played, and a label service healing the demo set (minus the unhealable labels). */
export async function startDevnetWithLabels(options: {
  seed: number;
  names: number;
  mineInterval?: number;
  shape?: DevnetShape;
  /** Transactions per played block (startDevnet's; fewer spreads the scenario over more blocks). */
  txsPerBlock?: number;
}): Promise<DevnetWithLabels> {
  const dir = mkdtempSync(join(tmpdir(), "nameindex-devnet-"));
  const devnet = await startDevnet({ ...options, manifestPath: join(dir, "manifest.json") });
  try {
    const scenario = devnet.manifest.scenario as { labels?: string[]; unhealableLabels?: string[] };
    const labelsDbPath = join(dir, "labels.sqlite");
    await ingestDemoLabelSet({
      dbPath: labelsDbPath,
      extraLabels: scenario.labels ?? [],
      excludeLabels: scenario.unhealableLabels ?? [],
    });
    const labels = await startLabelsServer({ dbPath: labelsDbPath, port: 0, host: "127.0.0.1" });
    return {
      devnet,
      labelsUrl: labels.url,
      labelsDbPath,
      async stop() {
        await labels.close();
        await devnet.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await devnet.stop();
    throw error;
  }
}

/** Raw JSON-RPC to a devnet chain (evm_mine and friends). */
export async function rpc<T = unknown>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}
