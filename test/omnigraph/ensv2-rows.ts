import { type Address, labelhash, namehash } from "viem";
import type { Rows } from "../../harness/subgraph-fixture/fixture";
import { domainIdOf, hex32, permissionId, resourceKey, storageIdOf } from "../../src/lib/ensv2-ids";
import { registrationOrderKeys } from "../../src/lib/registration-order";

/** A hand-made ENSv2 tree (ensv2_* rows): an `eth` registry, its names, each with a subregistry of a few children. */

export const CHAIN = 1;
const address = (tag: string, i: number) => `0x${tag}${i.toString(16).padStart(40 - tag.length, "0")}`;
export const OWNER = address("a11ce", 1);
export const ETH_REGISTRY = address("e7e7", 1);
export const SECOND_LEVEL = 220;
export const CHILDREN = 3;

export function ensv2Rows(): Rows {
  const rows: Rows = {
    ensv2_registry: [],
    ensv2_domain: [],
    ensv2_registration: [],
    ensv2_permission: [],
  };
  const registry = (addr: string, name: string, canonicalDomainId: string | null, isRoot = false) =>
    rows.ensv2_registry!.push({
      id: `${CHAIN}-${addr}`,
      chainId: CHAIN,
      address: addr,
      isRoot,
      linkedBy: canonicalDomainId ? [canonicalDomainId] : [],
      canonicalDomainId,
      canonicalName: name,
      createdAt: 1n,
    });
  const domain = (reg: string, label: string, parentName: string, i: number, subregistry: string | null) => {
    const storage = storageIdOf(BigInt(labelhash(label)));
    const storageId = hex32(storage);
    // The indexer's ids (the peer's format: the storage id and the resource in decimal).
    const id = domainIdOf(CHAIN, reg as Address, storage);
    const name = `${label}.${parentName}`;
    const registrationId = `${1000 + i}-${rows.ensv2_domain!.length}`;
    rows.ensv2_domain!.push({
      id,
      chainId: CHAIN,
      registryId: `${CHAIN}-${reg}`,
      registry: reg,
      storageId,
      tokenId: storageId,
      tokenVersion: 0n,
      resource: storageId,
      permissionIds: [],
      labelhash: labelhash(label),
      label,
      name,
      node: namehash(name),
      subregistry,
      owner: OWNER,
      expiry: 2_000_000_000n + BigInt(i),
      resolver: null,
      status: "registered",
      latestRegistrationId: registrationId,
      ...registrationOrderKeys(BigInt(1_700_000_000 + i), 2_000_000_000n + BigInt(i)),
      createdAt: 1n,
      updatedAt: 1n,
    });
    rows.ensv2_registration!.push({
      id: registrationId,
      chainId: CHAIN,
      blockNumber: BigInt(1000 + i),
      blockTimestamp: BigInt(1_700_000_000 + i),
      logIndex: rows.ensv2_domain!.length,
      transactionHash: `0x${"ab".repeat(32)}`,
      domainId: id,
      kind: "registration",
      tokenId: storageId,
      owner: OWNER,
      expiry: 2_000_000_000n + BigInt(i),
      sender: OWNER,
    });
    rows.ensv2_permission!.push({
      id: permissionId(CHAIN, reg as Address, storage, OWNER as Address),
      chainId: CHAIN,
      contract: reg,
      resource: resourceKey(storage),
      account: OWNER,
      roles: 1n,
      domainId: id,
      updatedAt: 1n,
    });
    return { id, name };
  };
  registry(ETH_REGISTRY, "eth", null);
  for (let i = 0; i < SECOND_LEVEL; i++) {
    const sub = address("5b", i);
    const parent = domain(ETH_REGISTRY, `v2name${i}`, "eth", i, sub);
    registry(sub, parent.name, parent.id);
    for (let c = 0; c < CHILDREN; c++) domain(sub, `child${c}`, parent.name, i, null);
  }
  return rows;
}
