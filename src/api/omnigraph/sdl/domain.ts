export const DOMAIN_SDL = /* GraphQL */ `
"A name written two ways: as the index knows it, and made for display."
type CanonicalName {
  "For display: normalized labels with emoji in their fully-qualified forms."
  beautified: BeautifiedName!
  "As the index knows it: normalized labels, [labelhash] for each label that is unknown or not normalized."
  interpreted: InterpretedName!
}

"""
A name in some registry: an ENSv1 domain, an ENSv2 domain, or one the index holds no record of. The fields of an
implementation not listed here are on its own type.
"""
interface Domain {
  "Where the domain sits in the tree that resolution walks from the root; null when it is not reachable from there."
  canonical: DomainCanonical
  "The onchain events about this domain, oldest first."
  events(after: String, before: String, first: Int, last: Int, where: EventsWhereInput): DomainEventsConnection
  "The domain's id (see DomainId)."
  id: DomainId!
  "The domain's own label (its first one), as text and as its hash."
  label: Label!
  "Who controls the domain: its owner in the registry, or the holder of its token where a wrapper or ENSv2 issues one."
  owner: Account
  "The domain one level up; null for a top-level domain."
  parent: Domain
  "The domain's current registration, if it has one."
  registration: Registration
  "The domain's registrations: ENSv1 keeps the current one only, ENSv2 every one, newest first."
  registrations(after: String, before: String, first: Int, last: Int): DomainRegistrationsConnection
  "The registry that holds this domain."
  registry: Registry!
  "Forward resolution of the domain's name: its records and the profile they make."
  resolve(
    "Answer from the index where it can (faster), instead of calling the resolvers on chain."
    accelerate: Boolean = true
  ): ForwardResolve!
  "The resolver the domain names, and the one resolution would use."
  resolver: DomainResolver!
  "The domains one level below this one."
  subdomains(after: String, before: String, first: Int, last: Int, order: DomainsOrderInput, where: SubdomainsWhereInput): DomainSubdomainsConnection
  "The registry that holds this domain's subdomains, if it names one."
  subregistry: Registry
}

"A domain's place in the tree that resolution walks from the root."
type DomainCanonical {
  "How many labels the name has (2 for name.eth)."
  depth: Int!
  "The domain's full name."
  name: CanonicalName!
  "The namehash of that name."
  node: Node!
  "The domains from the top-level one down to this one, this one included."
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

"Picks one domain: give exactly one of these."
input DomainIdInput @oneOf {
  "The domain's id."
  id: DomainId
  "The domain's name, e.g. name.eth."
  name: InterpretedName
}

"A domain's resolver, two ways."
type DomainResolver {
  "The resolver set for this very domain in its registry, if any."
  assigned: Resolver
  "The resolver resolution would use: this domain's, or the nearest ancestor's (ENSIP-10 wildcard). Null when there is none."
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

"Matches domains by name: give exactly one of these."
input DomainsNameFilter @oneOf {
  "This name exactly."
  eq: InterpretedName
  "Any of these names."
  in: [InterpretedName!]
  "Names that begin with this text."
  starts_with: String
}

"What a list of domains is sorted by; ties are broken by id."
enum DomainsOrderBy {
  "The number of labels in the name."
  DEPTH
  "The name, as text."
  NAME
  "When the current registration ends; domains without one come last ascending, first descending."
  REGISTRATION_EXPIRY
  "When the current registration began; domains without one come last ascending, first descending."
  REGISTRATION_TIMESTAMP
}

"How to sort a list of domains."
input DomainsOrderInput {
  "The key to sort by."
  by: DomainsOrderBy!
  "Ascending unless told otherwise."
  dir: OrderDirection = ASC
}

"Which domains Query.domains lists."
input DomainsWhereInput {
  "The names to match."
  name: DomainsNameFilter!
  "Only domains of this ENS version; both when left out."
  version: ENSProtocolVersion
}

"A domain of the ENSv1 contracts: the ENS registry (or a chain's shadow registry), its registrars and the Name Wrapper."
type ENSv1Domain implements Domain {
  canonical: DomainCanonical
  events(after: String, before: String, first: Int, last: Int, where: EventsWhereInput): DomainEventsConnection
  id: DomainId!
  label: Label!
  "The domain's namehash, which is also its key in the ENSv1 registry."
  node: Node!
  owner: Account
  parent: Domain
  registration: Registration
  registrations(after: String, before: String, first: Int, last: Int): DomainRegistrationsConnection
  registry: Registry!
  resolve(accelerate: Boolean = true): ForwardResolve!
  resolver: DomainResolver!
  "The owner recorded in the ENSv1 registry itself (for a wrapped name, the Name Wrapper contract)."
  rootRegistryOwner: Account
  subdomains(after: String, before: String, first: Int, last: Int, order: DomainsOrderInput, where: SubdomainsWhereInput): DomainSubdomainsConnection
  subregistry: Registry
}

"A domain of the ENSv2 contracts: a label in an ENSv2 registry, held as an ERC-1155 token."
type ENSv2Domain implements Domain {
  canonical: DomainCanonical
  events(after: String, before: String, first: Int, last: Int, where: EventsWhereInput): DomainEventsConnection
  id: DomainId!
  label: Label!
  owner: Account
  parent: Domain
  "The accounts holding roles on this domain in its registry."
  permissions(after: String, before: String, first: Int, last: Int, where: DomainPermissionsWhereInput): ENSv2DomainPermissionsConnection
  registration: Registration
  registrations(after: String, before: String, first: Int, last: Int): DomainRegistrationsConnection
  registry: Registry!
  resolve(accelerate: Boolean = true): ForwardResolve!
  resolver: DomainResolver!
  subdomains(after: String, before: String, first: Int, last: Int, order: DomainsOrderInput, where: SubdomainsWhereInput): DomainSubdomainsConnection
  subregistry: Registry
  "The ERC-1155 token id the registry issued for the domain."
  tokenId: BigInt!
}

"A single label of a name."
type Label {
  "For display: normalized, emoji in their fully-qualified forms."
  beautified: BeautifiedLabel!
  "The label's keccak-256 hash (its labelhash), which the contracts store instead of the text."
  hash: Hex!
  "As the index knows it: the normalized label, or [labelhash] when unknown or not normalized."
  interpreted: InterpretedLabel!
}

"Which subdomains to list."
input SubdomainsWhereInput {
  "Only subdomains whose full name matches."
  name: DomainsNameFilter
}

"""
A name the index holds no domain of, which resolution reaches anyway: the nearest ancestor with a resolver has an
ENSIP-10 extended one (a wildcard or offchain resolver). Only Query.domain(by: { name }) returns one; it has no owner,
registration, subdomains or events.
"""
type UnindexedDomain implements Domain {
  canonical: DomainCanonical
  events(after: String, before: String, first: Int, last: Int, where: EventsWhereInput): DomainEventsConnection
  "unindexed-<registry id>-<node>: the registry holding the ancestor with the wildcard resolver, and this name's node."
  id: DomainId!
  label: Label!
  owner: Account
  "The domain the registry holding the wildcard's ancestor belongs to (that ancestor's parent)."
  parent: Domain
  registration: Registration
  registrations(after: String, before: String, first: Int, last: Int): DomainRegistrationsConnection
  "The registry holding the ancestor whose wildcard resolver answers for this name."
  registry: Registry!
  resolve(accelerate: Boolean = true): ForwardResolve!
  "No resolver of its own (assigned is null); effective is the ancestor's wildcard resolver."
  resolver: DomainResolver!
  subdomains(after: String, before: String, first: Int, last: Int, order: DomainsOrderInput, where: SubdomainsWhereInput): DomainSubdomainsConnection
  subregistry: Registry
}
`;
