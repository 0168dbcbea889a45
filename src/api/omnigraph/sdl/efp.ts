/*
 * Ethereum Follow Protocol: in the schema so the peer's queries validate; not indexed here, so every EFP field answers
 * null or an empty list (docs/api.md).
 */
export const EFP_SDL = /* GraphQL */ `
"An account's Ethereum Follow Protocol presence: the lists it holds and who follows whom."
type AccountEfp {
  "The accounts whose primary list follows this account."
  followers(after: String, before: String, first: Int, last: Int): AccountEfpFollowersConnection
  "The accounts this account's primary list follows."
  following(after: String, before: String, first: Int, last: Int): AccountEfpFollowingConnection
  "The lists this account owns, manages or is the user of."
  lists(after: String, before: String, first: Int, last: Int): AccountEfpListsConnection
  "One metadata entry of the account, by key."
  metadata(
    "The entry's key (e.g. primary-list)."
    key: String!
  ): EfpAccountMetadata
  "All the account's metadata entries."
  metadatas(after: String, before: String, first: Int, last: Int): AccountEfpMetadatasConnection
  "The list the account has chosen as its own."
  primaryList: EfpList
}

type AccountEfpFollowersConnection {
  edges: [AccountEfpFollowersConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type AccountEfpFollowersConnectionEdge {
  cursor: String!
  node: Account!
}

type AccountEfpFollowingConnection {
  edges: [AccountEfpFollowingConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type AccountEfpFollowingConnectionEdge {
  cursor: String!
  node: Account!
}

type AccountEfpListsConnection {
  edges: [AccountEfpListsConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type AccountEfpListsConnectionEdge {
  cursor: String!
  node: EfpList!
}

type AccountEfpMetadatasConnection {
  edges: [AccountEfpMetadatasConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type AccountEfpMetadatasConnectionEdge {
  cursor: String!
  node: EfpAccountMetadata!
}

"A key-value entry an account set in EFP's account metadata contract."
type EfpAccountMetadata {
  "The account."
  address: Address!
  "The metadata contract, by chain and address."
  contract: AccountId!
  "When the entry was first set, in Unix seconds."
  createdAt: BigInt!
  "The entry's id."
  id: ID!
  "The entry's key."
  key: String!
  "When the entry last changed, in Unix seconds."
  updatedAt: BigInt!
  "The entry's value, as bytes."
  value: Hex!
}

"An EFP list: an NFT whose records say whom its user follows."
type EfpList {
  "When the list was minted, in Unix seconds."
  createdAt: BigInt!
  "The account allowed to change the list's records."
  manager: Address
  "The list NFT's contract, by chain and address."
  nft: AccountId!
  "The list NFT's holder."
  owner: Address!
  "The list's records."
  records(after: String, before: String, first: Int, last: Int): EfpListRecordsConnection
  "Where the list's records are stored."
  storageLocation: EfpListStorageLocation
  "The list NFT's token id."
  tokenId: TokenId!
  "When the list last changed, in Unix seconds."
  updatedAt: BigInt!
  "The account the list speaks for: whose follows these are."
  user: Address
}

"Picks an EFP list."
input EfpListByInput {
  "The list NFT's token id."
  tokenId: TokenId!
}

"One record of an EFP list: usually an account the list follows, with its tags."
type EfpListRecord {
  "The account the record points at."
  account: Account!
  "The contract storing the record, by chain and address."
  contract: AccountId!
  "When the record was added, in Unix seconds."
  createdAt: BigInt!
  "The record's id."
  id: ID!
  "The list the record belongs to, when its storage slot is claimed by one."
  list: EfpList
  "The whole record, as bytes."
  record: Hex!
  "The record's payload: the address it points at."
  recordData: Address!
  "The record's type (1 is an address)."
  recordType: Int!
  "The storage slot the record is kept under."
  slot: Hex!
  "The record's tags (e.g. close-friend, block, mute)."
  tags: [String!]!
}

type EfpListRecordsConnection {
  edges: [EfpListRecordsConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type EfpListRecordsConnectionEdge {
  cursor: String!
  node: EfpListRecord!
}

"Which EFP list records to list; the filters given all apply."
input EfpListRecordsWhereInput {
  "Only records pointing at this address."
  recordData: Address
  "Only records of this type."
  recordType: Int
}

"Where an EFP list keeps its records: a contract and a slot in it."
type EfpListStorageLocation {
  "The records contract."
  address: Address!
  "The chain of that contract."
  chainId: ChainId!
  "The slot within it."
  slot: Hex!
}

"Which EFP lists to list; the filters given all apply."
input EfpListsWhereInput {
  "Only lists with this manager."
  manager: Address
  "Only lists with this owner."
  owner: Address
  "Only lists with this user."
  user: Address
}

"Ethereum Follow Protocol, from the top."
type EfpQuery {
  "One list, by its token id."
  list(by: EfpListByInput!): EfpList
  "Records across every list."
  listRecords(after: String, before: String, first: Int, last: Int, where: EfpListRecordsWhereInput): EfpQueryListRecordsConnection
  "Lists."
  lists(after: String, before: String, first: Int, last: Int, where: EfpListsWhereInput): EfpQueryListsConnection
}

type EfpQueryListRecordsConnection {
  edges: [EfpQueryListRecordsConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type EfpQueryListRecordsConnectionEdge {
  cursor: String!
  node: EfpListRecord!
}

type EfpQueryListsConnection {
  edges: [EfpQueryListsConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type EfpQueryListsConnectionEdge {
  cursor: String!
  node: EfpList!
}
`;
