import { pgTable, text } from "drizzle-orm/pg-core";
import { getAddress, type Hex, toHex } from "viem";
import { describe, expect, it } from "vitest";
// biome-ignore format: on one line, so that the @ts-expect-error under this comment covers the module path
// @ts-expect-error Ponder's built module, as patched (patches/ponder+0.17.7+021+recordProfilePattern-derived-keys.patch)
import { recordProfilePattern, recoverProfilePattern } from "../../node_modules/ponder/dist/esm/indexing-store/profile.js";
// @ts-expect-error as above
import { getPrimaryKeyCache } from "../../node_modules/ponder/dist/esm/indexing-store/utils.js";
import { domainIdOf } from "../../src/lib/ensv2-ids";
import { domainId, eventId } from "../../src/lib/ids";
import { makeSubnode, namehash, tokenIdToHex32 } from "../../src/lib/names";
import { recordKeyId, resolverRecordsId } from "../../src/lib/resolution-ids";
import { setEnsv2Anchors } from "../../src/plugins/ensv2/lib/context";
import { deriveEnsv2RowKeys } from "../../src/plugins/ensv2/lib/key-derivations";
import { deriveRecordKeys } from "../../src/plugins/protocol-acceleration/lib/record-key-derivations";
import { deriveListCountKeys } from "../../src/plugins/shared/list-count-keys";
import { setRootRegistries } from "../../src/plugins/shared/root-registries";
import {
  deriveNewOwnerSubnodes,
  deriveOtherRootRegistry,
  deriveSubnodesOf,
  deriveTransferEventIds,
  keyDerivations,
} from "../../src/plugins/shared/row-key-derivations";

/*
 * Ponder's row cache, once a table is evicted, predicts the rows the next batch reads from patterns recorded on
 * earlier events, and loads them in one query. These tests record a pattern on one event the way Ponder does and
 * recover it on another, as the prefetch does: the predicted key must be the key the handlers compute.
 */

const byId = pgTable("rows", { id: text("id").primaryKey() });
const primaryKeys = getPrimaryKeyCache([byId]);

const ETH = namehash("eth");
// What registerIndexing() and the resolver handlers' register() tell the row cache.
deriveNewOwnerSubnodes();
deriveOtherRootRegistry();
deriveRecordKeys();
deriveSubnodesOf(ETH, "eth");
const IDS = { ensRootChainId: 1 };
deriveTransferEventIds(() => IDS);
const ETH_REGISTRY = getAddress(toHex(0xe7e, { size: 20 })).toLowerCase() as `0x${string}`;
setEnsv2Anchors({ rootRegistry: ETH_REGISTRY, ethRegistry: ETH_REGISTRY });
deriveEnsv2RowKeys(() => IDS);
deriveListCountKeys();

const word = (n: number): Hex => toHex(n, { size: 32 });
const address = (n: number) => getAddress(toHex(n, { size: 20 }));

function logEvent(
  args: Record<string, unknown>,
  contract = address(0xabc),
  chainId = 1,
  at = { block: 17n, logIndex: 3 },
) {
  return {
    type: "log",
    chain: { id: chainId },
    eventCallback: { name: "Test:Event" },
    event: {
      id: "event-id",
      args,
      log: { address: contract, logIndex: at.logIndex },
      block: { hash: word(900), number: at.block, timestamp: 1_700_000_000n },
      transaction: { hash: word(901), from: address(0xf00), to: address(0xbee), transactionIndex: 0 },
    },
  };
}

/** The pattern Ponder records for `key` on `seen`, then the key it predicts for `next`. */
function predict(
  seen: ReturnType<typeof logEvent>,
  key: string,
  next: ReturnType<typeof logEvent>,
): string | undefined {
  const pattern = recordProfilePattern(seen, byId, { id: key }, [], primaryKeys);
  expect(pattern, `a pattern for ${key}`).toBeDefined();
  return recoverProfilePattern(pattern, next).id;
}

describe("row keys Ponder's prefetch can predict (patch 021 and src/plugins/shared/row-key-derivations.ts)", () => {
  it("predicts a NewOwner's subnode from (node, label)", () => {
    const first = logEvent({ node: word(1), label: word(2), owner: address(7) });
    const second = logEvent({ node: word(3), label: word(4), owner: address(8) });
    expect(predict(first, domainId(makeSubnode(word(1), word(2))), second)).toBe(
      domainId(makeSubnode(word(3), word(4))),
    );
  });

  it("predicts the other root registry's record of a subnode, in both directions, and nothing off the root chain", () => {
    const [current, old] = [address(0xc0), address(0x01d)];
    setRootRegistries({ chainId: 1, current, old });
    try {
      const recordOf = (registry: string, node: Hex, label: Hex) =>
        `1-${registry.toLowerCase()}-${domainId(makeSubnode(node, label))}`;
      const newOwner = (registry: string, n: number, chainId = 1) =>
        logEvent({ node: word(n), label: word(n + 1), owner: address(7) }, registry as Hex, chainId);
      // A write to the old registry reads the current one's record, and the other way round.
      expect(predict(newOwner(old, 1), recordOf(current, word(1), word(2)), newOwner(old, 5))).toBe(
        recordOf(current, word(5), word(6)),
      );
      expect(predict(newOwner(current, 1), recordOf(old, word(1), word(2)), newOwner(current, 5))).toBe(
        recordOf(old, word(5), word(6)),
      );
      const pattern = recordProfilePattern(
        newOwner(old, 1),
        byId,
        { id: recordOf(current, word(1), word(2)) },
        [],
        primaryKeys,
      );
      expect(recoverProfilePattern(pattern, newOwner(old, 5, 8453)).id).toBeUndefined();
      expect(recoverProfilePattern(pattern, newOwner(address(0xabc), 5)).id).toBeUndefined();
    } finally {
      setRootRegistries(null);
    }
  });

  it("predicts a registrar's subnode from a token id or a labelhash under the managed name", () => {
    const first = logEvent({ id: 11n, owner: address(7), expires: 5n });
    const second = logEvent({ id: 12n, owner: address(7), expires: 6n });
    expect(predict(first, domainId(makeSubnode(ETH, tokenIdToHex32(11n))), second)).toBe(
      domainId(makeSubnode(ETH, tokenIdToHex32(12n))),
    );
    const controller = (n: number) => logEvent({ label: word(n), owner: address(7), name: "x" });
    expect(predict(controller(21), makeSubnode(ETH, word(21)), controller(22))).toBe(makeSubnode(ETH, word(22)));
  });

  it("predicts lowercased addresses and token ids as 32-byte hex, alone and inside composite ids", () => {
    const transfer = (from: number, tokenId: bigint) =>
      logEvent({ from: address(from), to: address(0x99), tokenId }, address(0xc0ffee), 31337);
    expect(predict(transfer(1, 5n), address(1).toLowerCase(), transfer(2, 6n))).toBe(address(2).toLowerCase());
    expect(predict(transfer(1, 5n), tokenIdToHex32(5n), transfer(2, 6n))).toBe(tokenIdToHex32(6n));
    const tokenRow = (tokenId: bigint) => `31337-${address(0xc0ffee).toLowerCase()}-${tokenIdToHex32(tokenId)}`;
    expect(predict(transfer(1, 5n), tokenRow(5n), transfer(2, 6n))).toBe(tokenRow(6n));
  });

  it("predicts a resolver's keyed records at version 0: addresses, texts, interfaces", () => {
    const resolver = address(0x5e5);
    const recordOf = (node: Hex, key: string) => recordKeyId(resolverRecordsId(31337, resolver, node), 0n, key);
    const addressChanged = (n: number, coinType: bigint) =>
      logEvent({ node: word(n), coinType, newAddress: "0x1234" }, resolver, 31337);
    expect(predict(addressChanged(1, 60n), recordOf(word(1), "60"), addressChanged(2, 2147492101n))).toBe(
      recordOf(word(2), "2147492101"),
    );
    const addrChanged = (n: number) => logEvent({ node: word(n), a: address(n) }, resolver, 31337);
    expect(predict(addrChanged(1), recordOf(word(1), "60"), addrChanged(2))).toBe(recordOf(word(2), "60"));
    const textChanged = (n: number, key: string) =>
      logEvent({ node: word(n), indexedKey: word(99), key, value: "v" }, resolver, 31337);
    expect(predict(textChanged(1, "url"), recordOf(word(1), "url"), textChanged(2, "com.twitter"))).toBe(
      recordOf(word(2), "com.twitter"),
    );
    const interfaceChanged = (n: number) =>
      logEvent({ node: word(n), interfaceID: "0x01FFC9A7", implementer: address(5) }, resolver, 31337);
    expect(predict(interfaceChanged(1), recordOf(word(1), "0x01ffc9a7"), interfaceChanged(2))).toBe(
      recordOf(word(2), "0x01ffc9a7"),
    );
  });

  it("predicts an ERC-1155 transfer's event row (sub-index 0), on the root chain and on another", () => {
    const transferSingle = (chainId: number, block: bigint, logIndex: number) =>
      logEvent(
        { operator: address(1), from: address(2), to: address(3), id: 11n, value: 1n },
        address(0xa11),
        chainId,
        { block, logIndex },
      );
    for (const chainId of [1, 59144]) {
      const seen = transferSingle(chainId, 17_000n, 41);
      const next = transferSingle(chainId, 18_250n, 7);
      expect(predict(seen, eventId(IDS, chainId, 17_000n, 41, 0), next)).toBe(eventId(IDS, chainId, 18_250n, 7, 0));
    }
    expect(eventId(IDS, 59144, 18_250n, 7, 0)).toBe("18250-7-0-59144");
  });

  it("predicts ENSv2's domain (version bits cleared), token and log-keyed rows", () => {
    const registry = address(0xe2);
    const version = (n: bigint, v: bigint) => (n << 32n) | v;
    const registered = (tokenId: bigint, at: { block: bigint; logIndex: number }) =>
      logEvent({ tokenId, label: "x", owner: address(4), expiry: 9n, sender: address(4) }, registry, 31337, at);
    const first = registered(version(7n, 3n), { block: 40n, logIndex: 2 });
    const second = registered(version(8n, 0n), { block: 41n, logIndex: 5 });
    expect(predict(first, domainIdOf(31337, registry, version(7n, 3n)), second)).toBe(
      domainIdOf(31337, registry, version(8n, 0n)),
    );
    expect(domainIdOf(31337, registry, version(8n, 5n))).toBe(domainIdOf(31337, registry, version(8n, 0n)));
    expect(predict(first, eventId(IDS, 31337, 40n, 2), second)).toBe(eventId(IDS, 31337, 41n, 5));
    // A regenerated token (its version bumped) names the domain by its new id.
    const regenerated = (oldTokenId: bigint, newTokenId: bigint) =>
      logEvent({ oldTokenId, newTokenId }, registry, 31337);
    expect(
      predict(
        regenerated(version(7n, 3n), version(7n, 4n)),
        domainIdOf(31337, registry, version(7n, 4n)),
        regenerated(version(8n, 0n), version(8n, 1n)),
      ),
    ).toBe(domainIdOf(31337, registry, version(8n, 0n)));
    // The `.eth` registrar emits; the domain is the ETH registry's.
    const priced = (tokenId: bigint) =>
      logEvent({ tokenId, duration: 1n, paymentToken: address(5), referrer: word(0), base: 1n, premium: 0n }, registry);
    expect(
      predict(priced(version(7n, 1n)), domainIdOf(1, ETH_REGISTRY, version(7n, 1n)), priced(version(9n, 0n))),
    ).toBe(domainIdOf(1, ETH_REGISTRY, version(9n, 0n)));
    const transfer = (id: bigint) =>
      logEvent({ operator: address(1), from: address(2), to: address(3), id, value: 1n }, registry, 31337);
    const token = (id: bigint) => `31337-${registry.toLowerCase()}-${tokenIdToHex32(id)}`;
    expect(predict(transfer(version(7n, 1n)), token(version(7n, 1n)), transfer(version(9n, 2n)))).toBe(
      token(version(9n, 2n)),
    );
  });

  it("predicts the kept list counts: a parent's children, an owner's ENSv1 and ENSv2 domains, a registry's domains", () => {
    const newOwner = (n: number, owner: number) =>
      logEvent({ node: word(n), label: word(50 + n), owner: address(owner) });
    expect(predict(newOwner(1, 7), `v1-children:${word(1)}`, newOwner(2, 8))).toBe(`v1-children:${word(2)}`);
    expect(predict(newOwner(1, 7), `v1-owner:${address(7).toLowerCase()}`, newOwner(2, 8))).toBe(
      `v1-owner:${address(8).toLowerCase()}`,
    );
    const transfer = (from: number, to: number) => logEvent({ from: address(from), to: address(to), tokenId: 5n });
    expect(predict(transfer(1, 2), `v2-owner:${address(1).toLowerCase()}`, transfer(3, 4))).toBe(
      `v2-owner:${address(3).toLowerCase()}`,
    );
    const registry = (n: number) => logEvent({ tokenId: 1n }, address(n), 31337);
    expect(predict(registry(0xe1), `v2-registry:31337-${address(0xe1).toLowerCase()}`, registry(0xe2))).toBe(
      `v2-registry:31337-${address(0xe2).toLowerCase()}`,
    );
  });

  it("predicts nothing for an event a derivation does not apply to, and leaves keys it cannot explain unrecorded", () => {
    const newOwner = logEvent({ node: word(1), label: word(2), owner: address(7) });
    const pattern = recordProfilePattern(
      newOwner,
      byId,
      { id: domainId(makeSubnode(word(1), word(2))) },
      [],
      primaryKeys,
    );
    expect(recoverProfilePattern(pattern, logEvent({ node: word(1), owner: address(7) })).id).toBeUndefined();
    expect(recordProfilePattern(newOwner, byId, { id: word(12345) }, [], primaryKeys)).toBeUndefined();
  });

  it("registers each managed name's derivations once, under stable names", () => {
    const before = Object.keys(keyDerivations()).length;
    deriveSubnodesOf(ETH, "eth");
    expect(Object.keys(keyDerivations())).toHaveLength(before);
    expect(Object.keys(keyDerivations())).toEqual(
      expect.arrayContaining(["subnode(args.node, args.label)", "subnode(eth, args.id)", "subnode(eth, args.label)"]),
    );
  });
});
