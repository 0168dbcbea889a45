export const ACCOUNT_SDL = /* GraphQL */ `
"An address, seen as an ENS account: what it owns, what it may do, and the names it calls its own."
type Account {
  "The account's address."
  address: Address!
  "The domains the account owns, in every registry (and as tokens, where names are tokens)."
  domains(after: String, before: String, first: Int, last: Int, order: DomainsOrderInput, where: AccountDomainsWhereInput): AccountDomainsConnection
  "The account's Ethereum Follow Protocol presence (not indexed here: always null)."
  efp: AccountEfp
  "The onchain events the account sent (not indexed by sender here: always empty)."
  events(after: String, before: String, first: Int, last: Int, where: AccountEventsWhereInput): AccountEventsConnection
  "The account's address again, as its id."
  id: Address!
  "The names whose current address record points at this account: the record their current resolver holds for them, under its current record version, for an EVM coin type (60, the default EVM type or a chain's). One entry per name and coin type, in a stable order."
  nameReferences(after: String, before: String, first: Int, last: Int, where: AccountNameReferencesWhereInput): AccountNameReferencesConnection
  "The roles the account holds in ENSv2 contracts, one entry per contract and resource."
  permissions(after: String, before: String, first: Int, last: Int, where: AccountPermissionsWhereInput): AccountPermissionsConnection
  "The roles the account holds in registries."
  registryPermissions(after: String, before: String, first: Int, last: Int): AccountRegistryPermissionsConnection
  "Reverse resolution: the names the account has set as its primary name, chain by chain."
  resolve(
    "Answer from the index where it can (faster), instead of calling the contracts on chain."
    accelerate: Boolean = true
  ): ReverseResolve!
  "The roles the account holds in resolvers."
  resolverPermissions(after: String, before: String, first: Int, last: Int): AccountResolverPermissionsConnection
}

"Picks an account: give exactly one of these (both are its address)."
input AccountByInput @oneOf {
  "The account's address."
  address: Address
  "The account's id, which is its address."
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

"Which of an account's domains to list."
input AccountDomainsWhereInput {
  "true: only domains reachable from the root; false: only those that are not; left out: both."
  canonical: Boolean
  "Only domains whose name matches."
  name: DomainsNameFilter
  "Only domains of this ENS version; both when left out."
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

"Which of an account's events to list."
input AccountEventsWhereInput {
  "Only events of transactions sent from these addresses."
  from: EventsFromFilter
  "Only events with these signatures (topic 0)."
  selector: EventsSelectorFilter
  "Only events within this time range."
  timestamp: EventsTimestampFilter
}

"A contract (or any account) on a given chain."
type AccountId {
  "The address on that chain."
  address: Address!
  "The chain."
  chainId: ChainId!
}

"A contract (or any account) on a given chain."
input AccountIdInput {
  "The address on that chain."
  address: Address!
  "The chain."
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

"Which name references to list."
input AccountNameReferencesWhereInput {
  "Only address records of this coin type."
  coinType: CoinType
}

"A name whose address record (for some coin type) points at an account."
type NameReference {
  "The coin type of the address record."
  coinType: CoinType!
  "The domain that holds the record."
  domain: Domain!
  "Whether this name is also the account's primary name for that coin type (reverse resolution, which checks the forward record)."
  match: Boolean!
  "The name's current resolver, which holds the record."
  resolver: Resolver!
}
`;
