export const REGISTRY_SDL = /* GraphQL */ `
type ENSv1Registry implements Registry {
  canonical: Boolean!
  contract: AccountId!
  domains(after: String, before: String, first: Int, last: Int, order: DomainsOrderInput, where: RegistryDomainsWhereInput): RegistryDomainsConnection
  id: RegistryId!
  parents(after: String, before: String, first: Int, last: Int): RegistryParentsConnection
  permissions: Permissions
}

type ENSv1VirtualRegistry implements Registry {
  canonical: Boolean!
  contract: AccountId!
  domains(after: String, before: String, first: Int, last: Int, order: DomainsOrderInput, where: RegistryDomainsWhereInput): RegistryDomainsConnection
  id: RegistryId!
  node: Node!
  parents(after: String, before: String, first: Int, last: Int): RegistryParentsConnection
  permissions: Permissions
}

type ENSv2Registry implements Registry {
  canonical: Boolean!
  contract: AccountId!
  domains(after: String, before: String, first: Int, last: Int, order: DomainsOrderInput, where: RegistryDomainsWhereInput): RegistryDomainsConnection
  id: RegistryId!
  parents(after: String, before: String, first: Int, last: Int): RegistryParentsConnection
  permissions: Permissions
}

interface Registry {
  canonical: Boolean!
  contract: AccountId!
  domains(after: String, before: String, first: Int, last: Int, order: DomainsOrderInput, where: RegistryDomainsWhereInput): RegistryDomainsConnection
  id: RegistryId!
  parents(after: String, before: String, first: Int, last: Int): RegistryParentsConnection
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

input RegistryDomainsWhereInput {
  name: DomainsNameFilter
}

input RegistryIdInput @oneOf {
  contract: AccountIdInput
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
