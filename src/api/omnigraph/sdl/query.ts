export const QUERY_SDL = /* GraphQL */ `
"The chains ENS names live on, by name: a way to ask for a primary name without knowing the chain's coin type."
enum ChainName {
  "Arbitrum One (chain 42161)."
  ARBITRUM_ONE
  "Base (chain 8453)."
  BASE
  "Ethereum mainnet (chain 1), where the ENS root lives."
  ETHEREUM
  "Linea (chain 59144)."
  LINEA
  "OP Mainnet (chain 10)."
  OPTIMISM
  "Scroll (chain 534352)."
  SCROLL
}

"Which generation of the ENS contracts a domain or registry belongs to."
enum ENSProtocolVersion {
  "The original ENS registry, its registrars and the Name Wrapper."
  ENSv1
  "The ENSv2 contracts: a registry per name, names as ERC-1155 tokens."
  ENSv2
}

"Which way a list is sorted."
enum OrderDirection {
  "Smallest first (A to Z, oldest first)."
  ASC
  "Largest first (Z to A, newest first)."
  DESC
}

"Where a page sits in its list: the cursors at its two ends, and whether the list goes on either side."
type PageInfo {
  "The last item's cursor: pass it as \`after\` for the next page. Null on an empty page."
  endCursor: String
  "Whether items follow this page."
  hasNextPage: Boolean!
  "Whether items precede this page."
  hasPreviousPage: Boolean!
  "The first item's cursor: pass it as \`before\` for the previous page. Null on an empty page."
  startCursor: String
}

"Where every question to the Omnigraph starts."
type Query {
  "An address, seen as an ENS account: the names it owns and the names it calls its own. Any address answers, even one the index never saw."
  account(by: AccountByInput!): Account
  "One domain, by its id or by its name. Null when the index does not have it."
  domain(by: DomainIdInput!): Domain
  "Domains found by name (exactly, from a list, or by prefix), across every indexed registry."
  domains(after: String, before: String, first: Int, last: Int, order: DomainsOrderInput, where: DomainsWhereInput!): QueryDomainsConnection
  "Ethereum Follow Protocol lists and records (not indexed here: always null)."
  efp: EfpQuery
  "The roles granted within one ENSv2 contract, by the contract or by its permissions id."
  permissions(by: PermissionsIdInput!): Permissions
  "One registry contract, by chain and address or by its id."
  registry(by: RegistryIdInput!): Registry
  "One resolver contract, by chain and address or by its id."
  resolver(by: ResolverIdInput!): Resolver
  "The registry at the top of the name tree: ENSv2's root registry when the index has ENSv2, else the ENS registry on the root chain."
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
