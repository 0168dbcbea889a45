export const RESOLUTION_SDL = /* GraphQL */ `
"Whether an answer was to come from the index instead of the chain, and whether it did."
type AccelerationStatus {
  "Whether the index answered (some or all of) it."
  attempted: Boolean!
  "Whether the question asked for it (accelerate: true)."
  requested: Boolean!
}

"The kind of content a contenthash record points at (ENSIP-7)."
enum ContenthashProtocol {
  "Arweave."
  ARWEAVE
  "IPFS (a fixed content id)."
  IPFS
  "IPNS (a name that points at changing IPFS content)."
  IPNS
  "A Tor onion service (version 2 address)."
  ONION
  "A Tor onion service (version 3 address)."
  ONION3
  "Skynet."
  SKYNET
  "Swarm."
  SWARM
}

"A name's records, read as a profile: the well-known text and address records, parsed."
type DomainProfile {
  "The name's addresses on the best-known chains."
  addresses: ProfileAddresses
  "The avatar record."
  avatar: ProfileAvatar
  "The contenthash record, decoded; null when unset or when its bytes do not decode (records.contenthash has them)."
  contenthash: ProfileContenthash
  "The description text record."
  description: String
  "The email text record."
  email: Email
  "The header (banner image) text record."
  header: ProfileHeader
  "The social accounts named by text records."
  socials: ProfileSocials
  "The url text record."
  website: ProfileWebsite
}

"Forward resolution of a name: from the name to its records."
type ForwardResolve {
  "Whether the index answered instead of the chain."
  acceleration: AccelerationStatus!
  "The records read as a profile."
  profile: DomainProfile
  "The records themselves, as stored."
  records: ResolvedRecords
  "The steps the resolution of these records took (registries walked, resolver found, records read), as a tree of spans; built only when selected. Its shape may change between releases."
  trace: JSON
}

"Picks the chain of a primary name: give exactly one of these."
input PrimaryNameByInput @oneOf {
  "The chain, by name."
  chainName: ChainName
  "The chain, by coin type."
  coinType: CoinType
}

"An account's primary name on one chain (ENSIP-19): the name its reverse record gives, when that name resolves back to the account."
type PrimaryNameRecord {
  "The chain, by name; null for a coin type this schema has no name for."
  chainName: ChainName
  "The chain, by coin type."
  coinType: CoinType!
  "The primary name; null when the account has none there."
  name: CanonicalName
  "Forward resolution of the primary name."
  resolve: ForwardResolve!
}

"Picks the chains of primary names: give exactly one of these."
input PrimaryNamesWhereInput @oneOf {
  "The chains, by name."
  chainNames: [ChainName!]
  "The chains, by coin type."
  coinTypes: [CoinType!]
}

"A name's addresses on the best-known chains, each in that chain's own form; null when unset or when the record's bytes are not an address of that chain (records.addresses has them)."
type ProfileAddresses {
  "On Base."
  base: Address
  "On BNB Beacon Chain."
  binance: BinanceAddress
  "On Bitcoin."
  bitcoin: BitcoinAddress
  "On Bitcoin Cash."
  bitcoincash: BitcoinCashAddress
  "On Dogecoin."
  dogecoin: DogecoinAddress
  "On Ethereum."
  ethereum: Address
  "On Litecoin."
  litecoin: LitecoinAddress
  "On Monacoin."
  monacoin: MonacoinAddress
  "On the XRP Ledger."
  ripple: RippleAddress
  "On Rootstock."
  rootstock: RootstockAddress
  "On Solana."
  solana: SolanaAddress
}

"A name's avatar."
type ProfileAvatar {
  "An http(s) URL a browser can load the image from."
  httpUrl: String
}

"A decoded contenthash record."
type ProfileContenthash {
  "The content's id in its protocol's own text form (a CIDv1 for IPFS, a hex hash for Swarm)."
  decoded: String!
  "An http(s) URL through a public gateway; null for protocols without one (onion, Skynet)."
  httpUrl: String
  "The protocol."
  protocolType: ContenthashProtocol!
  "The content as a URI (ipfs://..., ipns://..., bzz://..., ar://...)."
  uri: String!
}

"A name's header (banner) image."
type ProfileHeader {
  "An http(s) URL a browser can load the image from."
  httpUrl: String
}

"An account on a social site, as a text record names it."
type ProfileSocialAccount {
  "The handle on that site."
  handle: String!
  "The profile's page on that site."
  httpUrl: String!
}

"The social accounts a name's text records name."
type ProfileSocials {
  "On GitHub (com.github)."
  github: ProfileSocialAccount
  "On Keybase (io.keybase)."
  keybase: ProfileSocialAccount
  "On LinkedIn (com.linkedin)."
  linkedin: ProfileSocialAccount
  "On Telegram (org.telegram)."
  telegram: ProfileSocialAccount
  "On X / Twitter (com.twitter)."
  twitter: ProfileSocialAccount
}

"A name's website."
type ProfileWebsite {
  "Its http(s) URL."
  httpUrl: String
}

"An ABI record."
type ResolvedAbiRecord {
  "The encoding of the ABI (1 JSON, 2 zlib-compressed JSON, 4 CBOR, 8 a URI)."
  contentType: BigInt!
  "The ABI, in that encoding."
  data: Hex!
}

"An address record for one coin type."
type ResolvedAddressRecord {
  "The address as the resolver stores it (bytes); null when not set."
  address: Hex
  "The coin type asked for."
  coinType: CoinType!
}

"Which contract implements an interface for a name (EIP-165 via the resolver)."
type ResolvedInterfaceRecord {
  "The implementing contract; null when none."
  implementer: Address
  "The interface asked for."
  interfaceId: InterfaceId!
}

"A SECP256k1 public key record."
type ResolvedPubkeyRecord {
  "The key's x coordinate."
  x: Hex!
  "The key's y coordinate."
  y: Hex!
}

"A text record, as stored."
type ResolvedRawTextRecord {
  "The key asked for."
  key: String!
  "The value; null when not set."
  value: String
}

"A name's records as its resolver answers them; ask for the ones you need."
type ResolvedRecords {
  "The ABI record, in the first of the encodings the mask allows that is set."
  abi(
    "The ABI encodings acceptable, as a bitmask (see ResolvedAbiRecord.contentType)."
    contentTypeMask: BigInt!
  ): ResolvedAbiRecord
  "Address records, one per coin type asked for."
  addresses(
    "The coin types to read (60 for Ethereum)."
    coinTypes: [CoinType!]!
  ): [ResolvedAddressRecord!]!
  "The contenthash record, as stored."
  contenthash: Hex
  "The DNS zonehash record."
  dnszonehash: Hex
  "Interface implementers, one per interface asked for."
  interfaces(
    "The ERC-165 interface ids to read."
    ids: [InterfaceId!]!
  ): [ResolvedInterfaceRecord!]!
  "The public key record."
  pubkey: ResolvedPubkeyRecord
  "The name record (what a reverse node names)."
  reverseName: String
  "Text records, one per key asked for."
  texts(
    "The keys to read (avatar, description, url, com.twitter...)."
    keys: [String!]!
  ): [ResolvedRawTextRecord!]!
  "The records' version: a resolver that clears all of a name's records moves it on."
  version: BigInt
}

"Reverse resolution of an account: from the address to its names."
type ReverseResolve {
  "Whether the index answered instead of the chain."
  acceleration: AccelerationStatus!
  "The account's primary name on one chain."
  primaryName(by: PrimaryNameByInput!): PrimaryNameRecord!
  "The account's primary names on the chains asked for, one record per chain."
  primaryNames(where: PrimaryNamesWhereInput!): [PrimaryNameRecord!]!
  "The steps of the reverse resolutions the primaryName and primaryNames fields here ask, one tree of spans per chain; empty when they ask none. Its shape may change between releases."
  trace: JSON!
}
`;
