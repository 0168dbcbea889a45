export const EVENTS_SDL = /* GraphQL */ `
"One log an ENS contract emitted, with the block and transaction it came in."
type Event {
  "The contract that emitted the log."
  address: Address!
  "The hash of the block."
  blockHash: Hex!
  "The number of the block."
  blockNumber: BigInt!
  "The chain."
  chainId: ChainId!
  "The log's data (its non-indexed arguments, ABI-encoded)."
  data: Hex!
  "The account that sent the transaction."
  from: Address!
  "The event's id: chain, block and log position."
  id: ID!
  "The log's position within its block."
  logIndex: Int!
  "The account on whose behalf the transaction acted (a smart account's address where one was used, else from)."
  sender: Address!
  "The block's time, in Unix seconds."
  timestamp: BigInt!
  "The transaction's recipient; null for a contract creation."
  to: Address
  "The log's topics: its signature hash, then its indexed arguments."
  topics: [Hex!]!
  "The hash of the transaction."
  transactionHash: Hex!
  "The transaction's position within its block."
  transactionIndex: Int!
}

"Matches a transaction's sender: give exactly one of these."
input EventsFromFilter @oneOf {
  "This address."
  eq: Address
  "Any of these addresses."
  in: [Address!]
}

"Matches an event's signature hash (topic 0): give exactly one of these."
input EventsSelectorFilter @oneOf {
  "This signature hash."
  eq: Hex
  "Any of these signature hashes."
  in: [Hex!]
}

"Matches an event's sender (see Event.sender): give exactly one of these."
input EventsSenderFilter @oneOf {
  "This address."
  eq: Address
  "Any of these addresses."
  in: [Address!]
}

"A time range, in Unix seconds; the bounds given all apply."
input EventsTimestampFilter {
  "After this time."
  gt: BigInt
  "At or after this time."
  gte: BigInt
  "Before this time."
  lt: BigInt
  "At or before this time."
  lte: BigInt
}

"Which events to list; the filters given all apply."
input EventsWhereInput {
  "Only events of transactions sent from these addresses."
  from: EventsFromFilter
  "Only events with these signatures."
  selector: EventsSelectorFilter
  "Only events with these senders."
  sender: EventsSenderFilter
  "Only events within this time range."
  timestamp: EventsTimestampFilter
}
`;
