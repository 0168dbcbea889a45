import { parseAbi } from "viem";

/** ENS registry (old registry, registry with fallback, and the L2 registries share it). */
export const RegistryAbi = parseAbi([
  "event NewOwner(bytes32 indexed node, bytes32 indexed label, address owner)",
  "event Transfer(bytes32 indexed node, address owner)",
  "event NewResolver(bytes32 indexed node, address resolver)",
  "event NewTTL(bytes32 indexed node, uint64 ttl)",
  "function owner(bytes32 node) view returns (address)",
  "function resolver(bytes32 node) view returns (address)",
  "function ttl(bytes32 node) view returns (uint64)",
  "function recordExists(bytes32 node) view returns (bool)",
]);
