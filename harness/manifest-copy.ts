import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * A copy of a devnet manifest, written beside it as `<name>.json`, with every chain's RPC URL replaced by
 * `rpcUrlOf(chainId, rpcUrl)` (a proxy in front of the chain, another scheme); returns the copy's path.
 */
export async function writeManifestCopy(
  manifestPath: string,
  name: string,
  rpcUrlOf: (chainId: string, rpcUrl: string) => string | Promise<string>,
): Promise<string> {
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { chains: Record<string, { rpcUrl: string }> };
  for (const [chainId, chain] of Object.entries(manifest.chains)) chain.rpcUrl = await rpcUrlOf(chainId, chain.rpcUrl);
  const path = join(dirname(manifestPath), `${name}.json`);
  writeFileSync(path, JSON.stringify(manifest, null, 2));
  return path;
}
