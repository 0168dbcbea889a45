export const REGISTRATION_SDL = /* GraphQL */ `
"A registration of a second-level name with a BaseRegistrar (.eth on the root chain, and the L2 registrars built like it)."
type BaseRegistrarRegistration implements Registration {
  "The price paid without the premium, in wei, as the registrar controller published it; null where no controller did (a registration made on the base registrar directly)."
  baseCost: BigInt
  domain: Domain!
  event: Event!
  expired: Boolean!
  expiry: BigInt
  id: RegistrationId!
  "Whether the registration has ended but its registrant may still renew it (the grace period)."
  isInGracePeriod: Boolean!
  "The premium paid for a recently expired name, in wei, as the registrar controller published it; null where no controller did."
  premium: BigInt
  referrer: Hex
  registrant: Account
  registrar: AccountId!
  renewals(after: String, before: String, first: Int, last: Int): RegistrationRenewalsConnection
  start: BigInt!
  "The registrar's ERC-721 token id for the name: its labelhash as a number."
  tokenId: BigInt!
  unregistrant: Account
  "The Name Wrapper's wrapping of this name, if it is wrapped."
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

"A registration of a label in an ENSv2 registry."
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

"A reservation of a label in an ENSv2 registry: held for someone, without a token owner yet."
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

"A name held through the Name Wrapper that no BaseRegistrar registers (a wrapped subname): expiry and fuses are the wrapper's."
type NameWrapperRegistration implements Registration {
  domain: Domain!
  event: Event!
  expired: Boolean!
  expiry: BigInt
  "The Name Wrapper's fuses burned on the name: a bitmap of the permissions given up."
  fuses: Int!
  id: RegistrationId!
  referrer: Hex
  registrant: Account
  registrar: AccountId!
  renewals(after: String, before: String, first: Int, last: Int): RegistrationRenewalsConnection
  start: BigInt!
  unregistrant: Account
}

"A claim on a domain for a time: who holds it, from when, until when, and through which registrar."
interface Registration {
  "The domain registered."
  domain: Domain!
  "The onchain event that made the registration."
  event: Event!
  "Whether the registration has ended (grace period over, where there is one)."
  expired: Boolean!
  "When the registration ends, in Unix seconds; null if it never does."
  expiry: BigInt
  "The registration's id (see RegistrationId)."
  id: RegistrationId!
  "The referrer data given with the registration (32 bytes, as the registrar's controller emitted it); null where none was given or the registrar keeps none."
  referrer: Hex
  "The account the name was registered to."
  registrant: Account
  "The contract that made the registration, by chain and address."
  registrar: AccountId!
  "The registration's renewals, oldest first: those after it and before the name's next registration."
  renewals(after: String, before: String, first: Int, last: Int): RegistrationRenewalsConnection
  "When the registration began, in Unix seconds."
  start: BigInt!
  "The account that ended the registration early, if one did. Null for ENSv1's registrations: each is a name's current one, which nobody ended (docs/api.md)."
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

"One renewal: a registration made to last longer."
type Renewal {
  "The price paid without premium, in wei; null where no registrar controller published one."
  base: BigInt
  "How long the registration was extended by, in seconds."
  duration: BigInt!
  "The onchain event of the renewal."
  event: Event!
  "The renewal's id (see RenewalId)."
  id: RenewalId!
  "The premium paid, in wei (0 where the registrar charges none on renewals); null where no registrar controller published a price."
  premium: BigInt
  "The referrer data given with the renewal (32 bytes, as the registrar or its controller emitted it); null where none was given."
  referrer: Hex
}

"A registration of a name by 3DNS, the DNS registrar whose names live on chain."
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

"A BaseRegistrar name that is also wrapped by the Name Wrapper."
type WrappedBaseRegistrarRegistration {
  "The Name Wrapper's fuses burned on the name: a bitmap of the permissions given up."
  fuses: Int!
  "The Name Wrapper's ERC-1155 token id for the name: its namehash as a number."
  tokenId: BigInt!
}
`;
