import { parseAbi } from "viem";

/**
 * Seaport 1.5's `OrderFulfilled`, exactly as mainnet emits it: `offer` is `SpentItem[]` (itemType, token, identifier,
 * amount) and `consideration` is `ReceivedItem[]` (the same plus the item's recipient). ItemType: 0 native (ETH),
 * 1 ERC-20, 2 ERC-721, 3 ERC-1155, 4/5 their criteria-based forms (resolved to 2/3 before the event is emitted).
 */
export const SeaportAbi = parseAbi([
  "struct SpentItem { uint8 itemType; address token; uint256 identifier; uint256 amount; }",
  "struct ReceivedItem { uint8 itemType; address token; uint256 identifier; uint256 amount; address recipient; }",
  "event OrderFulfilled(bytes32 orderHash, address indexed offerer, address indexed zone, address recipient, SpentItem[] offer, ReceivedItem[] consideration)",
]);
