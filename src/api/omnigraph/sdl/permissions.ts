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

input AccountPermissionsWhereInput {
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

input DomainPermissionsUserFilter @oneOf {
  eq: Address
  in: [Address!]
}

input DomainPermissionsWhereInput {
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

type Permissions {
  contract: AccountId!
  events(after: String, before: String, first: Int, last: Int, where: EventsWhereInput): PermissionsEventsConnection
  id: PermissionsId!
  resources(after: String, before: String, first: Int, last: Int): PermissionsResourcesConnection
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

input PermissionsIdInput @oneOf {
  contract: AccountIdInput
  id: PermissionsId
}

type PermissionsResource {
  contract: AccountId!
  id: PermissionsResourceId!
  permissions: Permissions!
  resource: BigInt!
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

type PermissionsUser {
  contract: AccountId!
  events(after: String, before: String, first: Int, last: Int, where: EventsWhereInput): PermissionsUserEventsConnection
  id: PermissionsUserId!
  resource: BigInt!
  roles: BigInt!
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

type RegistryPermissionsUser {
  id: PermissionsUserId!
  registry: Registry!
  resource: BigInt!
  roles: BigInt!
  user: Account!
}

type ResolverPermissionsUser {
  id: PermissionsUserId!
  resolver: Resolver!
  resource: BigInt!
  roles: BigInt!
  user: Account!
}
`;
