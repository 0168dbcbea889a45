/**
 * Mainnet event signatures, written out by hand from the public mainnet ABIs (for ENS's own contracts, as the ENS
 * subgraph lists them: https://github.com/ensdomains/ens-subgraph/blob/723f1b6abfd4b30a99db0b429a77ebac61ed8b91/subgraph.yaml)
 * (Basenames, Lineanames, 3DNS, the renewal-with-referrer contract), keyed by manifest datasource/contract. The
 * devnet's contracts must emit exactly these: same topic0 and the same indexed flags.
 */
const registry = [
  "NewOwner(bytes32 indexed node, bytes32 indexed label, address owner)",
  "Transfer(bytes32 indexed node, address owner)",
  "NewResolver(bytes32 indexed node, address resolver)",
  "NewTTL(bytes32 indexed node, uint64 ttl)",
];
const baseRegistrar = [
  "NameRegistered(uint256 indexed id, address indexed owner, uint256 expires)",
  "NameRenewed(uint256 indexed id, uint256 expires)",
  "Transfer(address indexed from, address indexed to, uint256 indexed tokenId)",
];
const nameWrapper = [
  "NameWrapped(bytes32 indexed node, bytes name, address owner, uint32 fuses, uint64 expiry)",
  "NameUnwrapped(bytes32 indexed node, address owner)",
  "FusesSet(bytes32 indexed node, uint32 fuses)",
  "ExpiryExtended(bytes32 indexed node, uint64 expiry)",
  "TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)",
  "TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)",
];
const resolverCore = [
  "AddrChanged(bytes32 indexed node, address a)",
  "AddressChanged(bytes32 indexed node, uint256 coinType, bytes newAddress)",
  "NameChanged(bytes32 indexed node, string name)",
  "ABIChanged(bytes32 indexed node, uint256 indexed contentType)",
  "PubkeyChanged(bytes32 indexed node, bytes32 x, bytes32 y)",
  "ContenthashChanged(bytes32 indexed node, bytes hash)",
  "InterfaceChanged(bytes32 indexed node, bytes4 indexed interfaceID, address implementer)",
];
const textWithValue = "TextChanged(bytes32 indexed node, string indexed indexedKey, string key, string value)";
const textWithoutValue = "TextChanged(bytes32 indexed node, string indexed indexedKey, string key)";
const basenamesController = [
  "NameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 expires)",
  "NameRenewed(string name, bytes32 indexed label, uint256 expires)",
];
const primaryName = ["NameForAddrChanged(address indexed addr, string name)"];

export const MAINNET_SIGNATURES: Record<string, string[]> = {
  "ensroot/RegistryOld": registry,
  "ensroot/Registry": registry,
  "ensroot/BaseRegistrar": baseRegistrar,
  "ensroot/LegacyEthRegistrarController": [
    "NameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 cost, uint256 expires)",
    "NameRenewed(string name, bytes32 indexed label, uint256 cost, uint256 expires)",
  ],
  "ensroot/WrappedEthRegistrarController": [
    "NameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 baseCost, uint256 premium, uint256 expires)",
    "NameRenewed(string name, bytes32 indexed label, uint256 cost, uint256 expires)",
  ],
  "ensroot/UnwrappedEthRegistrarController": [
    "NameRegistered(string label, bytes32 indexed labelhash, address indexed owner, uint256 baseCost, uint256 premium, uint256 expires, bytes32 referrer)",
    "NameRenewed(string label, bytes32 indexed labelhash, uint256 cost, uint256 expires, bytes32 referrer)",
  ],
  "ensroot/RenewalWithReferrer": [
    "RenewalReferred(string label, bytes32 indexed labelHash, uint256 cost, uint256 duration, bytes32 referrer)",
  ],
  "ensroot/NameWrapper": nameWrapper,
  "ensroot/Resolver": [
    ...resolverCore,
    textWithValue,
    textWithoutValue,
    "AuthorisationChanged(bytes32 indexed node, address indexed owner, address indexed target, bool isAuthorised)",
    "VersionChanged(bytes32 indexed node, uint64 newVersion)",
  ],
  "ensroot/DefaultReverseRegistrar": primaryName,
  // Seaport 1.5: offer is SpentItem[], consideration ReceivedItem[] (the enum ItemType is a uint8 in the ABI).
  "ensroot/Seaport": [
    "OrderFulfilled(bytes32 orderHash, address indexed offerer, address indexed zone, address recipient, (uint8 itemType, address token, uint256 identifier, uint256 amount)[] offer, (uint8 itemType, address token, uint256 identifier, uint256 amount, address recipient)[] consideration)",
  ],
  "basenames/Registry": registry,
  "basenames/BaseRegistrar": [
    ...baseRegistrar,
    "NameRegisteredWithRecord(uint256 indexed id, address indexed owner, uint256 expires, address resolver, uint64 ttl)",
  ],
  "basenames/EARegistrarController": basenamesController,
  "basenames/RegistrarController": basenamesController,
  "basenames/UpgradeableRegistrarController": basenamesController,
  "basenames/Resolver": [
    ...resolverCore,
    textWithValue,
    "VersionChanged(bytes32 indexed node, uint64 newVersion)",
    // ens-contracts' DNSResolver (no TTL).
    "DNSRecordChanged(bytes32 indexed node, bytes name, uint16 resource, bytes record)",
    "DNSRecordDeleted(bytes32 indexed node, bytes name, uint16 resource)",
  ],
  "lineanames/Registry": registry,
  "lineanames/BaseRegistrar": baseRegistrar,
  "lineanames/EthRegistrarController": [
    "NameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 baseCost, uint256 premium, uint256 expires)",
    "NameRenewed(string name, bytes32 indexed label, uint256 cost, uint256 expires)",
    "OwnerNameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 expires)",
    "PohNameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 expires)",
  ],
  "lineanames/NameWrapper": nameWrapper,
  "lineanames/Resolver": [...resolverCore, textWithValue],
  "threednsBase/ThreeDNSToken": [
    "RegistrationCreated(bytes32 indexed node, bytes32 indexed tld, bytes fqdn, address registrant, uint32 controlBitmap, uint64 expiry)",
    "RegistrationExtended(bytes32 indexed node, uint64 indexed duration, uint64 indexed newExpiry)",
    "RegistrationTransferred(bytes32 indexed node, address indexed newOwner, address indexed operator)",
    "RegistrationBurned(bytes32 indexed node, address indexed burner)",
    "NewOwner(bytes32 indexed node, bytes32 indexed label, address owner)",
    "Transfer(bytes32 indexed node, address owner)",
    "TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)",
    "TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)",
  ],
  "threednsBase/ThreeDNSResolver": [
    ...resolverCore,
    textWithValue,
    "DNSRecordChanged(bytes32 indexed node, bytes name, uint16 resource, uint32 ttl, bytes record)",
    "DNSRecordDeleted(bytes32 indexed node, bytes name, uint16 resource)",
    "DNSZonehashChanged(bytes32 indexed node, bytes lastzonehash, bytes zonehash)",
    "ZoneCreated(bytes32 indexed node, uint64 indexed version)",
  ],
  "reverseBase/L2ReverseRegistrar": primaryName,
  "reverseLinea/L2ReverseRegistrar": primaryName,
};
