import { index, onchainTable, primaryKey } from "ponder";
import { hexBytes } from "./src/lib/hex-bytes-column";
import { NO_REGISTRATION_KEY } from "./src/lib/registration-order";
import { markInsertOnly } from "./src/runtime/ponder-hooks";

/*
 * The ENS subgraph's entities (https://github.com/ensdomains/ens-subgraph/blob/723f1b6abfd4b30a99db0b429a77ebac61ed8b91/schema.graphql), shared by the subgraph, basenames, lineanames and threedns plugins.
 * Ids are text: a namehash, an address, `<address>-<node>` or `<block>-<logIndex>` as in the subgraph for rows of the
 * ENS root chain, with `-<chainId>` appended for rows of other chains (src/lib/ids.ts owns every format).
 * Relations hold the related entity's id, as the subgraph's `owner: "0x…"` filters expect.
 */

export const domain = onchainTable(
  "domain",
  (t) => ({
    id: t.text().primaryKey(),
    name: t.text(),
    labelName: t.text(),
    labelhash: t.hex(),
    parentId: t.text(),
    subdomainCount: t.integer().notNull().default(0),
    resolvedAddressId: t.text(),
    resolverId: t.text(),
    ttl: t.bigint(),
    isMigrated: t.boolean().notNull().default(false),
    createdAt: t.bigint().notNull(),
    ownerId: t.text().notNull(),
    registrantId: t.text(),
    wrappedOwnerId: t.text(),
    expiryDate: t.bigint(),
    /** Not the subgraph's: the Omnigraph's order keys, the current registration's start and expiry (src/lib/registration-order.ts). */
    registrationStartKey: t.bigint().notNull().default(NO_REGISTRATION_KEY),
    registrationExpiryKey: t.bigint().notNull().default(NO_REGISTRATION_KEY),
    /** Not the subgraph's: a 3DNS registration's `RegistrationCreated` event id (3DNS has no `registration` row). */
    registrationEventId: t.text(),
  }),
  (table) => ({
    byName: index().on(table.name),
    // A parent's children by registration date or expiry, a page at a time (the Omnigraph's `subdomains(order:)`).
    byParentRegistrationStart: index().on(table.parentId, table.registrationStartKey, table.id),
    byParentRegistrationExpiry: index().on(table.parentId, table.registrationExpiryKey, table.id),
    // Also the children of a parent newest first (`subdomains(orderBy: createdAt)`) without sorting them all: `eth`
    // has millions on mainnet.
    byParentCreatedAt: index().on(table.parentId, table.createdAt),
    // Also an owner's names in name order (`domains(where: { owner }, orderBy: name)`) without sorting them all: the
    // only bench:scale query whose cost grew with the index (an account owns more names in a larger one).
    byOwnerName: index().on(table.ownerId, table.name, table.id),
    byRegistrant: index().on(table.registrantId),
    byWrappedOwner: index().on(table.wrappedOwnerId),
    byResolvedAddress: index().on(table.resolvedAddressId),
    byCreatedAt: index().on(table.createdAt),
    byLabelhash: index().on(table.labelhash),
  }),
);

export const account = onchainTable("account", (t) => ({
  id: t.text().primaryKey(),
}));

export const resolver = onchainTable(
  "resolver",
  (t) => ({
    id: t.text().primaryKey(),
    domainId: t.text(),
    address: t.hex().notNull(),
    addrId: t.text(),
    contentHash: t.text(),
    texts: t.text().array(),
    coinTypes: t.bigint().array(),
  }),
  (table) => ({
    byDomain: index().on(table.domainId),
    byAddress: index().on(table.address),
  }),
);

export const registration = onchainTable(
  "registration",
  (t) => ({
    id: t.text().primaryKey(),
    domainId: t.text().notNull(),
    registrationDate: t.bigint().notNull(),
    expiryDate: t.bigint().notNull(),
    cost: t.bigint(),
    registrantId: t.text().notNull(),
    labelName: t.text(),
  }),
  (table) => ({
    byDomain: index().on(table.domainId),
    byRegistrant: index().on(table.registrantId),
    byRegistrationDate: index().on(table.registrationDate),
    byExpiryDate: index().on(table.expiryDate),
  }),
);

export const wrappedDomain = onchainTable(
  "wrapped_domain",
  (t) => ({
    id: t.text().primaryKey(),
    domainId: t.text().notNull(),
    expiryDate: t.bigint().notNull(),
    fuses: t.integer().notNull(),
    ownerId: t.text().notNull(),
    name: t.text(),
  }),
  (table) => ({
    byDomain: index().on(table.domainId),
    byOwner: index().on(table.ownerId),
  }),
);

// ---- Domain events -------------------------------------------------------------------------------------------

type ColumnBuilders = Parameters<Extract<Parameters<typeof onchainTable>[1], (...args: never[]) => unknown>>[0];

/**
 * Every event entity has the subgraph's `<blockNumber>-<logIndex>` id (`-<chainId>` appended off the ENS root chain).
 * Not the subgraph's: `logVersion`, the log's place in omnichain order (src/lib/entity-history/version.ts), which /subgraph at a
 * past block and `_change_block` compare (an event exists from its block on).
 */
const eventColumns = (t: ColumnBuilders) => ({
  id: t.text().primaryKey(),
  blockNumber: t.integer().notNull(),
  transactionID: t.hex().notNull(),
  logVersion: t.bigint().notNull(),
});

// ---- History of the subgraph's mutable entities (/subgraph at a past block) -----------------------------------

/*
 * Every write to `domain`, `account`, `resolver`, `registration` or `wrapped_domain` also writes the row as written
 * (its subgraph columns) to `<table>_history`, keyed by the entity id and the `version` of the block's first write of
 * it: that write's position in omnichain order (src/lib/entity-history/version.ts). One row per entity and block: a later
 * write in the block updates it (a row Ponder's cache holds, just written). The state at the end of a block is, for
 * each id, the version with the greatest key at or below that block's last key, unless that version is a deletion
 * (`deleted`), i.e. the version whose `valid_to` is past the block. Ponder's reorg handling removes the versions of
 * orphaned blocks as it does any row, and puts back the `valid_to` they had closed.
 * src/lib/entity-history/writer.ts writes them, src/api/subgraph/history.ts reads them.
 */

/** Rows inserted under keys unique by construction (each once; an update may follow): src/runtime/ponder-hooks.ts. */
const insertOnly = markInsertOnly;

const historyKey = (t: ColumnBuilders) => ({
  id: t.text().notNull(),
  version: t.bigint().notNull(),
  deleted: t.boolean().notNull().default(false),
  /**
   * The version of the id's next version (NULL while this is the last), so that a query at a block tests each row by
   * its own columns: `version <= block < valid_to`. The database fills it in (src/lib/entity-history/valid-to-trigger.ts).
   */
  validTo: t.bigint(),
});

/*
 * Every history table's key, and its versions in writing order: Ponder writes them in omnichain order, so a BRIN
 * index (a few pages, where a B-tree would add a tenth to the table) finds the versions above a block by reading only
 * the table's last pages: what a query at a recent block asks first (history.ts, "a recent block").
 */
type KeyColumn = Parameters<typeof primaryKey>[0]["columns"][number];
const historyIndexes = (table: { id: KeyColumn; version: KeyColumn }) => ({
  pk: primaryKey({ columns: [table.id, table.version] }),
  byVersion: index().using("brin", table.version),
});

export const domainHistory = insertOnly(
  onchainTable(
    "domain_history",
    (t) => ({
      ...historyKey(t),
      name: t.text(),
      labelName: t.text(),
      labelhash: t.hex(),
      parentId: t.text(),
      subdomainCount: t.integer(),
      resolvedAddressId: t.text(),
      resolverId: t.text(),
      ttl: t.bigint(),
      isMigrated: t.boolean(),
      createdAt: t.bigint(),
      ownerId: t.text(),
      registrantId: t.text(),
      wrappedOwnerId: t.text(),
      expiryDate: t.bigint(),
    }),
    (table) => ({
      ...historyIndexes(table),
      // The filters clients send at a block (ensjs: owner, registrant, wrapped owner, resolved address, parent, name).
      // Also a parent's children newest first at a block (`subdomains(orderBy: createdAt)`), a page at a time.
      byParentCreatedAt: index().on(table.parentId, table.createdAt),
      byOwner: index().on(table.ownerId),
      byName: index().on(table.name),
      byLabelhash: index().on(table.labelhash),
      byRegistrant: index().on(table.registrantId),
      byWrappedOwner: index().on(table.wrappedOwnerId),
      byResolvedAddress: index().on(table.resolvedAddressId),
    }),
  ),
);

export const accountHistory = insertOnly(
  onchainTable(
    "account_history",
    (t) => historyKey(t),
    (table) => historyIndexes(table),
  ),
);

export const resolverHistory = insertOnly(
  onchainTable(
    "resolver_history",
    (t) => ({
      ...historyKey(t),
      domainId: t.text(),
      address: t.hex(),
      addrId: t.text(),
      contentHash: t.text(),
      texts: t.text().array(),
      coinTypes: t.bigint().array(),
    }),
    (table) => ({
      ...historyIndexes(table),
      byDomain: index().on(table.domainId),
    }),
  ),
);

export const registrationHistory = insertOnly(
  onchainTable(
    "registration_history",
    (t) => ({
      ...historyKey(t),
      domainId: t.text(),
      registrationDate: t.bigint(),
      expiryDate: t.bigint(),
      cost: t.bigint(),
      registrantId: t.text(),
      labelName: t.text(),
    }),
    (table) => ({
      ...historyIndexes(table),
      byDomain: index().on(table.domainId),
      byRegistrant: index().on(table.registrantId),
      // The latest registrations at a block (`registrations(orderBy: registrationDate, orderDirection: desc)`).
      byRegistrationDate: index().on(table.registrationDate),
    }),
  ),
);

export const wrappedDomainHistory = insertOnly(
  onchainTable(
    "wrapped_domain_history",
    (t) => ({
      ...historyKey(t),
      domainId: t.text(),
      expiryDate: t.bigint(),
      fuses: t.integer(),
      ownerId: t.text(),
      name: t.text(),
    }),
    (table) => ({
      ...historyIndexes(table),
      byDomain: index().on(table.domainId),
      byOwner: index().on(table.ownerId),
    }),
  ),
);

export const transfer = onchainTable(
  "transfer",
  (t) => ({ ...eventColumns(t), domainId: t.text().notNull(), ownerId: t.text().notNull() }),
  (table) => ({ byDomain: index().on(table.domainId) }),
);

export const newOwner = onchainTable(
  "new_owner",
  (t) => ({
    ...eventColumns(t),
    domainId: t.text().notNull(),
    parentDomainId: t.text().notNull(),
    ownerId: t.text().notNull(),
  }),
  (table) => ({ byDomain: index().on(table.domainId), byParent: index().on(table.parentDomainId) }),
);

export const newResolver = onchainTable(
  "new_resolver",
  (t) => ({ ...eventColumns(t), domainId: t.text().notNull(), resolverId: t.text().notNull() }),
  (table) => ({ byDomain: index().on(table.domainId) }),
);

export const newTTL = onchainTable(
  "new_ttl",
  (t) => ({ ...eventColumns(t), domainId: t.text().notNull(), ttl: t.bigint().notNull() }),
  (table) => ({ byDomain: index().on(table.domainId) }),
);

export const wrappedTransfer = onchainTable(
  "wrapped_transfer",
  (t) => ({ ...eventColumns(t), domainId: t.text().notNull(), ownerId: t.text().notNull() }),
  (table) => ({ byDomain: index().on(table.domainId) }),
);

export const nameWrapped = onchainTable(
  "name_wrapped",
  (t) => ({
    ...eventColumns(t),
    domainId: t.text().notNull(),
    name: t.text(),
    fuses: t.integer().notNull(),
    ownerId: t.text().notNull(),
    expiryDate: t.bigint().notNull(),
  }),
  (table) => ({ byDomain: index().on(table.domainId) }),
);

export const nameUnwrapped = onchainTable(
  "name_unwrapped",
  (t) => ({ ...eventColumns(t), domainId: t.text().notNull(), ownerId: t.text().notNull() }),
  (table) => ({ byDomain: index().on(table.domainId) }),
);

export const fusesSet = onchainTable(
  "fuses_set",
  (t) => ({ ...eventColumns(t), domainId: t.text().notNull(), fuses: t.integer().notNull() }),
  (table) => ({ byDomain: index().on(table.domainId) }),
);

export const expiryExtended = onchainTable(
  "expiry_extended",
  (t) => ({ ...eventColumns(t), domainId: t.text().notNull(), expiryDate: t.bigint().notNull() }),
  (table) => ({ byDomain: index().on(table.domainId) }),
);

// ---- Registration events -------------------------------------------------------------------------------------

export const nameRegistered = onchainTable(
  "name_registered",
  (t) => ({
    ...eventColumns(t),
    registrationId: t.text().notNull(),
    registrantId: t.text().notNull(),
    expiryDate: t.bigint().notNull(),
  }),
  (table) => ({ byRegistration: index().on(table.registrationId) }),
);

export const nameRenewed = onchainTable(
  "name_renewed",
  (t) => ({ ...eventColumns(t), registrationId: t.text().notNull(), expiryDate: t.bigint().notNull() }),
  (table) => ({ byRegistration: index().on(table.registrationId) }),
);

export const nameTransferred = onchainTable(
  "name_transferred",
  (t) => ({ ...eventColumns(t), registrationId: t.text().notNull(), newOwnerId: t.text().notNull() }),
  (table) => ({ byRegistration: index().on(table.registrationId) }),
);

// ---- Resolver events -----------------------------------------------------------------------------------------

export const addrChanged = onchainTable(
  "addr_changed",
  (t) => ({ ...eventColumns(t), resolverId: t.text().notNull(), addrId: t.text().notNull() }),
  (table) => ({ byResolver: index().on(table.resolverId) }),
);

export const multicoinAddrChanged = onchainTable(
  "multicoin_addr_changed",
  (t) => ({
    ...eventColumns(t),
    resolverId: t.text().notNull(),
    coinType: t.bigint().notNull(),
    addr: t.hex().notNull(),
  }),
  (table) => ({ byResolver: index().on(table.resolverId) }),
);

export const nameChanged = onchainTable(
  "name_changed",
  (t) => ({ ...eventColumns(t), resolverId: t.text().notNull(), name: t.text().notNull() }),
  (table) => ({ byResolver: index().on(table.resolverId) }),
);

export const abiChanged = onchainTable(
  "abi_changed",
  (t) => ({ ...eventColumns(t), resolverId: t.text().notNull(), contentType: t.bigint().notNull() }),
  (table) => ({ byResolver: index().on(table.resolverId) }),
);

export const pubkeyChanged = onchainTable(
  "pubkey_changed",
  (t) => ({ ...eventColumns(t), resolverId: t.text().notNull(), x: t.hex().notNull(), y: t.hex().notNull() }),
  (table) => ({ byResolver: index().on(table.resolverId) }),
);

export const textChanged = onchainTable(
  "text_changed",
  (t) => ({
    ...eventColumns(t),
    resolverId: t.text().notNull(),
    key: t.text().notNull(),
    // Only the newer TextChanged variant carries the value; the older one leaves it null.
    value: t.text(),
  }),
  (table) => ({ byResolver: index().on(table.resolverId), byKey: index().on(table.key) }),
);

export const contenthashChanged = onchainTable(
  "contenthash_changed",
  (t) => ({ ...eventColumns(t), resolverId: t.text().notNull(), hash: t.hex().notNull() }),
  (table) => ({ byResolver: index().on(table.resolverId) }),
);

export const interfaceChanged = onchainTable(
  "interface_changed",
  (t) => ({
    ...eventColumns(t),
    resolverId: t.text().notNull(),
    interfaceID: t.hex().notNull(),
    implementer: t.hex().notNull(),
  }),
  (table) => ({ byResolver: index().on(table.resolverId) }),
);

export const authorisationChanged = onchainTable(
  "authorisation_changed",
  (t) => ({
    ...eventColumns(t),
    resolverId: t.text().notNull(),
    owner: t.hex().notNull(),
    target: t.hex().notNull(),
    isAuthorized: t.boolean().notNull(),
  }),
  (table) => ({ byResolver: index().on(table.resolverId) }),
);

export const versionChanged = onchainTable(
  "version_changed",
  (t) => ({ ...eventColumns(t), resolverId: t.text().notNull(), version: t.bigint().notNull() }),
  (table) => ({ byResolver: index().on(table.resolverId) }),
);

/*
 * The subgraph's event entities: a row per handled log, keyed by the log's id and written once by its handler, so
 * PGlite need not read a key before its insert (once the row cache evicts a table, that read is a query per event).
 */
for (const table of [
  transfer,
  newOwner,
  newResolver,
  newTTL,
  wrappedTransfer,
  nameWrapped,
  nameUnwrapped,
  fusesSet,
  expiryExtended,
  nameRegistered,
  nameRenewed,
  nameTransferred,
  addrChanged,
  multicoinAddrChanged,
  nameChanged,
  abiChanged,
  pubkeyChanged,
  textChanged,
  contenthashChanged,
  interfaceChanged,
  authorisationChanged,
  versionChanged,
])
  insertOnly(table);

// ---- registrars plugin: subregistries, registration lifecycles, logical registrar actions ----------------------

/** A registrar that manages the direct subnames of one name (`<chainId>-<address>`, e.g. the .eth base registrar). */
export const subregistry = onchainTable("subregistry", (t) => ({
  id: t.text().primaryKey(),
  chainId: t.integer().notNull(),
  address: t.hex().notNull(),
  /** namehash of the managed name (`eth`, `base.eth`, `linea.eth`). */
  node: t.hex().notNull(),
}));

/** One per registered name (id = its node); renewals extend it, a re-registration after expiry starts it over. */
export const registrationLifecycle = onchainTable(
  "registration_lifecycle",
  (t) => ({
    id: t.hex().primaryKey(),
    subregistryId: t.text().notNull(),
    parentNode: t.hex().notNull(),
    labelhash: t.hex().notNull(),
    /** The plaintext label a controller published, once checked against the labelhash; else null. */
    label: t.text(),
    expiresAt: t.bigint().notNull(),
  }),
  (table) => ({ bySubregistry: index().on(table.subregistryId) }),
);

/** A registrar action's columns before its registrar (registrar_action and the ENSv2 registrar's ensv2_registrar_action). */
const registrarActionHead = (t: ColumnBuilders) => ({
  id: t.text().primaryKey(),
  type: t.text().notNull().$type<"registration" | "renewal">(),
  node: t.hex().notNull(),
  parentNode: t.hex().notNull(),
});

/** A registrar action's columns after its registrar. */
const registrarActionTail = (t: ColumnBuilders) => ({
  chainId: t.integer().notNull(),
  incrementalDuration: t.bigint().notNull(),
  registrant: t.hex().notNull(),
  /** Wei (ENSv2: the payment token's smallest unit); all three null while (or when) no controller published a price. */
  baseCost: t.bigint(),
  premium: t.bigint(),
  total: t.bigint(),
  encodedReferrer: t.hex(),
  decodedReferrer: t.hex(),
  /** Whether the action has a non-zero encoded referrer (the withReferral filter). */
  withReferral: t.boolean().notNull().default(false),
  blockNumber: t.bigint().notNull(),
  blockTimestamp: t.bigint().notNull(),
  logIndex: t.integer().notNull(),
  transactionHash: t.hex().notNull(),
  eventIds: t.text().array().notNull(),
});

type IndexedColumn = Parameters<ReturnType<typeof index>["on"]>[0];

/**
 * Every list is newest first with the tie-break (blockNumber, logIndex, id); each filter gets an index that ends in
 * that order, so a page is an index range scan (PostgreSQL scans the btree backwards for DESC).
 */
const newestActionIndexes = (
  table: Record<
    "id" | "parentNode" | "decodedReferrer" | "withReferral" | "blockTimestamp" | "blockNumber" | "logIndex",
    IndexedColumn
  >,
) => ({
  byNewest: index().on(table.blockTimestamp, table.blockNumber, table.logIndex, table.id),
  byParentNewest: index().on(table.parentNode, table.blockTimestamp, table.blockNumber, table.logIndex, table.id),
  byReferrerNewest: index().on(
    table.decodedReferrer,
    table.blockTimestamp,
    table.blockNumber,
    table.logIndex,
    table.id,
  ),
  byReferralNewest: index().on(table.withReferral, table.blockTimestamp, table.blockNumber, table.logIndex, table.id),
});

/**
 * A logical registration or renewal: the base registrar's event merged with its controller's events of the same
 * name in the same transaction. id = eventIds[0] (the base registrar event). Inserted once, by the base registrar's
 * log (so PGlite need not read the key first), then updated by its controller's events.
 */
export const registrarAction = insertOnly(
  onchainTable(
    "registrar_action",
    (t) => ({
      ...registrarActionHead(t),
      subregistryId: t.text().notNull(),
      ...registrarActionTail(t),
    }),
    (table) => ({ ...newestActionIndexes(table), byNode: index().on(table.node) }),
  ),
);

/**
 * `<chainId>-<txHash>-<node>` → the action the base registrar created for that name in that transaction, so the
 * controller's events (later in the same transaction) can find it: the store looks rows up by primary key only.
 */
export const registrarActionLink = onchainTable("registrar_action_link", (t) => ({
  id: t.text().primaryKey(),
  actionId: t.text().notNull(),
}));

// ---- tokenscope plugin: the NFTs that represent names ----------------------------------------------------------

/** One per token (`<chainId>-<contract>-<tokenId>`): its current owner and whether it is minted or burned. */
export const nameToken = onchainTable(
  "name_token",
  (t) => ({
    id: t.text().primaryKey(),
    chainId: t.integer().notNull(),
    contract: t.hex().notNull(),
    /** 0x + 64 hex: the labelhash (base registrars) or the node (NameWrapper, 3DNS). */
    tokenId: t.hex().notNull(),
    assetNamespace: t.text().notNull().$type<"erc721" | "erc1155">(),
    /** The node of the name the token represents. */
    domainId: t.hex().notNull(),
    owner: t.hex().notNull(),
    mintStatus: t.text().notNull().$type<"minted" | "burned">(),
  }),
  (table) => ({ byDomain: index().on(table.domainId) }),
);

/**
 * One sale of a name token through Seaport (id = `<chainId>-<blockNumber>-<logIndex>` of its OrderFulfilled): one
 * name token against payment in one currency. What counts as a sale, and what `price` and `sellerProceeds` mean, is
 * in src/plugins/tokenscope/lib/seaport-sales.ts and docs/api.md.
 */
export const nameSale = onchainTable(
  "name_sale",
  (t) => ({
    id: t.text().primaryKey(),
    chainId: t.integer().notNull(),
    orderHash: t.hex().notNull(),
    /** The node of the name sold. */
    domainId: t.hex().notNull(),
    contract: t.hex().notNull(),
    /** 0x + 64 hex, as in name_token. */
    tokenId: t.hex().notNull(),
    assetNamespace: t.text().notNull().$type<"erc721" | "erc1155">(),
    seller: t.hex().notNull(),
    buyer: t.hex().notNull(),
    currency: t.text().notNull().$type<"ETH" | "ERC20">(),
    /** The ERC-20's address; null for ETH. */
    currencyToken: t.hex(),
    /** Everything the buyer paid for the order (fees to others included), in the currency's smallest unit. */
    price: t.bigint().notNull(),
    /** What the seller received: the price less the fees and royalties paid to others. */
    sellerProceeds: t.bigint().notNull(),
    blockNumber: t.bigint().notNull(),
    blockTimestamp: t.bigint().notNull(),
    logIndex: t.integer().notNull(),
    transactionHash: t.hex().notNull(),
  }),
  // Newest first with the registrar actions' tie-break; each filter's index ends in that order (one range scan a page).
  (table) => ({
    byNewest: index().on(table.blockTimestamp, table.blockNumber, table.logIndex, table.id),
    byDomainNewest: index().on(table.domainId, table.blockTimestamp, table.blockNumber, table.logIndex, table.id),
    bySellerNewest: index().on(table.seller, table.blockTimestamp, table.blockNumber, table.logIndex, table.id),
    byBuyerNewest: index().on(table.buyer, table.blockTimestamp, table.blockNumber, table.logIndex, table.id),
  }),
);

// ---- protocol-acceleration plugin: node→resolver links, resolver records, primary names ------------------------

/**
 * One registry's record of a node (`<chainId>-<registry>-<node>`): its resolver, and the registry's
 * `recordExists(node)`. On the ENS root chain the registry with fallback answers `resolver(node)` from its own record
 * while that record exists (once written, for good: a burned node's record stays), else from the old registry;
 * `recordExists` lets the resolution API and name references apply that rule (src/lib/registry-fallback.ts).
 * The 3DNS token counts as a registry of its names (its registrations point at the 3DNS resolver).
 */
export const registryNode = onchainTable(
  "registry_node",
  (t) => ({
    id: t.text().primaryKey(),
    chainId: t.integer().notNull(),
    registry: t.hex().notNull(),
    node: t.hex().notNull(),
    /** Null while unset or set to the zero address. */
    resolver: t.hex(),
    recordExists: t.boolean().notNull().default(false),
  }),
  (table) => ({ byNode: index().on(table.node) }),
);

/**
 * The records one resolver holds for one node (`<chainId>-<resolver>-<node>`). `version` mirrors PublicResolver's
 * `recordVersions`: a VersionChanged (clearRecords) bumps it, and the per-key rows below carry the version they were
 * written under in their ids, so rows of an older version are simply never read again (as on chain).
 */
export const resolverRecords = onchainTable(
  "resolver_records",
  (t) => ({
    id: t.text().primaryKey(),
    chainId: t.integer().notNull(),
    resolver: t.hex().notNull(),
    node: t.hex().notNull(),
    version: t.bigint().notNull().default(0n),
    name: t.text(),
    contenthash: t.hex(),
    pubkeyX: t.hex(),
    pubkeyY: t.hex(),
    /** ABI content types set (ABIChanged), each a single bit per ENSIP-4. */
    abiContentTypes: t.bigint().array().notNull().default([]),
    /** IDNSZoneResolver's zonehash (DNSZonehashChanged); null while unset or after a version bump. */
    dnszonehash: t.hex(),
  }),
  (table) => ({ byNode: index().on(table.node) }),
);

/** An address record (`<recordsId>-<version>-<coinType>`): the raw bytes; coin type 60 is also what AddrChanged sets. */
export const resolverAddressRecord = onchainTable(
  "resolver_address_record",
  (t) => ({
    id: t.text().primaryKey(),
    recordsId: t.text().notNull(),
    coinType: t.bigint().notNull(),
    value: t.hex().notNull(),
  }),
  (table) => ({ byRecords: index().on(table.recordsId) }),
);

/**
 * A text record (`<recordsId>-<version>-<key>`). The older TextChanged carries no value: such a key is present with
 * `hasValue` false and `value` null, and the API reads it on chain rather than guessing.
 */
export const resolverTextRecord = onchainTable(
  "resolver_text_record",
  (t) => ({
    id: t.text().primaryKey(),
    recordsId: t.text().notNull(),
    key: t.text().notNull(),
    value: t.text(),
    hasValue: t.boolean().notNull(),
  }),
  (table) => ({ byRecords: index().on(table.recordsId) }),
);

/** An interface implementer record (`<recordsId>-<version>-<interfaceId>`), ENSIP-8. */
export const resolverInterfaceRecord = onchainTable(
  "resolver_interface_record",
  (t) => ({
    id: t.text().primaryKey(),
    recordsId: t.text().notNull(),
    interfaceId: t.hex().notNull(),
    implementer: t.hex().notNull(),
  }),
  (table) => ({ byRecords: index().on(table.recordsId) }),
);

/**
 * An alias of ENSv2's PermissionedResolver (`AliasChanged`, `<chainId>-<resolver>-<fromNode>`): the resolver answers
 * names under `fromName` as under `toName` (DNS-encoded; `0x` once removed). `fromNode` is NameCoder's namehash of
 * `fromName`, from each label's bytes, as the resolver keys it.
 */
export const resolverAlias = onchainTable("resolver_alias", (t) => ({
  id: t.text().primaryKey(),
  chainId: t.integer().notNull(),
  resolver: t.hex().notNull(),
  fromNode: t.hex().notNull(),
  fromName: t.hex().notNull(),
  toName: t.hex().notNull(),
}));

/** `<hex>.addr.reverse` node → the address it reverses (found when the registry creates it; its labelhash is checked). */
export const reverseNode = onchainTable("reverse_node", (t) => ({
  id: t.hex().primaryKey(),
  address: t.hex().notNull(),
}));

/**
 * A name a standalone reverse registrar holds for an address (`<address>-<coinType>`): the default reverse registrar
 * under coin type 0x80000000, each L2 reverse registrar under 0x80000000 | its chain id (ENSIP-11, ENSIP-19). An empty
 * name means the address cleared it.
 */
export const reverseName = onchainTable("reverse_name", (t) => ({
  id: t.text().primaryKey(),
  address: t.hex().notNull(),
  coinType: t.bigint().notNull(),
  chainId: t.integer().notNull(),
  name: t.text().notNull(),
}));

// ---- ensv2 plugin: ENSv2 registries, names, registrations, permissions (docs/ensv2.md) -------------------------

/**
 * One ENSv2 registry contract (`<chainId>-<address>`), created when it emits its first registry event or is linked.
 * Its canonical place in the tree (docs/ensv2.md, "Canonical names") is `canonicalDomainId`, the domain whose
 * subregistry it is; `canonicalName` is that domain's name ("" for the root registry), null while the registry is not
 * reachable from the root.
 */
export const ensv2Registry = onchainTable(
  "ensv2_registry",
  (t) => ({
    id: t.text().primaryKey(),
    chainId: t.integer().notNull(),
    address: t.hex().notNull(),
    isRoot: t.boolean().notNull().default(false),
    /** The registry's own claim (ParentUpdated): its parent registry and its label there. */
    declaredParent: t.hex(),
    declaredLabel: t.text(),
    /** Domains whose subregistry is this registry now, oldest link first. */
    linkedBy: t.text().array().notNull().default([]),
    canonicalDomainId: t.text(),
    canonicalName: t.text(),
    /** Head of the list of the registry's domains (each domain's `nextInRegistry`): how moves reach its names. */
    firstDomainId: t.text(),
    createdAt: t.bigint().notNull(),
  }),
  (table) => ({ byName: index().on(table.canonicalName), byCanonicalDomain: index().on(table.canonicalDomainId) }),
);

/**
 * Every address a `SubregistryUpdated` has named (`<chainId>-<address>`), with the block of the first: Ponder delivers
 * its ERC-1155 transfers (`ensv2/LinkedRegistry`, a factory) from that block on, and the ones before were fetched and
 * applied when it was named (src/plugins/ensv2/lib/transfers.ts). A transfer of that block handled before the row
 * exists is one of those earlier ones.
 */
export const ensv2NamedSubregistry = onchainTable("ensv2_named_subregistry", (t) => ({
  id: t.text().primaryKey(),
  chainId: t.integer().notNull(),
  address: t.hex().notNull(),
  namedAt: t.bigint().notNull(),
}));

/**
 * One label of one registry (`<chainId>-<registry>-<storageId>`, the storage id decimal: the peer's id, docs/api.md
 * "Omnigraph ids"): the storage id is the token id with its low 32 version bits cleared, stable across regenerations
 * and re-registrations.
 */
export const ensv2Domain = onchainTable(
  "ensv2_domain",
  (t) => ({
    id: t.text().primaryKey(),
    chainId: t.integer().notNull(),
    registryId: t.text().notNull(),
    registry: t.hex().notNull(),
    /** 0x + 64 hex. */
    storageId: t.hex().notNull(),
    tokenId: t.hex().notNull(),
    /** The token id's low 32 bits. */
    tokenVersion: t.bigint().notNull(),
    /** The EAC resource of the name's roles (TokenResource); null until the first registration. */
    resource: t.hex(),
    /**
     * The ensv2_permission ids of the name's roles since its resource last moved: what a re-registration or an
     * unregistration, which move it (`roles()` then reads the next one), zeroes.
     */
    permissionIds: t.text().array().notNull().default([]),
    labelhash: t.hex().notNull(),
    /** The plaintext label when it is known and normalized, else null (the name then holds `[labelhash]`). */
    label: t.text(),
    /** Canonical name, null while the registry is not reachable from the root. */
    name: t.text(),
    /** namehash of the canonical name (what ENSv1 tables and the APIs key names by); null with it. */
    node: t.hex(),
    subregistry: t.hex(),
    /** The ERC-1155 holder of the current token (null when burned or never minted, e.g. reserved). */
    owner: t.hex(),
    expiry: t.bigint().notNull(),
    resolver: t.hex(),
    /** As of the last event; expiry is not an event: a `registered` name past its expiry is expired. */
    status: t.text().notNull().$type<"registered" | "reserved" | "unregistered">(),
    nextInRegistry: t.text(),
    latestRegistrationId: t.text(),
    /** The Omnigraph's order keys: the latest registration's (or reservation's) block time and the expiry. */
    registrationStartKey: t.bigint().notNull().default(NO_REGISTRATION_KEY),
    registrationExpiryKey: t.bigint().notNull().default(NO_REGISTRATION_KEY),
    createdAt: t.bigint().notNull(),
    updatedAt: t.bigint().notNull(),
  }),
  (table) => ({
    byName: index().on(table.name),
    byNode: index().on(table.node),
    // A registry's domains (also by registry alone) by registration date or expiry, a page at a time.
    byRegistryRegistrationStart: index().on(table.registryId, table.registrationStartKey, table.id),
    byRegistryRegistrationExpiry: index().on(table.registryId, table.registrationExpiryKey, table.id),
    byOwner: index().on(table.owner),
    byLabelhash: index().on(table.labelhash),
    bySubregistry: index().on(table.subregistry),
  }),
);

/**
 * One ERC-1155 token of a registry (`<chainId>-<registry>-<tokenId>`): every id a name had, the regenerated and
 * re-registered ones included, with its last holder (burned ones keep the zero address).
 */
export const ensv2Token = onchainTable(
  "ensv2_token",
  (t) => ({
    id: t.text().primaryKey(),
    chainId: t.integer().notNull(),
    contract: t.hex().notNull(),
    /** 0x + 64 hex. */
    tokenId: t.hex().notNull(),
    domainId: t.text().notNull(),
    owner: t.hex().notNull(),
    mintStatus: t.text().notNull().$type<"minted" | "burned">(),
  }),
  (table) => ({ byDomain: index().on(table.domainId) }),
);

/** Columns of a row that is one log (`<block>-<logIndex>`, with `-<chainId>` off the ENS root chain). */
const ensv2LogColumns = (t: ColumnBuilders) => ({
  id: t.text().primaryKey(),
  chainId: t.integer().notNull(),
  blockNumber: t.bigint().notNull(),
  blockTimestamp: t.bigint().notNull(),
  logIndex: t.integer().notNull(),
  transactionHash: t.hex().notNull(),
});

/**
 * A registration (LabelRegistered) or reservation (LabelReserved) of a domain, id of the registry's event. The
 * registrar's NameRegistered in the same transaction adds its price: all registrar columns null otherwise.
 */
export const ensv2Registration = onchainTable(
  "ensv2_registration",
  (t) => ({
    ...ensv2LogColumns(t),
    domainId: t.text().notNull(),
    kind: t.text().notNull().$type<"registration" | "reservation">(),
    tokenId: t.hex().notNull(),
    /** Null for a reservation. */
    owner: t.hex(),
    expiry: t.bigint().notNull(),
    sender: t.hex().notNull(),
    registrar: t.hex(),
    duration: t.bigint(),
    paymentToken: t.hex(),
    referrer: t.hex(),
    base: t.bigint(),
    premium: t.bigint(),
  }),
  (table) => ({ byDomain: index().on(table.domainId), byNewest: index().on(table.blockNumber, table.logIndex) }),
);

/** A renewal through the ENSv2 registrar (NameRenewed). */
export const ensv2Renewal = onchainTable(
  "ensv2_renewal",
  (t) => ({
    ...ensv2LogColumns(t),
    domainId: t.text().notNull(),
    tokenId: t.hex().notNull(),
    registrar: t.hex().notNull(),
    duration: t.bigint().notNull(),
    newExpiry: t.bigint().notNull(),
    paymentToken: t.hex().notNull(),
    referrer: t.hex().notNull(),
    base: t.bigint().notNull(),
  }),
  (table) => ({ byDomain: index().on(table.domainId), byNewest: index().on(table.blockNumber, table.logIndex) }),
);

/**
 * A registration or renewal through the ENSv2 `.eth` registrar, in the shape of `registrar_action` (which
 * /api/registrar-actions lists together with it). id = eventIds[0]; prices are in `paymentToken`'s units.
 */
export const ensv2RegistrarAction = onchainTable(
  "ensv2_registrar_action",
  (t) => ({
    ...registrarActionHead(t),
    domainId: t.text().notNull(),
    registrar: t.hex().notNull(),
    paymentToken: t.hex().notNull(),
    ...registrarActionTail(t),
  }),
  // registrar_action's indexes: /api/registrar-actions reads a range of each table's and merges them.
  (table) => newestActionIndexes(table),
);

/**
 * An account's roles on one resource of one access-controlled contract (`<chainId>-<contract>-<resource>-<account>`,
 * the resource decimal: the peer's id), as `roles(resource, account)` reads them. `domainId` is the registry's domain
 * when the resource is one of its names.
 */
export const ensv2Permission = onchainTable(
  "ensv2_permission",
  (t) => ({
    id: t.text().primaryKey(),
    chainId: t.integer().notNull(),
    contract: t.hex().notNull(),
    /** Decimal (as the ids write it), so that a contract's resources list in the peer's order. */
    resource: t.text().notNull(),
    account: t.hex().notNull(),
    roles: t.bigint().notNull(),
    domainId: t.text(),
    updatedAt: t.bigint().notNull(),
  }),
  (table) => ({
    byContractResource: index().on(table.contract, table.resource),
    byAccount: index().on(table.account),
    byDomain: index().on(table.domainId),
  }),
);

/** Every EACRolesChanged: the history of `ensv2_permission`. */
export const ensv2PermissionChange = onchainTable(
  "ensv2_permission_change",
  (t) => ({
    ...ensv2LogColumns(t),
    contract: t.hex().notNull(),
    /** Decimal, as in `ensv2_permission`. */
    resource: t.text().notNull(),
    account: t.hex().notNull(),
    oldRoles: t.bigint().notNull(),
    newRoles: t.bigint().notNull(),
    domainId: t.text(),
    /** The changed entry's ensv2_permission id, and its contract's id (`<chainId>-<contract>`): the keys the API's history is read by. */
    permissionId: t.text().notNull(),
    contractId: t.text().notNull(),
  }),
  (table) => ({
    byPermission: index().on(table.permissionId),
    byContract: index().on(table.contractId),
    byDomain: index().on(table.domainId),
  }),
);

/**
 * The ENSv2 events as emitted, for history: `args` holds the decoded arguments (uint256 as decimal strings). Which
 * names' histories hold each is ensv2_domain_event.
 */
export const ensv2Event = onchainTable(
  "ensv2_event",
  (t) => ({
    ...ensv2LogColumns(t),
    contract: t.hex().notNull(),
    eventName: t.text().notNull(),
    args: t.json().notNull(),
  }),
  (table) => ({
    byContract: index().on(table.contract, table.blockNumber, table.logIndex),
  }),
);

/**
 * An ensv2_event in one name's history (`ENSv2Domain.events`): a log about no name has no row, one about a name one,
 * and a TransferBatch one per name whose token it moved. The log's place is copied so that a name's list is read
 * from this table alone.
 */
export const ensv2DomainEvent = onchainTable(
  "ensv2_domain_event",
  (t) => ({
    domainId: t.text().notNull(),
    /** The ensv2_event's id. */
    eventId: t.text().notNull(),
    chainId: t.integer().notNull(),
    blockNumber: t.bigint().notNull(),
    logIndex: t.integer().notNull(),
  }),
  (table) => ({ pk: primaryKey({ columns: [table.domainId, table.eventId] }) }),
);

// ---- name references: the names whose current address record points at an account (Account.nameReferences) ------

/**
 * One resolver's EVM address records for one node under its current record version (`<chainId>-<resolver>-<node>`,
 * the id of its resolver_records row), and the names whose current resolver it is (`holders`, name_reference_holder
 * ids). Kept so that a resolver change can copy the new resolver's records without reading every coin type.
 */
export const nameReferenceSource = onchainTable("name_reference_source", (t) => ({
  id: t.text().primaryKey(),
  /** Coin type (decimal) → lowercase 20-byte address, only for EVM coin types with a non-zero address. */
  addresses: t.json().$type<Record<string, string>>().notNull(),
  holders: t.text().array().notNull().default([]),
}));

/**
 * A name that may point at accounts: an ENSv1 node on one chain (`<chainId>-<node>`, the registry with fallback and
 * the old registry folded into one) or an ENSv2 domain (its ensv2_domain id), with its current resolver's source.
 */
export const nameReferenceHolder = onchainTable("name_reference_holder", (t) => ({
  id: t.text().primaryKey(),
  version: t.text().notNull().$type<"ENSv1" | "ENSv2">(),
  /** The Omnigraph's domain id: the node (ENSv1) or the ensv2_domain id. */
  domainId: t.text().notNull(),
  chainId: t.integer().notNull(),
  resolver: t.hex(),
  /** The name_reference_source of (resolver, node), null without a resolver. */
  sourceId: t.text(),
}));

/**
 * A name whose current resolver's address record for `coinType` is `address` (`<holderId>-<coinType>`). Listed by
 * address (and coin type) in id order, one index range per page.
 */
export const nameReference = onchainTable(
  "name_reference",
  (t) => ({
    id: t.text().primaryKey(),
    address: t.hex().notNull(),
    coinType: t.bigint().notNull(),
    holderId: t.text().notNull(),
    version: t.text().notNull().$type<"ENSv1" | "ENSv2">(),
    domainId: t.text().notNull(),
    chainId: t.integer().notNull(),
    resolver: t.hex().notNull(),
  }),
  (table) => ({
    byAddress: index().on(table.address, table.id),
    byAddressCoinType: index().on(table.address, table.coinType, table.id),
  }),
);

// ---- protocol-acceleration: every record kind (ABI data) --------------------------------------------------------

/**
 * An ABI record (`<recordsId>-<version>-<contentType>`), ENSIP-4. ABIChanged carries only the content type: the data
 * is read once from the resolver (`ABI(node, contentType)`) at the event's block while indexing, through Ponder's
 * cached client. Empty data (`0x`) is a removed ABI, which `ABI()` skips.
 */
export const resolverAbiRecord = onchainTable(
  "resolver_abi_record",
  (t) => ({
    id: t.text().primaryKey(),
    recordsId: t.text().notNull(),
    contentType: t.bigint().notNull(),
    data: t.hex().notNull(),
  }),
  (table) => ({ byRecords: index().on(table.recordsId) }),
);

// ---- Omnigraph list counts (totalCount that does not grow with the list) -------------------

/**
 * How many rows an unfiltered Omnigraph domain list holds (`<list>:<key>`, src/lib/list-counts.ts), kept by the
 * handlers that create domains or change their owner, so `totalCount` is one read by key instead of a count of
 * `eth`'s millions of children. A small table of its own, not a column: the ENSv2 owners have no row to carry it, and
 * the subgraph's `subdomainCount` (The Graph's semantics) must stay as it is.
 */
export const domainListCount = onchainTable("domain_list_count", (t) => ({
  id: t.text().primaryKey(),
  count: t.integer().notNull().default(0),
}));

// ---- Events in the index: what the Omnigraph's Event fields answer, without the RPC ----

/**
 * Every log a handler indexed, once (a log several plugins handle is written by the first): what the Omnigraph's
 * `Event` answers. The other tables name their events by (chain, block, log index); a resolver's list reads
 * `byEmitter`, an account's (as the transaction's sender) `bySender`, each in log order. Rows are only inserted, each
 * key once (src/plugins/shared/indexed-log.ts), so PGlite need not read a key before its insert.
 */
export const indexedLog = insertOnly(
  onchainTable(
    "indexed_log",
    (t) => ({
      // A row per handled log, so its bytes count: the 8-byte columns first, then the 4-byte ones, then the variable
      // ones (no alignment padding between them); hashes, addresses and bytes as bytea (hexBytes), half of hex's text.
      blockNumber: t.bigint().notNull(),
      blockTimestamp: t.bigint().notNull(),
      chainId: t.integer().notNull(),
      logIndex: t.integer().notNull(),
      transactionIndex: t.integer().notNull(),
      blockHash: hexBytes().notNull(),
      transactionHash: hexBytes().notNull(),
      transactionFrom: hexBytes().notNull(),
      /** Null for a contract creation. */
      transactionTo: hexBytes(),
      /** The contract that emitted the log. */
      address: hexBytes().notNull(),
      /** The log's topics, 32 bytes each, one after another (joinWords). */
      topics: hexBytes().notNull(),
      data: hexBytes().notNull(),
    }),
    (table) => ({
      pk: primaryKey({ columns: [table.chainId, table.blockNumber, table.logIndex] }),
      byEmitter: index().on(table.address, table.chainId, table.blockNumber, table.logIndex),
      bySender: index().on(table.transactionFrom, table.blockNumber, table.logIndex),
    }),
  ),
);
