export const RESOLUTION_SDL = /* GraphQL */ `
type AccelerationStatus {
  attempted: Boolean!
  requested: Boolean!
}

enum ContenthashProtocol {
  ARWEAVE
  IPFS
  IPNS
  ONION
  ONION3
  SKYNET
  SWARM
}

type DomainProfile {
  addresses: ProfileAddresses
  avatar: ProfileAvatar
  contenthash: ProfileContenthash
  description: String
  email: Email
  header: ProfileHeader
  socials: ProfileSocials
  website: ProfileWebsite
}

type ForwardResolve {
  acceleration: AccelerationStatus!
  profile: DomainProfile
  records: ResolvedRecords
  trace: JSON
}

input PrimaryNameByInput @oneOf {
  chainName: ChainName
  coinType: CoinType
}

type PrimaryNameRecord {
  chainName: ChainName
  coinType: CoinType!
  name: CanonicalName
  resolve: ForwardResolve!
}

input PrimaryNamesWhereInput @oneOf {
  chainNames: [ChainName!]
  coinTypes: [CoinType!]
}

type ProfileAddresses {
  base: Address
  binance: BinanceAddress
  bitcoin: BitcoinAddress
  bitcoincash: BitcoinCashAddress
  dogecoin: DogecoinAddress
  ethereum: Address
  litecoin: LitecoinAddress
  monacoin: MonacoinAddress
  ripple: RippleAddress
  rootstock: RootstockAddress
  solana: SolanaAddress
}

type ProfileAvatar {
  httpUrl: String
}

type ProfileContenthash {
  decoded: String!
  httpUrl: String
  protocolType: ContenthashProtocol!
  uri: String!
}

type ProfileHeader {
  httpUrl: String
}

type ProfileSocialAccount {
  handle: String!
  httpUrl: String!
}

type ProfileSocials {
  github: ProfileSocialAccount
  keybase: ProfileSocialAccount
  linkedin: ProfileSocialAccount
  telegram: ProfileSocialAccount
  twitter: ProfileSocialAccount
}

type ProfileWebsite {
  httpUrl: String
}

type ResolvedAbiRecord {
  contentType: BigInt!
  data: Hex!
}

type ResolvedAddressRecord {
  address: Hex
  coinType: CoinType!
}

type ResolvedInterfaceRecord {
  implementer: Address
  interfaceId: InterfaceId!
}

type ResolvedPubkeyRecord {
  x: Hex!
  y: Hex!
}

type ResolvedRawTextRecord {
  key: String!
  value: String
}

type ResolvedRecords {
  abi(contentTypeMask: BigInt!): ResolvedAbiRecord
  addresses(coinTypes: [CoinType!]!): [ResolvedAddressRecord!]!
  contenthash: Hex
  dnszonehash: Hex
  interfaces(ids: [InterfaceId!]!): [ResolvedInterfaceRecord!]!
  pubkey: ResolvedPubkeyRecord
  reverseName: String
  texts(keys: [String!]!): [ResolvedRawTextRecord!]!
  version: BigInt
}

type ReverseResolve {
  acceleration: AccelerationStatus!
  primaryName(by: PrimaryNameByInput!): PrimaryNameRecord!
  primaryNames(where: PrimaryNamesWhereInput!): [PrimaryNameRecord!]!
  trace: JSON!
}
`;
