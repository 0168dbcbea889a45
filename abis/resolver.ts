import { parseAbi } from "viem";

/** Every resolver event, matched at any address. Both TextChanged variants occur on mainnet. */
export const ResolverAbi = parseAbi([
  "event AddrChanged(bytes32 indexed node, address a)",
  "event AddressChanged(bytes32 indexed node, uint256 coinType, bytes newAddress)",
  "event NameChanged(bytes32 indexed node, string name)",
  "event ABIChanged(bytes32 indexed node, uint256 indexed contentType)",
  "event PubkeyChanged(bytes32 indexed node, bytes32 x, bytes32 y)",
  "event TextChanged(bytes32 indexed node, string indexed indexedKey, string key)",
  "event TextChanged(bytes32 indexed node, string indexed indexedKey, string key, string value)",
  "event ContenthashChanged(bytes32 indexed node, bytes hash)",
  "event InterfaceChanged(bytes32 indexed node, bytes4 indexed interfaceID, address implementer)",
  "event AuthorisationChanged(bytes32 indexed node, address indexed owner, address indexed target, bool isAuthorised)",
  "event VersionChanged(bytes32 indexed node, uint64 newVersion)",
  // ens-contracts' DNSResolver, and 3DNS's resolver (its DNSRecordChanged carries a TTL, and it has zones).
  "event DNSRecordChanged(bytes32 indexed node, bytes name, uint16 resource, bytes record)",
  "event DNSRecordChanged(bytes32 indexed node, bytes name, uint16 resource, uint32 ttl, bytes record)",
  "event DNSRecordDeleted(bytes32 indexed node, bytes name, uint16 resource)",
  "event DNSZonehashChanged(bytes32 indexed node, bytes lastzonehash, bytes zonehash)",
  "event ZoneCreated(bytes32 indexed node, uint64 indexed version)",
  "function addr(bytes32 node) view returns (address)",
  "function addr(bytes32 node, uint256 coinType) view returns (bytes)",
  "function text(bytes32 node, string key) view returns (string)",
  "function contenthash(bytes32 node) view returns (bytes)",
  "function name(bytes32 node) view returns (string)",
  "function pubkey(bytes32 node) view returns (bytes32 x, bytes32 y)",
  "function ABI(bytes32 node, uint256 contentTypes) view returns (uint256, bytes)",
  "function interfaceImplementer(bytes32 node, bytes4 interfaceID) view returns (address)",
  "function zonehash(bytes32 node) view returns (bytes)",
  "function recordVersions(bytes32 node) view returns (uint64)",
]);

/**
 * The resolvers of the ENS root chain, where ENSv2 lives: every resolver event, and ENSv2's PermissionedResolver's
 * AliasChanged (names under `fromName` resolve as under `toName`).
 */
export const RootResolverAbi = [
  ...ResolverAbi,
  ...parseAbi([
    "event AliasChanged(bytes indexed indexedFromName, bytes indexed indexedToName, bytes fromName, bytes toName)",
  ]),
] as const;
