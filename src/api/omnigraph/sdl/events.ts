export const EVENTS_SDL = /* GraphQL */ `
type Event {
  address: Address!
  blockHash: Hex!
  blockNumber: BigInt!
  chainId: ChainId!
  data: Hex!
  from: Address!
  id: ID!
  logIndex: Int!
  sender: Address!
  timestamp: BigInt!
  to: Address
  topics: [Hex!]!
  transactionHash: Hex!
  transactionIndex: Int!
}

input EventsFromFilter @oneOf {
  eq: Address
  in: [Address!]
}

input EventsSelectorFilter @oneOf {
  eq: Hex
  in: [Hex!]
}

input EventsSenderFilter @oneOf {
  eq: Address
  in: [Address!]
}

input EventsTimestampFilter {
  gt: BigInt
  gte: BigInt
  lt: BigInt
  lte: BigInt
}

input EventsWhereInput {
  from: EventsFromFilter
  selector: EventsSelectorFilter
  sender: EventsSenderFilter
  timestamp: EventsTimestampFilter
}
`;
