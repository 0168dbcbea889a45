import { parseAbi } from "viem";

/** ERC-1155 NameWrapper (ENS mainnet and Lineanames). `name` is DNS wire format. */
export const NameWrapperAbi = parseAbi([
  "event NameWrapped(bytes32 indexed node, bytes name, address owner, uint32 fuses, uint64 expiry)",
  "event NameUnwrapped(bytes32 indexed node, address owner)",
  "event FusesSet(bytes32 indexed node, uint32 fuses)",
  "event ExpiryExtended(bytes32 indexed node, uint64 expiry)",
  "event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)",
  "event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)",
  "function ownerOf(uint256 id) view returns (address)",
  "function balanceOf(address account, uint256 id) view returns (uint256)",
  "function getData(uint256 id) view returns (address owner, uint32 fuses, uint64 expiry)",
]);
