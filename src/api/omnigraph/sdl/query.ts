export const QUERY_SDL = /* GraphQL */ `
enum ChainName {
  ARBITRUM_ONE
  BASE
  ETHEREUM
  LINEA
  OPTIMISM
  SCROLL
}

enum ENSProtocolVersion {
  ENSv1
  ENSv2
}

enum OrderDirection {
  ASC
  DESC
}

type PageInfo {
  endCursor: String
  hasNextPage: Boolean!
  hasPreviousPage: Boolean!
  startCursor: String
}

type Query {
  account(by: AccountByInput!): Account
  domain(by: DomainIdInput!): Domain
  domains(after: String, before: String, first: Int, last: Int, order: DomainsOrderInput, where: DomainsWhereInput!): QueryDomainsConnection
  efp: EfpQuery
  permissions(by: PermissionsIdInput!): Permissions
  registry(by: RegistryIdInput!): Registry
  resolver(by: ResolverIdInput!): Resolver
  root: Registry!
}

type QueryDomainsConnection {
  edges: [QueryDomainsConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type QueryDomainsConnectionEdge {
  cursor: String!
  node: Domain!
}
`;
