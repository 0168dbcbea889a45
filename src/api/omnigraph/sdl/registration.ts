export const REGISTRATION_SDL = /* GraphQL */ `
type BaseRegistrarRegistration implements Registration {
  baseCost: BigInt
  domain: Domain!
  event: Event!
  expired: Boolean!
  expiry: BigInt
  id: RegistrationId!
  isInGracePeriod: Boolean!
  premium: BigInt
  referrer: Hex
  registrant: Account
  registrar: AccountId!
  renewals(after: String, before: String, first: Int, last: Int): RegistrationRenewalsConnection
  start: BigInt!
  tokenId: BigInt!
  unregistrant: Account
  wrapped: WrappedBaseRegistrarRegistration
}

type DomainRegistrationsConnection {
  edges: [DomainRegistrationsConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type DomainRegistrationsConnectionEdge {
  cursor: String!
  node: Registration!
}

type ENSv2RegistryRegistration implements Registration {
  domain: Domain!
  event: Event!
  expired: Boolean!
  expiry: BigInt
  id: RegistrationId!
  referrer: Hex
  registrant: Account
  registrar: AccountId!
  renewals(after: String, before: String, first: Int, last: Int): RegistrationRenewalsConnection
  start: BigInt!
  unregistrant: Account
}

type ENSv2RegistryReservation implements Registration {
  domain: Domain!
  event: Event!
  expired: Boolean!
  expiry: BigInt
  id: RegistrationId!
  referrer: Hex
  registrant: Account
  registrar: AccountId!
  renewals(after: String, before: String, first: Int, last: Int): RegistrationRenewalsConnection
  start: BigInt!
  unregistrant: Account
}

type NameWrapperRegistration implements Registration {
  domain: Domain!
  event: Event!
  expired: Boolean!
  expiry: BigInt
  fuses: Int!
  id: RegistrationId!
  referrer: Hex
  registrant: Account
  registrar: AccountId!
  renewals(after: String, before: String, first: Int, last: Int): RegistrationRenewalsConnection
  start: BigInt!
  unregistrant: Account
}

interface Registration {
  domain: Domain!
  event: Event!
  expired: Boolean!
  expiry: BigInt
  id: RegistrationId!
  referrer: Hex
  registrant: Account
  registrar: AccountId!
  renewals(after: String, before: String, first: Int, last: Int): RegistrationRenewalsConnection
  start: BigInt!
  unregistrant: Account
}

type RegistrationRenewalsConnection {
  edges: [RegistrationRenewalsConnectionEdge!]!
  pageInfo: PageInfo!
  totalCount: Int!
}

type RegistrationRenewalsConnectionEdge {
  cursor: String!
  node: Renewal!
}

type Renewal {
  base: BigInt
  duration: BigInt!
  event: Event!
  id: RenewalId!
  premium: BigInt
  referrer: Hex
}

type ThreeDNSRegistration implements Registration {
  domain: Domain!
  event: Event!
  expired: Boolean!
  expiry: BigInt
  id: RegistrationId!
  referrer: Hex
  registrant: Account
  registrar: AccountId!
  renewals(after: String, before: String, first: Int, last: Int): RegistrationRenewalsConnection
  start: BigInt!
  unregistrant: Account
}

type WrappedBaseRegistrarRegistration {
  fuses: Int!
  tokenId: BigInt!
}
`;
