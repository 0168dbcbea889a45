export const REGISTRY_SDL = /* GraphQL */ `
"An ENSv1 registry contract: the ENS registry on the root chain, or a chain's shadow registry (Basenames, Lineanames)."
type ENSv1Registry implements Registry {
  canonical: Boolean!
  contract: AccountId!
  domains(after: String, before: String, first: Int, last: Int, order: DomainsOrderInput, where: RegistryDomainsWhereInput): RegistryDomainsConnection
  id: RegistryId!
  parents(after: String, before: String, first: Int, last: Int): RegistryParentsConnection
  permissions: Permissions
}

"""
The subdomains of one ENSv1 domain, seen as a registry of their own: ENSv1 keeps every name in one contract, ENSv2 gives
each name a registry, and this lets both be walked the same way.
"""
type ENSv1VirtualRegistry implements Registry {
  canonical: Boolean!
  contract: AccountId!
  domains(after: String, before: String, first: Int, last: Int, order: DomainsOrderInput, where: RegistryDomainsWhereInput): RegistryDomainsConnection
  id: RegistryId!
  "The namehash of the domain whose subdomains this registry holds."
  node: Node!
  parents(after: String, before: String, first: Int, last: Int): RegistryParentsConnection
  permissions: Permissions
}

"An ENSv2 registry contract: it holds the labels directly below one name (or the top-level ones, for the root)."
type ENSv2Registry implements Registry {
  canonical: Boolean!
  contract: AccountId!
  domains(after: String, before: String, first: Int, last: Int, order: DomainsOrderInput, where: RegistryDomainsWhereInput): RegistryDomainsConnection
  id: RegistryId!
  parents(after: String, before: String, first: Int, last: Int): RegistryParentsConnection
  permissions: Permissions
}

"A registry: where a set of domains are recorded. ENSv1 registries, ENSv1 virtual registries and ENSv2 registries are its kinds."
interface Registry {
  "Whether resolution from the root reaches this registry."
  canonical: Boolean!
  "The contract, by chain and address (a virtual registry answers the contract that really holds its names)."
  contract: AccountId!
  "The domains this registry holds."
  domains(after: String, before: String, first: Int, last: Int, order: DomainsOrderInput, where: RegistryDomainsWhereInput): RegistryDomainsConnection
  "The registry's id (see RegistryId)."
  id: RegistryId!
  "The domains that name this registry as their subregistry."
  parents(after: String, before: String, first: Int, last: Int): RegistryParentsConnection
  "The roles granted in this registry (ENSv2 only; null for ENSv1, which has no roles)."
  permissions: Permissions
}

type RegistryDomainsConnection {
  edges: [RegistryDomainsConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type RegistryDomainsConnectionEdge {
  cursor: String!
  node: Domain!
}

"Which of a registry's domains to list."
input RegistryDomainsWhereInput {
  "Only domains whose name matches."
  name: DomainsNameFilter
}

"Picks one registry: give exactly one of these."
input RegistryIdInput @oneOf {
  "The registry contract, by chain and address."
  contract: AccountIdInput
  "The registry's id."
  id: RegistryId
}

type RegistryParentsConnection {
  edges: [RegistryParentsConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type RegistryParentsConnectionEdge {
  cursor: String!
  node: Domain!
}
`;
