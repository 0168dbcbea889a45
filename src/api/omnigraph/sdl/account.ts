export const ACCOUNT_SDL = /* GraphQL */ `
type Account {
  address: Address!
  domains(after: String, before: String, first: Int, last: Int, order: DomainsOrderInput, where: AccountDomainsWhereInput): AccountDomainsConnection
  efp: AccountEfp
  events(after: String, before: String, first: Int, last: Int, where: AccountEventsWhereInput): AccountEventsConnection
  id: Address!
  nameReferences(after: String, before: String, first: Int, last: Int, where: AccountNameReferencesWhereInput): AccountNameReferencesConnection
  permissions(after: String, before: String, first: Int, last: Int, where: AccountPermissionsWhereInput): AccountPermissionsConnection
  registryPermissions(after: String, before: String, first: Int, last: Int): AccountRegistryPermissionsConnection
  resolve(accelerate: Boolean = true): ReverseResolve!
  resolverPermissions(after: String, before: String, first: Int, last: Int): AccountResolverPermissionsConnection
}

input AccountByInput @oneOf {
  address: Address
  id: Address
}

type AccountDomainsConnection {
  edges: [AccountDomainsConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type AccountDomainsConnectionEdge {
  cursor: String!
  node: Domain!
}

input AccountDomainsWhereInput {
  canonical: Boolean
  name: DomainsNameFilter
  version: ENSProtocolVersion
}

type AccountEventsConnection {
  edges: [AccountEventsConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type AccountEventsConnectionEdge {
  cursor: String!
  node: Event!
}

input AccountEventsWhereInput {
  from: EventsFromFilter
  selector: EventsSelectorFilter
  timestamp: EventsTimestampFilter
}

type AccountId {
  address: Address!
  chainId: ChainId!
}

input AccountIdInput {
  address: Address!
  chainId: ChainId!
}

type AccountNameReferencesConnection {
  edges: [AccountNameReferencesConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type AccountNameReferencesConnectionEdge {
  cursor: String!
  node: NameReference!
}

input AccountNameReferencesWhereInput {
  coinType: CoinType
}

type NameReference {
  coinType: CoinType!
  domain: Domain!
  match: Boolean!
  resolver: Resolver!
}
`;
