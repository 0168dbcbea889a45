import type { Hex } from "viem";

export type OwnershipType = "namewrapper" | "fully-onchain" | "burned" | "unknown";

export interface ChainAccount {
  chainId: number;
  address: Hex;
}

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

/**
 * How a token's owner holds the name (docs/api.md, "GET /api/name-tokens"): through a NameWrapper of the namespace, not at all (the
 * zero address), directly as a .eth 2LD's owner (fully onchain), or in a way we cannot tell.
 */
export function ownershipType(
  owner: ChainAccount,
  name: string | null,
  nameWrappers: readonly ChainAccount[],
): OwnershipType {
  const address = owner.address.toLowerCase();
  if (nameWrappers.some((w) => w.chainId === owner.chainId && w.address.toLowerCase() === address))
    return "namewrapper";
  if (address === ZERO_ADDRESS) return "burned";
  if (name !== null && isDirectChildOfEth(name)) return "fully-onchain";
  return "unknown";
}

function isDirectChildOfEth(name: string): boolean {
  const labels = name.split(".");
  return labels.length === 2 && labels[1] === "eth" && labels[0] !== "";
}
