import type { Address, Hex } from "viem";

/** What the scenario knows about one name it created; the manifest lists these for tests. */
export interface NameFacts {
  /** Labels joined by "." (labels may themselves contain dots: use `labels` to be exact). */
  name: string;
  /** Leaf first, e.g. ["vitalik", "eth"]. */
  labels: string[];
  node: Hex;
  chainId: number;
  /** How it came to be, e.g. "legacy-controller", "wrapped-controller", "registry-subname", "3dns". */
  via: string;
  /** Expected `owner(node)` of the chain's registry (or 3DNS token) when the scenario ends; zero once deleted. */
  registryOwner?: Address;
  /** ERC-721 holder of a registrar name (`ownerOf(labelhash)`), when it has one. */
  registrant?: Address;
  /** ERC-1155 holder when wrapped (`balanceOf(holder, node)` = 1). */
  wrappedOwner?: Address;
  resolver?: Address;
  /** Records set on the resolver the scenario wrote last (text key → value, addr). */
  texts?: Record<string, string>;
  addr?: Address;
  deleted?: boolean;
  /** Old-registry names: whether they were re-created in the registry with fallback. */
  migrated?: boolean;
  unwrapped?: boolean;
}

/** Collects facts while a chain's scenario plays; keyed by node. */
export class NameBook {
  readonly byNode = new Map<Hex, NameFacts>();

  add(facts: NameFacts): NameFacts {
    if (this.byNode.has(facts.node)) throw new Error(`name created twice: ${facts.name}`);
    this.byNode.set(facts.node, facts);
    return facts;
  }

  get(node: Hex): NameFacts {
    const f = this.byNode.get(node);
    if (!f) throw new Error(`unknown node ${node}`);
    return f;
  }
}

/** Splits `total` names across kinds by weight, giving every kind at least its minimum. */
export function allocate<K extends string>(
  total: number,
  weights: Record<K, { weight: number; min: number }>,
): Record<K, number> {
  const keys = Object.keys(weights) as K[];
  const sum = keys.reduce((s, k) => s + weights[k].weight, 0);
  const out = {} as Record<K, number>;
  for (const k of keys) out[k] = Math.max(weights[k].min, Math.round((total * weights[k].weight) / sum));
  return out;
}

/** The manifest's `scenario` as `npm run devnet` writes it (the manifest schema keeps it free-form). */
export interface DevnetScenario {
  scenarioVersion: 1;
  namesRequested: number;
  sizes: Record<string, number>;
  labels: string[];
  unhealableLabels: string[];
  oddLabels: Record<string, string>;
  names: NameFacts[];
  primaryNames: {
    root: Record<string, { legacy?: string; default?: string }>;
    base: Record<string, string>;
    linea: Record<string, string>;
  };
  /** One account with a primary name on every chain whose ETH address record points back at it. */
  crossChainPrimary: { address: Address; names: Record<string, string | undefined> };
  accounts: Address[];
  otherContracts: Record<string, Record<string, Address>>;
  /** Every registration and renewal: the registrar event with the controller events of the same label and tx. */
  registrarActions: import("../actions").RegistrarActionFact[];
  /** Name sales through the root chain's Seaport stand-in (played by scenario/sales.ts). */
  nameSales: NameSalesScenario;
  /** ENSv2 on the root chain: contracts, registries, names, role changes and event counts. */
  ensv2: import("./ensv2-model").Ensv2Scenario;
  /** Names with every record kind of a real profile: one ENSv1 (the cross-chain account's root name), one ENSv2. */
  fullProfiles: import("./full-profile").FullProfileFacts[];
  /** `<datasource>/<Contract>:<Event>` → logs emitted. */
  eventCounts: Record<string, number>;
  /** Latest block per chain id after the scenario and its padding. */
  blocks: Record<string, number>;
}

/** What the scenario sold: the sale the indexer must report for the fill in `transactionHash`. */
export interface NameSaleFact {
  name: string;
  node: Hex;
  kind: "listing" | "offer";
  contract: Address;
  tokenId: Hex;
  assetNamespace: "erc721" | "erc1155";
  seller: Address;
  buyer: Address;
  currency: "ETH" | "ERC20";
  currencyToken: Address | null;
  /** Decimal strings (wei / the token's smallest unit). */
  price: string;
  sellerProceeds: string;
  transactionHash: Hex;
}

export interface NameSalesScenario {
  sales: NameSaleFact[];
  /** Fills that are no sale of one name (a bundle), with why. */
  notSales: { transactionHash: Hex; why: string; names: string[] }[];
  seaport: Address;
  saleToken: Address;
  feeRecipients: Address[];
}
