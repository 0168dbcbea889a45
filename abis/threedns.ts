import { parseAbi } from "viem";

/** 3DNS registrations (Optimism and Base). `fqdn` is DNS wire format. The token also emits registry events. */
export const ThreeDNSTokenAbi = parseAbi([
  "event NewOwner(bytes32 indexed node, bytes32 indexed label, address owner)",
  "event Transfer(bytes32 indexed node, address owner)",
  "event RegistrationCreated(bytes32 indexed node, bytes32 indexed tld, bytes fqdn, address registrant, uint32 controlBitmap, uint64 expiry)",
  "event RegistrationExtended(bytes32 indexed node, uint64 indexed duration, uint64 indexed newExpiry)",
  "event RegistrationTransferred(bytes32 indexed node, address indexed newOwner, address indexed operator)",
  "event RegistrationBurned(bytes32 indexed node, address indexed burner)",
  "event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)",
  "event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)",
]);
