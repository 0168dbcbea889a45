import { type Hex, keccak256, namehash, stringToBytes } from "viem";
import type { IndexingSnapshot, OmnichainStatus } from "../../src/api/shared/indexing-snapshot";
import { eventId } from "../../src/lib/ids";

/* A small, deterministic data set for the registrar-actions and name-tokens routes (database column names). */

export const ETH_NODE = namehash("eth");
export const BASE_NODE = namehash("base.eth");
export const ETH_REGISTRAR = "0x57f1887a8bf19b14fc0df6fd9b2acc9af147ea85";
export const BASE_REGISTRAR = "0x03c4738ee98ae44591e1a4a4f3cab6641d95dd9a";
export const NAME_WRAPPER = "0xd4416b13d2b3a9abae7acd5d6c2bbdbe25686401";
export const REFERRER = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";
export const USER = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
/** Chain 1 is the ENS root chain: its action ids are `<block>-<logIndex>`, Base's `<block>-<logIndex>-8453`. */
const MAINNET_IDS = { ensRootChainId: 1 };
export const ZERO = "0x0000000000000000000000000000000000000000";
export const ZERO32 = `0x${"0".repeat(64)}` as Hex;
export const HIGH_BYTES_REFERRER = "0xd724a3a8f3f25378f548cc52e6301cf6dd1f428534d3998077d4c20b42a207ea" as Hex;

export const labelhash = (label: string) => keccak256(stringToBytes(label));
const subnode = (parent: Hex, label: string) => keccak256(`${parent}${labelhash(label).slice(2)}` as Hex);

export const managedNameByNode: ReadonlyMap<string, string> = new Map([
  [ETH_NODE, "eth"],
  [BASE_NODE, "base.eth"],
]);

export function snapshot(status: OmnichainStatus = "omnichain-following", cursor = 1_700_000_000): IndexingSnapshot {
  return {
    strategy: "omnichain",
    slowestChainIndexingCursor: cursor,
    snapshotTime: cursor + 5,
    omnichainSnapshot: { omnichainStatus: status, chains: {}, omnichainIndexingCursor: cursor },
  };
}

export interface ExpectedAction {
  id: string;
  chainId: number;
  parentNode: Hex;
  node: Hex;
  label: string;
  timestamp: number;
  blockNumber: number;
  logIndex: number;
  encodedReferrer: Hex | null;
  decodedReferrer: string | null;
  priced: boolean;
}

/** 62 actions on two chains: groups of four share a timestamp, pairs a block, and two share all three (tie on id). */
export function registrarFixture() {
  const actions: ExpectedAction[] = [];
  for (let i = 0; i < 62; i++) {
    const base = i % 3 === 0 && i < 60;
    const chainId = i === 61 ? 8453 : base ? 8453 : 1;
    const parentNode = chainId === 8453 ? BASE_NODE : ETH_NODE;
    const label = i === 61 ? "name1" : `name${i % 20}`;
    const timestamp = i >= 60 ? 2000 : 1000 + Math.floor(i / 4) * 10;
    const blockNumber = i >= 60 ? 500 : 100 + Math.floor(i / 2);
    const logIndex = i >= 60 ? 1 : i % 2 === 0 ? 5 : 3;
    const encodedReferrer =
      i % 5 === 0
        ? (`0x${"0".repeat(24)}${REFERRER.slice(2)}` as Hex)
        : i % 7 === 0
          ? HIGH_BYTES_REFERRER
          : i % 11 === 0
            ? ZERO32
            : null;
    const decodedReferrer = encodedReferrer === null ? null : i % 5 === 0 ? REFERRER : ZERO;
    actions.push({
      id: eventId(MAINNET_IDS, chainId, blockNumber, logIndex),
      chainId,
      parentNode,
      node: subnode(parentNode, label),
      label,
      timestamp,
      blockNumber,
      logIndex,
      encodedReferrer,
      decodedReferrer,
      priced: chainId === 1,
    });
  }
  const seen = new Set<string>();
  const registrar_action = actions.map((a, i) => {
    const first = !seen.has(a.node);
    seen.add(a.node);
    return {
      id: a.id,
      type: first ? "registration" : "renewal",
      node: a.node,
      parent_node: a.parentNode,
      subregistry_id: a.chainId === 1 ? `1-${ETH_REGISTRAR}` : `8453-${BASE_REGISTRAR}`,
      chain_id: a.chainId,
      incremental_duration: 31_536_000 + i,
      registrant: USER,
      base_cost: a.priced ? String(1_000_000 + i) : null,
      premium: a.priced ? String(i % 2) : null,
      total: a.priced ? String(1_000_000 + i + (i % 2)) : null,
      encoded_referrer: a.encodedReferrer,
      decoded_referrer: a.decodedReferrer,
      with_referral: a.encodedReferrer !== null && a.encodedReferrer !== ZERO32,
      block_number: a.blockNumber,
      block_timestamp: a.timestamp,
      log_index: a.logIndex,
      transaction_hash: keccak256(stringToBytes(`tx${i}`)),
      event_ids: [a.id, eventId(MAINNET_IDS, a.chainId, a.blockNumber, a.logIndex + 1)],
    };
  });
  const lifecycles = new Map<Hex, Record<string, unknown>>();
  for (const a of actions) {
    const n = Number(a.label.slice(4));
    lifecycles.set(a.node, {
      id: a.node,
      subregistry_id: a.chainId === 1 ? `1-${ETH_REGISTRAR}` : `8453-${BASE_REGISTRAR}`,
      parent_node: a.parentNode,
      labelhash: labelhash(a.label),
      // name0–name9 have a controller label; name10–name14 a domain row; the rest neither (encoded)
      label: n < 10 ? a.label : null,
      expires_at: 1_900_000_000 + n,
    });
  }
  const domain = actions
    .filter((a) => a.chainId === 1 && Number(a.label.slice(4)) >= 10 && Number(a.label.slice(4)) < 15)
    .filter((a, i, all) => all.findIndex((b) => b.node === a.node) === i)
    .map((a) => domainRow(a.node, `${a.label}-fromdomain.eth`));
  // Only distinct ethernet and base subregistries.
  const subregistry = [
    { id: `1-${ETH_REGISTRAR}`, chain_id: 1, address: ETH_REGISTRAR, node: ETH_NODE },
    { id: `8453-${BASE_REGISTRAR}`, chain_id: 8453, address: BASE_REGISTRAR, node: BASE_NODE },
  ];
  return { actions, rows: { subregistry, registration_lifecycle: [...lifecycles.values()], registrar_action, domain } };
}

export function domainRow(id: Hex, name: string | null, expiryDate: number | null = null) {
  return {
    id,
    name,
    label_name: null,
    labelhash: null,
    parent_id: null,
    subdomain_count: 0,
    is_migrated: true,
    created_at: 1,
    owner_id: USER,
    expiry_date: expiryDate,
  };
}

/** Newest first, ties by block number, log index, id (what the API promises). */
export function newestFirst(a: ExpectedAction, b: ExpectedAction): number {
  return (
    b.timestamp - a.timestamp ||
    b.blockNumber - a.blockNumber ||
    b.logIndex - a.logIndex ||
    (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)
  );
}

export function tokensFixture() {
  const wrapped = subnode(ETH_NODE, "wrapped");
  const plain = subnode(ETH_NODE, "plain");
  const gone = subnode(ETH_NODE, "gone");
  const jesse = subnode(BASE_NODE, "jesse");
  const token = (chainId: number, contract: string, tokenId: Hex, ns: string, domainId: Hex, owner: string) => ({
    id: `${chainId}-${contract}-${tokenId}`,
    chain_id: chainId,
    contract,
    token_id: tokenId,
    asset_namespace: ns,
    domain_id: domainId,
    owner,
    mint_status: owner === ZERO ? "burned" : "minted",
  });
  const lifecycle = (node: Hex, parent: Hex, label: string, sub: string, withLabel: boolean) => ({
    id: node,
    subregistry_id: sub,
    parent_node: parent,
    labelhash: labelhash(label),
    label: withLabel ? label : null,
    expires_at: 1_800_000_000,
  });
  return {
    nodes: { wrapped, plain, gone, jesse },
    rows: {
      name_token: [
        token(1, ETH_REGISTRAR, labelhash("wrapped"), "erc721", wrapped, NAME_WRAPPER),
        token(1, NAME_WRAPPER, wrapped, "erc1155", wrapped, USER),
        token(1, ETH_REGISTRAR, labelhash("plain"), "erc721", plain, USER),
        token(1, NAME_WRAPPER, plain, "erc1155", plain, ZERO),
        token(1, ETH_REGISTRAR, labelhash("gone"), "erc721", gone, ZERO),
        token(8453, BASE_REGISTRAR, labelhash("jesse"), "erc721", jesse, USER),
      ],
      registration_lifecycle: [
        lifecycle(wrapped, ETH_NODE, "wrapped", `1-${ETH_REGISTRAR}`, true),
        lifecycle(plain, ETH_NODE, "plain", `1-${ETH_REGISTRAR}`, false),
        lifecycle(gone, ETH_NODE, "gone", `1-${ETH_REGISTRAR}`, true),
        lifecycle(jesse, BASE_NODE, "jesse", `8453-${BASE_REGISTRAR}`, true),
      ],
      domain: [domainRow(wrapped, "wrapped.eth", 1_807_776_000)],
    },
  };
}
