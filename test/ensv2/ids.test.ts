import { labelhash } from "viem";
import { describe, expect, it } from "vitest";
import {
  domainIdOf,
  isV2DomainId,
  permissionId,
  registrationIdOf,
  renewalIdOf,
  resourceFromInput,
  storageIdOf,
  v2IdFromInput,
  withVersion,
} from "../../src/lib/ensv2-ids";

/*
 * The ENSv2 ids the Omnigraph shows, in the peer's format (enssdk's ids.ts: dash-joined, storage ids and resources in
 * decimal), and the ids a client may give back: today's, or the `0x` + 64 hex form of earlier builds.
 */

const REGISTRY = "0x835F0B284E78CD3F358BCF6CBA3B53809F09B79E";
const ETH_STORAGE = storageIdOf(BigInt(labelhash("eth")));
const ETH_DECIMAL = "35894389512221139346028120028875095598761990588366713962827482865183915769856";
const ETH_HEX = "0x4f5b812789fc606be1b3b16908db13fc7a9adf7ca72641f84d75b47000000000";

describe("ENSv2 ids in the peer's format", () => {
  it("writes a domain id with the storage id in decimal, whatever the token's version", () => {
    const id = `11155111-${REGISTRY.toLowerCase()}-${ETH_DECIMAL}`;
    expect(domainIdOf(11155111, REGISTRY, BigInt(labelhash("eth")))).toBe(id);
    expect(domainIdOf(11155111, REGISTRY, withVersion(ETH_STORAGE, 7n))).toBe(id);
    expect(ETH_STORAGE.toString()).toBe(ETH_DECIMAL);
  });

  it("writes permission, registration and renewal ids as the peer's SDK joins them", () => {
    const user = "0x801D2E48D378F161DBA7AD7AD002AD557714C191";
    expect(permissionId(1, REGISTRY, 0n, user)).toBe(`1-${REGISTRY.toLowerCase()}-0-${user.toLowerCase()}`);
    expect(permissionId(1, REGISTRY, ETH_STORAGE + 3n, user)).toBe(
      `1-${REGISTRY.toLowerCase()}-${ETH_STORAGE + 3n}-${user.toLowerCase()}`,
    );
    const domain = domainIdOf(1, REGISTRY, ETH_STORAGE);
    expect(registrationIdOf(domain, 0)).toBe(`${domain}-0`);
    expect(renewalIdOf(registrationIdOf(domain, 2), 1)).toBe(`${domain}-2-1`);
  });

  it("reads an id given in either form as today's, and leaves other ids alone", () => {
    const today = `11155111-${REGISTRY.toLowerCase()}-${ETH_DECIMAL}`;
    const earlier = `11155111-${REGISTRY.toLowerCase()}-${ETH_HEX}`;
    expect(v2IdFromInput(today)).toBe(today);
    expect(v2IdFromInput(earlier)).toBe(today);
    expect(v2IdFromInput(earlier.toUpperCase().replace("0X", "0x"))).toBe(today);
    // A permission (or a name reference) id: the number after the contract only.
    const user = "0x801d2e48d378f161dba7ad7ad002ad557714c191";
    expect(v2IdFromInput(`1-${REGISTRY.toLowerCase()}-0x${"0".repeat(64)}-${user}`)).toBe(
      `1-${REGISTRY.toLowerCase()}-0-${user}`,
    );
    // ENSv1 ids (a node; a resolver's `<address>-<node>`) and garbage are not ENSv2 ids.
    const node = `0x${"ab".repeat(32)}`;
    for (const other of [node, `${REGISTRY.toLowerCase()}-${node}`, `1-${node}-60`, "1-0xzz-0x00", "12-34"]) {
      expect(v2IdFromInput(other), other).toBe(other.toLowerCase());
    }
    expect([today, earlier].map(isV2DomainId)).toEqual([true, true]);
    expect([`1-${REGISTRY}`, `${today}-0`, node, `1-${REGISTRY}-0x00`, `1-${REGISTRY}-012`].map(isV2DomainId)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect([resourceFromInput(ETH_HEX), resourceFromInput("0"), resourceFromInput(ETH_DECIMAL)]).toEqual([
      ETH_DECIMAL,
      "0",
      ETH_DECIMAL,
    ]);
  });
});
