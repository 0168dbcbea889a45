export const PERMISSIONS_SDL = /* GraphQL */ `
type AccountPermissionsConnection {
  edges: [AccountPermissionsConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type AccountPermissionsConnectionEdge {
  cursor: String!
  node: PermissionsUser!
}

"Which of an account's roles to list."
input AccountPermissionsWhereInput {
  "Only roles in this contract."
  contract: AccountIdInput
}

type AccountRegistryPermissionsConnection {
  edges: [AccountRegistryPermissionsConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type AccountRegistryPermissionsConnectionEdge {
  cursor: String!
  node: RegistryPermissionsUser!
}

type AccountResolverPermissionsConnection {
  edges: [AccountResolverPermissionsConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type AccountResolverPermissionsConnectionEdge {
  cursor: String!
  node: ResolverPermissionsUser!
}

"Matches the account holding roles: give exactly one of these."
input DomainPermissionsUserFilter @oneOf {
  "This address."
  eq: Address
  "Any of these addresses."
  in: [Address!]
}

"Which roles on a domain to list."
input DomainPermissionsWhereInput {
  "Only the roles of these accounts."
  user: DomainPermissionsUserFilter
}

type ENSv2DomainPermissionsConnection {
  edges: [ENSv2DomainPermissionsConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type ENSv2DomainPermissionsConnectionEdge {
  cursor: String!
  node: PermissionsUser!
}

"""
The roles granted within one ENSv2 contract (a registry or a resolver). Roles are held per resource: a number the
contract gives each thing it guards (0 is the contract as a whole).
"""
type Permissions {
  "The contract, by chain and address."
  contract: AccountId!
  "The contract's role changes, oldest first."
  events(after: String, before: String, first: Int, last: Int, where: EventsWhereInput): PermissionsEventsConnection
  "The id of these permissions (see PermissionsId)."
  id: PermissionsId!
  "The resources that have accounts holding roles."
  resources(after: String, before: String, first: Int, last: Int): PermissionsResourcesConnection
  "Resource 0: the roles over the whole contract."
  root: PermissionsResource!
}

type PermissionsEventsConnection {
  edges: [PermissionsEventsConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type PermissionsEventsConnectionEdge {
  cursor: String!
  node: Event!
}

"Picks a contract's permissions: give exactly one of these."
input PermissionsIdInput @oneOf {
  "The contract, by chain and address."
  contract: AccountIdInput
  "The permissions' id."
  id: PermissionsId
}

"One resource of a contract and the accounts holding roles on it."
type PermissionsResource {
  "The contract, by chain and address."
  contract: AccountId!
  "The resource's id (see PermissionsResourceId)."
  id: PermissionsResourceId!
  "The contract's permissions this resource belongs to."
  permissions: Permissions!
  "The resource's number within the contract."
  resource: BigInt!
  "The accounts holding roles on this resource."
  users(after: String, before: String, first: Int, last: Int): PermissionsResourceUsersConnection
}

type PermissionsResourceUsersConnection {
  edges: [PermissionsResourceUsersConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type PermissionsResourceUsersConnectionEdge {
  cursor: String!
  node: PermissionsUser!
}

type PermissionsResourcesConnection {
  edges: [PermissionsResourcesConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type PermissionsResourcesConnectionEdge {
  cursor: String!
  node: PermissionsResource!
}

"The roles one account holds on one resource of a contract."
type PermissionsUser {
  "The contract, by chain and address."
  contract: AccountId!
  "The changes to this account's roles on this resource, oldest first."
  events(after: String, before: String, first: Int, last: Int, where: EventsWhereInput): PermissionsUserEventsConnection
  "This entry's id (see PermissionsUserId)."
  id: PermissionsUserId!
  "The resource's number within the contract."
  resource: BigInt!
  "The roles held, as the contract's bitmap of them."
  roles: BigInt!
  "The account holding the roles."
  user: Account!
}

type PermissionsUserEventsConnection {
  edges: [PermissionsUserEventsConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type PermissionsUserEventsConnectionEdge {
  cursor: String!
  node: Event!
}

"The roles one account holds on one resource of a registry."
type RegistryPermissionsUser {
  "This entry's id (see PermissionsUserId)."
  id: PermissionsUserId!
  "The registry."
  registry: Registry!
  "The resource's number within the registry."
  resource: BigInt!
  "The roles held, as the registry's bitmap of them."
  roles: BigInt!
  "The account holding the roles."
  user: Account!
}

"The roles one account holds on one resource of a resolver."
type ResolverPermissionsUser {
  "This entry's id (see PermissionsUserId)."
  id: PermissionsUserId!
  "The resolver."
  resolver: Resolver!
  "The resource's number within the resolver."
  resource: BigInt!
  "The roles held, as the resolver's bitmap of them."
  roles: BigInt!
  "The account holding the roles."
  user: Account!
}
`;
