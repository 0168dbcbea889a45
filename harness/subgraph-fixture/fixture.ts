import { keccak256, labelhash, namehash, toHex } from "viem";
import { versionOf } from "../../src/lib/entity-history/version";
import { NO_REGISTRATION_ORDER_KEYS, registrationOrderKeys } from "../../src/lib/registration-order";
import type { Namespace } from "../../src/namespaces/types";
import { seededRandom } from "../seeded-random";

/*
 * A hand-made ENS-like dataset for the /subgraph layer, independent of the indexer: a root, TLDs, .eth
 * second-level names with registrations (some wrapped, some with unknown `[labelhash]` labels), subdomains,
 * resolvers with texts and coin types, and rows in every event table. Deterministic for a given size.
 */

export type Rows = Record<string, Record<string, unknown>[]>;

export const ROOT = `0x${"00".repeat(32)}`;
export const ZERO_ADDRESS = `0x${"00".repeat(20)}`;
export const ADDR_REVERSE = namehash("addr.reverse");

export const account = (i: number) => `0x${(i + 1).toString(16).padStart(40, "0")}`;
const txHash = (i: number) => keccak256(toHex(`tx${i}`));
export const RESOLVER_ADDRESS = `0x${"4976fb03".padEnd(40, "c")}`;
export const OTHER_RESOLVER_ADDRESS = `0x${"231b0ee1".padEnd(40, "d")}`;

export interface FixtureOptions {
  /** .eth second-level names. */
  secondLevel: number;
  /** Accounts owning them. */
  accounts: number;
  seed?: number;
}

export const GRACE = 90n * 24n * 3600n;
export const BASE_TIME = 1_600_000_000n;

export function buildFixture({ secondLevel, accounts, seed = 1 }: FixtureOptions): Rows {
  const rand = seededRandom(seed);
  const pick = (n: number) => Math.floor(rand() * n);
  const rows: Rows = {
    domain: [],
    account: [],
    resolver: [],
    registration: [],
    wrapped_domain: [],
    transfer: [],
    new_owner: [],
    new_resolver: [],
    new_ttl: [],
    wrapped_transfer: [],
    name_wrapped: [],
    name_unwrapped: [],
    fuses_set: [],
    expiry_extended: [],
    name_registered: [],
    name_renewed: [],
    name_transferred: [],
    addr_changed: [],
    multicoin_addr_changed: [],
    name_changed: [],
    abi_changed: [],
    pubkey_changed: [],
    text_changed: [],
    contenthash_changed: [],
    interface_changed: [],
    authorisation_changed: [],
    version_changed: [],
  };
  let block = 1000;
  let logIndex = 0;
  const nextEvent = () => {
    block += 1 + pick(2);
    logIndex = pick(5);
    return {
      id: `${block}-${logIndex}`,
      blockNumber: block,
      transactionID: txHash(block * 10 + logIndex),
      logVersion: logVersionAt(block, logIndex),
    };
  };

  rows.account!.push({ id: ZERO_ADDRESS });
  for (let i = 0; i < accounts; i++) rows.account!.push({ id: account(i) });

  const subdomainCounts = new Map<string, number>();
  const addDomain = (d: {
    id: string;
    name: string | null;
    labelName: string | null;
    labelhash: string | null;
    parentId: string | null;
    ownerId: string;
    createdAt: bigint;
    [k: string]: unknown;
  }) => {
    rows.domain!.push({
      subdomainCount: 0,
      resolvedAddressId: null,
      resolverId: null,
      ttl: null,
      isMigrated: true,
      registrantId: null,
      wrappedOwnerId: null,
      expiryDate: null,
      ...d,
    });
    if (d.parentId) subdomainCounts.set(d.parentId, (subdomainCounts.get(d.parentId) ?? 0) + 1);
    const e = nextEvent();
    rows.new_owner!.push({ ...e, domainId: d.id, parentDomainId: d.parentId ?? ROOT, ownerId: d.ownerId });
    rows.transfer!.push({ ...nextEvent(), domainId: d.id, ownerId: d.ownerId });
  };

  addDomain({
    id: ROOT,
    name: null,
    labelName: null,
    labelhash: null,
    parentId: null,
    ownerId: ZERO_ADDRESS,
    createdAt: 0n,
  });
  for (const tld of ["eth", "reverse", "xyz"]) {
    addDomain({
      id: namehash(tld),
      name: tld,
      labelName: tld,
      labelhash: labelhash(tld),
      parentId: ROOT,
      ownerId: account(0),
      createdAt: BASE_TIME,
    });
  }
  addDomain({
    id: ADDR_REVERSE,
    name: "addr.reverse",
    labelName: "addr",
    labelhash: labelhash("addr"),
    parentId: namehash("reverse"),
    ownerId: account(0),
    createdAt: BASE_TIME,
  });

  const ETH = namehash("eth");
  const resolverFor = (domainId: string, name: string, i: number, addr: string) => {
    const address = i % 7 === 0 ? OTHER_RESOLVER_ADDRESS : RESOLVER_ADDRESS;
    const id = `${address}-${domainId}`;
    const texts = ["avatar", "url", "com.twitter", "description"].slice(0, 1 + (i % 4));
    const coinTypes = i % 3 === 0 ? ["60", "0"] : ["60"];
    rows.resolver!.push({
      id,
      domainId,
      address,
      addrId: addr,
      contentHash: i % 5 === 0 ? `0xe301017012${(i + 1).toString(16).padStart(8, "0")}` : null,
      texts,
      coinTypes,
    });
    rows.new_resolver!.push({ ...nextEvent(), domainId, resolverId: id });
    rows.addr_changed!.push({ ...nextEvent(), resolverId: id, addrId: addr });
    rows.multicoin_addr_changed!.push({ ...nextEvent(), resolverId: id, coinType: 60n, addr });
    for (const key of texts) {
      rows.text_changed!.push({
        ...nextEvent(),
        resolverId: id,
        key,
        value: i % 9 === 0 && key === "url" ? null : `${key}:${name}`,
      });
    }
    return { id, addr };
  };

  for (let i = 0; i < secondLevel; i++) {
    // Every 13th label is unknown to the label set and shows as `[labelhash]`; mixed case shows `_nocase` at work.
    const label = i % 13 === 5 ? null : i % 11 === 3 ? `Mixed${i}` : `name${String(i).padStart(5, "0")}`;
    const lh = label ? labelhash(label) : keccak256(toHex(`secret${i}`));
    const shown = label ?? `[${lh.slice(2)}]`;
    const name = `${shown}.eth`;
    const id = label ? namehash(name) : keccak256(`${ETH}${lh.slice(2)}` as `0x${string}`);
    // Unnormalized (`Mixed…`) names all belong to the last account, so the others hold only normalized names.
    const owner = label?.startsWith("Mixed") ? account(accounts - 1) : account(i % (accounts - 1));
    // Names registered in the same block share createdAt: ordering must fall back to the id.
    const createdAt = BASE_TIME + BigInt(Math.floor(i / 3) * 60);
    const expiry = BASE_TIME + 365n * 24n * 3600n * BigInt(1 + (i % 5));
    const wrapped = i % 10 === 4;
    const hasResolver = i % 4 !== 3;
    const resolver = hasResolver ? resolverFor(id, name, i, owner) : undefined;
    addDomain({
      id,
      name,
      labelName: label,
      labelhash: lh,
      parentId: ETH,
      ownerId: wrapped ? "0xd4416b13d2b3a9abae7acd5d6c2bbdbe25686401" : owner,
      createdAt,
      registrantId: wrapped ? "0xd4416b13d2b3a9abae7acd5d6c2bbdbe25686401" : owner,
      wrappedOwnerId: wrapped ? owner : null,
      expiryDate: expiry + GRACE,
      resolverId: resolver?.id ?? null,
      resolvedAddressId: resolver?.addr ?? null,
      ttl: i % 6 === 0 ? 300n : 0n,
    });
    rows.registration!.push({
      id: lh,
      domainId: id,
      registrationDate: createdAt,
      expiryDate: expiry,
      cost: i % 8 === 0 ? null : BigInt(1_000_000_000_000_000 + i),
      registrantId: owner,
      labelName: label,
    });
    rows.name_registered!.push({ ...nextEvent(), registrationId: lh, registrantId: owner, expiryDate: expiry });
    if (i % 4 === 0) rows.name_renewed!.push({ ...nextEvent(), registrationId: lh, expiryDate: expiry });
    if (i % 9 === 0) rows.name_transferred!.push({ ...nextEvent(), registrationId: lh, newOwnerId: owner });
    if (wrapped) {
      rows.wrapped_domain!.push({
        id,
        domainId: id,
        expiryDate: expiry + GRACE,
        fuses: i % 20 === 4 ? 196608 : 0,
        ownerId: owner,
        name,
      });
      rows.name_wrapped!.push({
        ...nextEvent(),
        domainId: id,
        name,
        fuses: 0,
        ownerId: owner,
        expiryDate: expiry + GRACE,
      });
      rows.wrapped_transfer!.push({ ...nextEvent(), domainId: id, ownerId: owner });
      rows.fuses_set!.push({ ...nextEvent(), domainId: id, fuses: 196608 });
      rows.expiry_extended!.push({ ...nextEvent(), domainId: id, expiryDate: expiry + GRACE });
    }
    if (i % 25 === 7) rows.name_unwrapped!.push({ ...nextEvent(), domainId: id, ownerId: owner });
    if (i % 5 === 1) rows.new_ttl!.push({ ...nextEvent(), domainId: id, ttl: 300n });

    // Subdomains under every fourth name: 0–4 children, one level further under some of them.
    if (i % 4 === 0 && label) {
      const children = i % 5;
      for (let c = 0; c < children; c++) {
        const sub = `sub${c}`;
        const subName = `${sub}.${name}`;
        const subId = namehash(subName);
        addDomain({
          id: subId,
          name: subName,
          labelName: sub,
          labelhash: labelhash(sub),
          parentId: id,
          ownerId: label.startsWith("Mixed") ? owner : account((i + c + 1) % (accounts - 1)),
          createdAt: createdAt + BigInt(c),
          ttl: 0n,
        });
        if (c === 0 && i % 8 === 0) {
          const deep = `deep.${subName}`;
          addDomain({
            id: namehash(deep),
            name: deep,
            labelName: "deep",
            labelhash: labelhash("deep"),
            parentId: subId,
            ownerId: owner,
            createdAt: createdAt + 10n,
          });
        }
      }
    }
  }

  // One of each remaining resolver event on the first resolver.
  const r0 = rows.resolver![0]!.id as string;
  rows.name_changed!.push({ ...nextEvent(), resolverId: r0, name: "name00000.eth" });
  rows.abi_changed!.push({ ...nextEvent(), resolverId: r0, contentType: 1n });
  rows.pubkey_changed!.push({ ...nextEvent(), resolverId: r0, x: `0x${"11".repeat(32)}`, y: `0x${"22".repeat(32)}` });
  // A well-formed IPFS contenthash: clients (ensjs getNameHistory) decode it.
  rows.contenthash_changed!.push({
    ...nextEvent(),
    resolverId: r0,
    hash: "0xe3010170122029f2d17be6139079dc48696d1f582a8530eb9805b561eda517e22a892c7e3f1f",
  });
  rows.interface_changed!.push({
    ...nextEvent(),
    resolverId: r0,
    interfaceID: "0x01ffc9a7",
    implementer: account(2),
  });
  rows.authorisation_changed!.push({
    ...nextEvent(),
    resolverId: r0,
    owner: account(1),
    target: account(2),
    isAuthorized: true,
  });
  rows.version_changed!.push({ ...nextEvent(), resolverId: r0, version: 1n });

  for (const d of rows.domain!) d.subdomainCount = subdomainCounts.get(d.id as string) ?? 0;
  return withRegistrationOrderKeys(rows);
}

/**
 * Sets each domain's registration order keys as the indexer's handlers keep them: its registrar registration's date
 * and expiry, else its wrapped domain's expiry from the domain's creation, else none. Call it again after changing
 * a fixture's registrations or wrapped domains.
 */
export function withRegistrationOrderKeys(rows: Rows): Rows {
  const registrations = new Map(rows.registration!.map((r) => [r.domainId as string, r]));
  const wrapped = new Map(rows.wrapped_domain!.map((w) => [w.domainId as string, w]));
  for (const d of rows.domain!) {
    const r = registrations.get(d.id as string);
    const w = wrapped.get(d.id as string);
    Object.assign(
      d,
      r
        ? registrationOrderKeys(r.registrationDate as bigint, r.expiryDate as bigint)
        : w
          ? registrationOrderKeys(d.createdAt as bigint, w.expiryDate as bigint)
          : NO_REGISTRATION_ORDER_KEYS,
    );
  }
  return rows;
}

/** The head the fixture claims to be indexed at. */
export const FIXTURE_HEAD = {
  number: 999_999,
  timestamp: 1_700_000_000,
  hash: `0x${"ab".repeat(32)}`,
  parentHash: `0x${"cd".repeat(32)}`,
};

/** A namespace for APIs served over the fixture alone (the Omnigraph): the ENS root chain, no RPC. */
export const FIXTURE_NAMESPACE: Namespace = {
  name: "devnet",
  defaultRpcUrls: {},
  datasources: {
    ensroot: {
      chain: { id: 31337, name: "devnetRoot" },
      managedName: "eth",
      contracts: { Registry: { address: "0x00000000000c2e074ec69a0dfb2997ba6c7d2e1e", startBlock: 0 } },
    },
  },
};

/** An event row's `logVersion` (src/lib/entity-history/version.ts) on the root chain, blocks 12 s apart. */
export function logVersionAt(block: number, logIndex: number): bigint {
  return versionOf(
    { timestamp: 1_600_000_000n + BigInt(block) * 12n, chainId: 1, blockNumber: BigInt(block) },
    logIndex,
    0,
  );
}
