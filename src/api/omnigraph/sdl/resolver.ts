export const RESOLVER_SDL = /* GraphQL */ `
"Picks a name: give exactly one of these."
input NameOrNodeInput @oneOf {
  "The name, e.g. name.eth."
  name: InterpretedName
  "Its namehash."
  node: Node
}

"A resolver contract: it answers a name's records (addresses, texts, contenthash...)."
type Resolver {
  "For a resolver that hands resolution over to another chain's registry, that registry (not indexed here: null)."
  bridged: Registry
  "The contract, by chain and address."
  contract: AccountId!
  "The onchain events the resolver emitted (not indexed here: always empty)."
  events(after: String, before: String, first: Int, last: Int, where: EventsWhereInput): ResolverEventsConnection
  "Whether the resolver supports ENSIP-10 wildcard resolution (IExtendedResolver)."
  extended: Boolean!
  "The resolver's id (see ResolverId)."
  id: ResolverId!
  "The roles granted in this resolver (ENSv2's permissioned resolvers; else null)."
  permissions: Permissions
  "The sets of records this resolver holds, one per name."
  records(after: String, before: String, first: Int, last: Int): ResolverRecordsConnection
  "The records this resolver holds for one name."
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

"Picks one resolver: give exactly one of these."
input ResolverIdInput @oneOf {
  "The resolver contract, by chain and address."
  contract: AccountIdInput
  "The resolver's id."
  id: ResolverId
}

"What one resolver holds for one name: which records are set (their values come from Domain.resolve)."
type ResolverRecords {
  "The coin types that have an address record."
  coinTypes: [CoinType!]!
  "The id of this set of records (see ResolverRecordsId)."
  id: ResolverRecordsId!
  "The keys that have a text record."
  keys: [String!]!
  "The name record (the reverse record of a reverse node), if set."
  name: String
  "The namehash these records are for."
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
