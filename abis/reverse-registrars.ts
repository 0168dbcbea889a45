import { parseAbi } from "viem";

/** The legacy addr.reverse registrar; the name itself is set on a resolver (NameChanged). */
export const ReverseRegistrarAbi = parseAbi(["event ReverseClaimed(address indexed addr, bytes32 indexed node)"]);

/** The default (chain-agnostic) reverse registrar on the ENS root chain and the per-chain L2 reverse registrars. */
export const StandaloneReverseRegistrarAbi = parseAbi([
  "event NameForAddrChanged(address indexed addr, string name)",
  "function nameForAddr(address addr) view returns (string)",
]);
