import { devnetNamespace } from "./devnet";
import { mainnetNamespace } from "./mainnet";
import { sepoliaNamespace } from "./sepolia";
import type { Namespace, NamespaceName } from "./types";

export function loadNamespace(name: NamespaceName, devnetManifestPath: string): Namespace {
  switch (name) {
    case "mainnet":
      return mainnetNamespace;
    case "sepolia":
      return sepoliaNamespace;
    case "devnet":
      return devnetNamespace(devnetManifestPath);
  }
}

export * from "./types";
