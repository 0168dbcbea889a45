export const RESOLVER_SDL = /* GraphQL */ `
input NameOrNodeInput @oneOf {
  name: InterpretedName
  node: Node
}

type Resolver {
  bridged: Registry
  contract: AccountId!
  events(after: String, before: String, first: Int, last: Int, where: EventsWhereInput): ResolverEventsConnection
  extended: Boolean!
  id: ResolverId!
  permissions: Permissions
  records(after: String, before: String, first: Int, last: Int): ResolverRecordsConnection
  records_(by: NameOrNodeInput!): ResolverRecords
}

type ResolverEventsConnection {
  edges: [ResolverEventsConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type ResolverEventsConnectionEdge {
  cursor: String!
  node: Event!
}

input ResolverIdInput @oneOf {
  contract: AccountIdInput
  id: ResolverId
}

type ResolverRecords {
  coinTypes: [CoinType!]!
  id: ResolverRecordsId!
  keys: [String!]!
  name: String
  node: Node!
}

type ResolverRecordsConnection {
  edges: [ResolverRecordsConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type ResolverRecordsConnectionEdge {
  cursor: String!
  node: ResolverRecords!
}
`;
