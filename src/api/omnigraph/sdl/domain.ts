export const DOMAIN_SDL = /* GraphQL */ `
type CanonicalName {
  beautified: BeautifiedName!
  interpreted: InterpretedName!
}

interface Domain {
  canonical: DomainCanonical
  events(after: String, before: String, first: Int, last: Int, where: EventsWhereInput): DomainEventsConnection
  id: DomainId!
  label: Label!
  owner: Account
  parent: Domain
  registration: Registration
  registrations(after: String, before: String, first: Int, last: Int): DomainRegistrationsConnection
  registry: Registry!
  resolve(accelerate: Boolean = true): ForwardResolve!
  resolver: DomainResolver!
  subdomains(after: String, before: String, first: Int, last: Int, order: DomainsOrderInput, where: SubdomainsWhereInput): DomainSubdomainsConnection
  subregistry: Registry
}

type DomainCanonical {
  depth: Int!
  name: CanonicalName!
  node: Node!
  path: [Domain!]!
}

type DomainEventsConnection {
  edges: [DomainEventsConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type DomainEventsConnectionEdge {
  cursor: String!
  node: Event!
}

input DomainIdInput @oneOf {
  id: DomainId
  name: InterpretedName
}

type DomainResolver {
  assigned: Resolver
  effective: Resolver
}

type DomainSubdomainsConnection {
  edges: [DomainSubdomainsConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type DomainSubdomainsConnectionEdge {
  cursor: String!
  node: Domain!
}

input DomainsNameFilter @oneOf {
  eq: InterpretedName
  in: [InterpretedName!]
  starts_with: String
}

enum DomainsOrderBy {
  DEPTH
  NAME
  REGISTRATION_EXPIRY
  REGISTRATION_TIMESTAMP
}

input DomainsOrderInput {
  by: DomainsOrderBy!
  dir: OrderDirection = ASC
}

input DomainsWhereInput {
  name: DomainsNameFilter!
  version: ENSProtocolVersion
}

type ENSv1Domain implements Domain {
  canonical: DomainCanonical
  events(after: String, before: String, first: Int, last: Int, where: EventsWhereInput): DomainEventsConnection
  id: DomainId!
  label: Label!
  node: Node!
  owner: Account
  parent: Domain
  registration: Registration
  registrations(after: String, before: String, first: Int, last: Int): DomainRegistrationsConnection
  registry: Registry!
  resolve(accelerate: Boolean = true): ForwardResolve!
  resolver: DomainResolver!
  rootRegistryOwner: Account
  subdomains(after: String, before: String, first: Int, last: Int, order: DomainsOrderInput, where: SubdomainsWhereInput): DomainSubdomainsConnection
  subregistry: Registry
}

type ENSv2Domain implements Domain {
  canonical: DomainCanonical
  events(after: String, before: String, first: Int, last: Int, where: EventsWhereInput): DomainEventsConnection
  id: DomainId!
  label: Label!
  owner: Account
  parent: Domain
  permissions(after: String, before: String, first: Int, last: Int, where: DomainPermissionsWhereInput): ENSv2DomainPermissionsConnection
  registration: Registration
  registrations(after: String, before: String, first: Int, last: Int): DomainRegistrationsConnection
  registry: Registry!
  resolve(accelerate: Boolean = true): ForwardResolve!
  resolver: DomainResolver!
  subdomains(after: String, before: String, first: Int, last: Int, order: DomainsOrderInput, where: SubdomainsWhereInput): DomainSubdomainsConnection
  subregistry: Registry
  tokenId: BigInt!
}

type Label {
  beautified: BeautifiedLabel!
  hash: Hex!
  interpreted: InterpretedLabel!
}

input SubdomainsWhereInput {
  name: DomainsNameFilter
}

type UnindexedDomain implements Domain {
  canonical: DomainCanonical
  events(after: String, before: String, first: Int, last: Int, where: EventsWhereInput): DomainEventsConnection
  id: DomainId!
  label: Label!
  owner: Account
  parent: Domain
  registration: Registration
  registrations(after: String, before: String, first: Int, last: Int): DomainRegistrationsConnection
  registry: Registry!
  resolve(accelerate: Boolean = true): ForwardResolve!
  resolver: DomainResolver!
  subdomains(after: String, before: String, first: Int, last: Int, order: DomainsOrderInput, where: SubdomainsWhereInput): DomainSubdomainsConnection
  subregistry: Registry
}
`;
