import { parseAbi } from "viem";

/*
 * ENSv2's events as the indexer reads them: the real contracts' signatures and `indexed` flags (contracts-v2; checked
 * against @ensnode/datasources and our devnet contracts by devnet/test/ensv2-events.test.ts, with the known
 * differences listed in docs/ensv2.md). Events only: nothing here calls a contract.
 */

/**
 * Every ENSv2 registry's own events (PermissionedRegistry, UserRegistry, WrapperRegistry), and EnhancedAccessControl's
 * one event: signatures no other kind of contract emits, so they are matched at any address.
 */
export const Ensv2RegistryEventsAbi = parseAbi([
  "event LabelRegistered(uint256 indexed tokenId, bytes32 indexed labelHash, string label, address owner, uint64 expiry, address indexed sender)",
  "event LabelReserved(uint256 indexed tokenId, bytes32 indexed labelHash, string label, uint64 expiry, address indexed sender)",
  "event LabelUnregistered(uint256 indexed tokenId, address indexed sender)",
  "event ExpiryUpdated(uint256 indexed tokenId, uint64 indexed newExpiry, address indexed sender)",
  "event SubregistryUpdated(uint256 indexed tokenId, address indexed subregistry, address indexed sender)",
  "event ResolverUpdated(uint256 indexed tokenId, address indexed resolver, address indexed sender)",
  "event TokenRegenerated(uint256 indexed oldTokenId, uint256 indexed newTokenId)",
  "event TokenResource(uint256 indexed tokenId, uint256 indexed resource)",
  "event ParentUpdated(address indexed parent, string label, address indexed sender)",
  "event EACRolesChanged(uint256 indexed resource, address indexed account, uint256 oldRoleBitmap, uint256 newRoleBitmap)",
]);

/**
 * A registry's ERC-1155 transfers: every ERC-1155 contract of a chain emits these, so they are taken only from the
 * registries of the tree (docs/ensv2.md, "Which logs are fetched").
 */
export const Ensv2RegistryTransfersAbi = parseAbi([
  "event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)",
  "event TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)",
]);

/** Every event of an ENSv2 registry. */
export const Ensv2RegistryAbi = [...Ensv2RegistryEventsAbi, ...Ensv2RegistryTransfersAbi] as const;

/**
 * The `.eth` registrar (ETHRegistrar): what each registration and renewal cost, in which ERC-20, with which referrer.
 * Its public source (contracts-v2 main) leaves `referrer` in the data; this is the ABI Ponder decodes the registrar's
 * logs with, and the form whose topic count (2) tells them apart from the deployed build's (below).
 */
export const Ensv2EthRegistrarAbi = parseAbi([
  "event NameRegistered(uint256 indexed tokenId, string label, address owner, address subregistry, address resolver, uint64 duration, address paymentToken, bytes32 referrer, uint256 base, uint256 premium)",
  "event NameRenewed(uint256 indexed tokenId, string label, uint64 duration, uint64 newExpiry, address paymentToken, bytes32 referrer, uint256 base)",
]);

/**
 * The same two events as the registrar deployed for sepolia-v2 emits them (`@ensnode/datasources` 1.17.0; contracts-v2
 * #286): `referrer` indexed (a third topic), the renewal's price named `amount`. Same topic hashes, other layouts:
 * the handlers decode a three-topic log with these (src/plugins/ensv2/lib/registrar-events.ts).
 */
export const Ensv2EthRegistrarIndexedReferrerAbi = parseAbi([
  "event NameRegistered(uint256 indexed tokenId, string label, address owner, address subregistry, address resolver, uint64 duration, address paymentToken, bytes32 indexed referrer, uint256 base, uint256 premium)",
  "event NameRenewed(uint256 indexed tokenId, string label, uint64 duration, uint64 newExpiry, address paymentToken, bytes32 indexed referrer, uint256 amount)",
]);
