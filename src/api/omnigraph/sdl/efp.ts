export const EFP_SDL = /* GraphQL */ `
type AccountEfp {
  followers(after: String, before: String, first: Int, last: Int): AccountEfpFollowersConnection
  following(after: String, before: String, first: Int, last: Int): AccountEfpFollowingConnection
  lists(after: String, before: String, first: Int, last: Int): AccountEfpListsConnection
  metadata(key: String!): EfpAccountMetadata
  metadatas(after: String, before: String, first: Int, last: Int): AccountEfpMetadatasConnection
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

type EfpAccountMetadata {
  address: Address!
  contract: AccountId!
  createdAt: BigInt!
  id: ID!
  key: String!
  updatedAt: BigInt!
  value: Hex!
}

type EfpList {
  createdAt: BigInt!
  manager: Address
  nft: AccountId!
  owner: Address!
  records(after: String, before: String, first: Int, last: Int): EfpListRecordsConnection
  storageLocation: EfpListStorageLocation
  tokenId: TokenId!
  updatedAt: BigInt!
  user: Address
}

input EfpListByInput {
  tokenId: TokenId!
}

type EfpListRecord {
  account: Account!
  contract: AccountId!
  createdAt: BigInt!
  id: ID!
  list: EfpList
  record: Hex!
  recordData: Address!
  recordType: Int!
  slot: Hex!
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

input EfpListRecordsWhereInput {
  recordData: Address
  recordType: Int
}

type EfpListStorageLocation {
  address: Address!
  chainId: ChainId!
  slot: Hex!
}

input EfpListsWhereInput {
  manager: Address
  owner: Address
  user: Address
}

type EfpQuery {
  list(by: EfpListByInput!): EfpList
  listRecords(after: String, before: String, first: Int, last: Int, where: EfpListRecordsWhereInput): EfpQueryListRecordsConnection
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
