import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Abi,
  type AbiEvent,
  type Address,
  createPublicClient,
  decodeFunctionResult,
  encodeFunctionData,
  type Hex,
  http,
  type PublicClient,
  parseAbi,
  toEventSelector,
  toHex,
  zeroAddress,
} from "viem";
import { packetToBytes } from "viem/ens";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

import type { DevnetManifest } from "../../src/namespaces/devnet-manifest";
import { REGISTRATION_ROLE_BITMAP, REGISTRY_ROLES, STATUS } from "../src/ensv2-roles";
import { devnetAbis, type RunningDevnet, scenarioOf, startDevnet } from "../src/index";
import { labelhash, nodeOf } from "../src/names";
import type { Ensv2Scenario } from "../src/scenario/ensv2-model";

const SEED = 3;
const NAMES = 30;
/** NameWrapper's CANNOT_SET_RESOLVER fuse. */
const CANNOT_SET_RESOLVER = 8;

let devnet: RunningDevnet;
let manifest: DevnetManifest;
let dir: string;
let client: PublicClient;
let v2: Ensv2Scenario;

const v2Abis = devnetAbis();
const PermissionedRegistryAbi = v2Abis.PermissionedRegistry;
const UserRegistryAbi = v2Abis.UserRegistry;
const WrapperRegistryAbi = v2Abis.WrapperRegistry;
const PermissionedResolverAbi = v2Abis.PermissionedResolver;
const ETHRegistrarAbi = v2Abis.ETHRegistrar;
const UniversalResolverV2Abi = v2Abis.UniversalResolverV2;
const ENSV1ResolverAbi = v2Abis.ENSV1Resolver;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ensv2-test-"));
  devnet = await startDevnet({ seed: SEED, names: NAMES, manifestPath: join(dir, "manifest.json") });
  manifest = devnet.manifest;
  const root = manifest.chains[String(manifest.ensv2!.chainId)]!;
  client = createPublicClient({ transport: http(root.rpcUrl, { batch: { batchSize: 500 } }) });
  v2 = scenarioOf(manifest).ensv2;
}, 240_000);

afterAll(async () => {
  await devnet?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const read = <T>(address: Address, abi: Abi, functionName: string, args: unknown[] = []) =>
  client.readContract({ address, abi, functionName, args } as never) as Promise<T>;
const labelId = (label: string) => BigInt(labelhash(label));
/** A manifest contract's address (the schema keeps it a plain string). */
const at = (ref: { address?: string } | undefined) => ref!.address! as Address;
const ADDR_ABI = parseAbi(["function addr(bytes32 node) view returns (address)"]);
/** `UniversalResolverV2.resolve(dnsEncode(name), addr(node))` by eth_call: the address and the resolver that answered. */
async function resolveAddr(name: string, labels: string[]): Promise<[Address, Address]> {
  const [result, resolver] = await read<[Hex, Address]>(
    at(manifest.ensv2!.contracts.UniversalResolverV2),
    UniversalResolverV2Abi as Abi,
    "resolve",
    [toHex(packetToBytes(name)), encodeFunctionData({ abi: ADDR_ABI, functionName: "addr", args: [nodeOf(labels)] })],
  );
  const addr = decodeFunctionResult({ abi: ADDR_ABI, functionName: "addr", data: result });
  return [addr.toLowerCase() as Address, resolver.toLowerCase() as Address];
}

describe("ENSv2 on the devnet's root chain", () => {
  it("links the .eth registry under the root registry, both ways, and lists its contracts in the manifest", async () => {
    const c = manifest.ensv2!.contracts;
    const [rootAddr, ethAddr] = [at(c.RootRegistry), at(c.ETHRegistry)];
    expect(
      (await read<Address>(rootAddr, PermissionedRegistryAbi as Abi, "getSubregistry", ["eth"])).toLowerCase(),
    ).toBe(ethAddr);
    const [parent, label] = await read<[Address, string]>(ethAddr, PermissionedRegistryAbi as Abi, "getParent");
    expect([parent.toLowerCase(), label]).toEqual([rootAddr, "eth"]);
    for (const name of [
      "ENSV1Resolver",
      "ETHRegistrar",
      "StandardRentPriceOracle",
      "UnlockedMigrationController",
      "WrapperRegistryImpl",
      "LockedMigrationController",
      "VerifiableFactory",
      "UserRegistryImpl",
      "PermissionedResolverImpl",
      "UniversalResolverV2",
    ]) {
      expect(await client.getCode({ address: at(c[name]) }), name).toMatch(/^0x[0-9a-f]{100,}$/);
    }
  });

  it("every name's token, owner, status, expiry, resolver and subregistry read from its registry as the scenario says", async () => {
    const vias = new Set(v2.names.map((f) => f.via));
    expect([...vias].sort()).toEqual([
      "migrated-emancipated",
      "migrated-locked",
      "migrated-unwrapped",
      "migrated-wrapped",
      "premigrated",
      "registrar",
      "registry",
      "reserved",
      "subname",
    ]);
    for (const f of v2.names) {
      const what = `${f.name} (${f.via})`;
      const label = f.labels[0]!;
      const tokenId = BigInt(f.tokenId);
      expect(await read<bigint>(f.registry, PermissionedRegistryAbi as Abi, "getTokenId", [labelId(label)]), what).toBe(
        tokenId,
      );
      // The stable key: the token id with its 32 version bits cleared is the labelhash with them cleared.
      expect(tokenId >> 32n, what).toBe(labelId(label) >> 32n);
      const status = await read<number>(f.registry, PermissionedRegistryAbi as Abi, "getStatus", [tokenId]);
      const owner = (
        await read<Address>(f.registry, PermissionedRegistryAbi as Abi, "ownerOf", [tokenId])
      ).toLowerCase();
      expect(Number(await read<bigint>(f.registry, PermissionedRegistryAbi as Abi, "getExpiry", [tokenId])), what).toBe(
        f.expiry,
      );
      if (f.status === "registered") {
        expect(status, what).toBe(STATUS.REGISTERED);
        expect(owner, what).toBe(f.owner!.toLowerCase());
        expect(await read<bigint>(f.registry, UserRegistryAbi as Abi, "balanceOf", [f.owner, tokenId]), what).toBe(1n);
        expect(
          (await read<Address>(f.registry, PermissionedRegistryAbi as Abi, "getResolver", [label])).toLowerCase(),
          what,
        ).toBe(f.resolver ?? zeroAddress);
        expect(
          (await read<Address>(f.registry, PermissionedRegistryAbi as Abi, "getSubregistry", [label])).toLowerCase(),
          what,
        ).toBe(f.subregistry ?? zeroAddress);
      } else if (f.status === "reserved") {
        expect(status, what).toBe(STATUS.RESERVED);
        expect(owner, what).toBe(zeroAddress);
      } else {
        // Expired: available again, the token reads unowned, though its last holder still holds the ERC-1155 balance.
        expect(status, what).toBe(STATUS.AVAILABLE);
        expect(owner, what).toBe(zeroAddress);
        expect(
          (await read<Address>(f.registry, PermissionedRegistryAbi as Abi, "latestOwnerOf", [tokenId])).toLowerCase(),
          what,
        ).toBe(f.owner!.toLowerCase());
      }
    }
  });

  it("hangs user registries three levels deep, each linked from its parent and naming it, one re-parented", async () => {
    const users = v2.registries.filter((r) => r.kind === "user");
    // Two trees of two, and one registry used before it was linked.
    expect(users.length).toBe(5);
    expect(users.filter((r) => r.usedBeforeLink).length).toBe(1);
    for (const r of users) {
      const [parent, label] = await read<[Address, string]>(r.address, UserRegistryAbi as Abi, "getParent");
      expect([parent.toLowerCase(), label], r.name).toEqual([r.parent, r.parentLabel]);
      expect(
        (
          await read<Address>(r.parent!, PermissionedRegistryAbi as Abi, "getSubregistry", [r.parentLabel])
        ).toLowerCase(),
        r.name,
      ).toBe(r.address);
    }
    // Three labels below .eth: a name in a registry whose parent registry is itself a user registry.
    const deepest = v2.names.filter((f) => f.labels.length === 4);
    expect(deepest.length).toBe(2);
    const moved = users.find(
      (r) =>
        r.parentLabel !== undefined &&
        v2.names.some((f) => f.registry === r.parent && f.labels[0] === r.parentLabel && f.subregistry === r.address) &&
        users.some((p) => p.address === r.parent),
    );
    expect(moved).toBeDefined();
    // The re-parenting left SubregistryUpdated(…, 0) for the old label and ParentUpdated twice on the moved registry.
    const parentUpdates = await client.getLogs({
      address: moved!.address,
      event: (UserRegistryAbi as Abi).find((x): x is AbiEvent => x.type === "event" && x.name === "ParentUpdated")!,
      fromBlock: 0n,
    });
    expect(parentUpdates.map((l) => (l.args as { label: string }).label).at(-1)).toBe(moved!.parentLabel);
  });

  it("resolver records written on PermissionedResolver proxies read back, including one written by a granted account", async () => {
    const withRecords = v2.names.filter((f) => f.texts && f.resolver);
    expect(withRecords.length).toBeGreaterThan(2);
    expect(withRecords.some((f) => f.texts!.description)).toBe(true);
    for (const f of withRecords) {
      const node = nodeOf(f.labels);
      for (const [key, value] of Object.entries(f.texts!)) {
        expect(
          await read<string>(f.resolver!, PermissionedResolverAbi as Abi, "text", [node, key]),
          `${f.name} ${key}`,
        ).toBe(value);
      }
      if (f.addr)
        expect((await read<Address>(f.resolver!, PermissionedResolverAbi as Abi, "addr", [node])).toLowerCase()).toBe(
          f.addr.toLowerCase(),
        );
    }
  });

  it("UniversalResolverV2 answers addr(node) by eth_call for every ENSv2 name with a PermissionedResolver record", async () => {
    const ur = at(manifest.ensv2!.contracts.UniversalResolverV2);
    expect(
      (await read<Address>(ur, UniversalResolverV2Abi as Abi, "ROOT_REGISTRY")).toLowerCase(),
      "built on the root registry",
    ).toBe(at(manifest.ensv2!.contracts.RootRegistry));
    const withAddr = v2.names.filter((f) => f.addr && f.resolver && f.status === "registered");
    expect(withAddr.length).toBeGreaterThan(2);
    for (const f of withAddr) {
      expect(await resolveAddr(f.name, f.labels), f.name).toEqual([f.addr!.toLowerCase(), f.resolver!.toLowerCase()]);
    }
    // A subname's resolver is found in the user registry three levels down, its canonical parent's name included.
    const sub = v2.names.find((f) => f.via === "subname" && f.resolver);
    if (sub) expect((await resolveAddr(sub.name, sub.labels))[1], sub.name).toBe(sub.resolver!.toLowerCase());
  });

  it("a role grant and its revocation each regenerate the token; the owner keeps the registrar's roles, the friend none", async () => {
    const regenerated = v2.names.filter((f) => f.regenerations > 0);
    expect(regenerated.length).toBe(1);
    const f = regenerated[0]!;
    const eth = at(manifest.ensv2!.contracts.ETHRegistry);
    expect(BigInt(f.tokenId) & 0xffffffffn).toBe(2n);
    const logs = await client.getLogs({
      address: eth,
      event: (PermissionedRegistryAbi as Abi).find(
        (x): x is AbiEvent => x.type === "event" && x.name === "TokenRegenerated",
      )!,
      fromBlock: 0n,
    });
    const chain = logs.filter(
      (l) => (l.args as { oldTokenId: bigint }).oldTokenId >> 32n === labelId(f.labels[0]!) >> 32n,
    );
    expect(chain.map((l) => (l.args as { newTokenId: bigint }).newTokenId)).toEqual([
      BigInt(f.tokenId) - 1n,
      BigInt(f.tokenId),
    ]);
    expect(await read<bigint>(eth, PermissionedRegistryAbi as Abi, "roles", [BigInt(f.tokenId), f.owner])).toBe(
      REGISTRATION_ROLE_BITMAP,
    );
    const friend = v2.roleChanges.find((r) => r.on === f.labels[0] && !r.grant)!.account;
    expect(await read<bigint>(eth, PermissionedRegistryAbi as Abi, "roles", [BigInt(f.tokenId), friend])).toBe(0n);
  });

  it("migrated ENSv1 names are held by the migration controller in ENSv1 and by their owner in ENSv2", async () => {
    const abis = devnetAbis();
    const controller = at(manifest.ensv2!.contracts.UnlockedMigrationController);
    const ensroot = manifest.datasources.ensroot!.contracts;
    for (const f of v2.names.filter((x) => x.via === "migrated-unwrapped" || x.via === "migrated-wrapped")) {
      const v1 = scenarioOf(manifest).names.find((n) => n.name === f.name && n.chainId === manifest.ensv2!.chainId)!;
      expect(
        await read<Address>(at(ensroot.Registry), abis.ENSRegistryWithFallback, "resolver", [nodeOf(f.labels)]),
        f.name,
      ).toBe(zeroAddress);
      if (f.via === "migrated-unwrapped") {
        expect(
          (
            await read<Address>(at(ensroot.BaseRegistrar), abis.BaseRegistrarImplementation, "ownerOf", [
              labelId(f.labels[0]!),
            ])
          ).toLowerCase(),
        ).toBe(controller);
        expect(v1.registrant).toBe(controller);
      } else {
        expect(
          await read<bigint>(at(ensroot.NameWrapper), abis.NameWrapper, "balanceOf", [
            controller,
            BigInt(nodeOf(f.labels)),
          ]),
        ).toBe(1n);
        expect(v1.wrappedOwner).toBe(controller);
      }
    }
  });

  it("locked wrapped names migrate through the LockedMigrationController, each into a WrapperRegistry of its own", async () => {
    const abis = devnetAbis();
    const c = manifest.ensv2!.contracts;
    const ensroot = manifest.datasources.ensroot!.contracts;
    const wrappers = v2.registries.filter((r) => r.kind === "wrapper");
    // Two locked .eth 2LDs and a locked subname of the first, three levels deep.
    expect(wrappers.map((r) => r.name.split(".").length).sort()).toEqual([2, 2, 3]);
    const v1Names = scenarioOf(manifest).names.filter((n) => n.chainId === manifest.ensv2!.chainId);
    for (const r of wrappers) {
      // Canonical from birth: initialize() sets the parent; the parent registry links it.
      const [parent, label] = await read<[Address, string]>(r.address, WrapperRegistryAbi as Abi, "getParent");
      expect([parent.toLowerCase(), label], r.name).toEqual([r.parent, r.parentLabel]);
      expect(
        (await read<Address>(r.parent!, WrapperRegistryAbi as Abi, "getSubregistry", [r.parentLabel])).toLowerCase(),
      ).toBe(r.address);
      expect(await read<Hex>(r.address, WrapperRegistryAbi as Abi, "getWrappedNode"), r.name).toBe(
        nodeOf(r.name.split(".")),
      );
      expect((await read<Address>(r.address, WrapperRegistryAbi as Abi, "V1_RESOLVER")).toLowerCase()).toBe(
        at(c.ENSV1Resolver),
      );
      // ENSv1: the NameWrapper token went to the contract that migrated it (controller or parent WrapperRegistry).
      const receiver = r.parent === at(c.ETHRegistry) ? at(c.LockedMigrationController) : r.parent!;
      expect(
        (
          await read<Address>(at(ensroot.NameWrapper), abis.NameWrapper, "ownerOf", [BigInt(nodeOf(r.name.split(".")))])
        ).toLowerCase(),
        r.name,
      ).toBe(receiver);
      expect(v1Names.find((n) => n.name === r.name)?.wrappedOwner, r.name).toBe(receiver);
    }
    const locked = v2.names.filter((f) => f.via === "migrated-locked");
    expect(locked.length).toBe(3);
    for (const f of locked) {
      const roles = await read<bigint>(f.registry, WrapperRegistryAbi as Abi, "roles", [BigInt(f.tokenId), f.owner]);
      const rootRoles = await read<bigint>(f.subregistry!, WrapperRegistryAbi as Abi, "roles", [0n, f.owner]);
      const v1Resolver = await read<Address>(at(ensroot.Registry), abis.ENSRegistryWithFallback, "resolver", [
        nodeOf(f.labels),
      ]);
      // The frozen one (CANNOT_SET_RESOLVER, CANNOT_CREATE_SUBDOMAIN, CANNOT_BURN_FUSES) keeps its ENSv1 resolver
      // as its ENSv2 one and gets neither the resolver role, nor admin roles, nor a registrar on its registry.
      const frozen = (f.v1Fuses! & CANNOT_SET_RESOLVER) !== 0;
      if (frozen) expect(v1Resolver.toLowerCase(), f.name).toBe(f.resolver ?? zeroAddress);
      expect(roles & (REGISTRY_ROLES.SET_RESOLVER << 128n), f.name).toBe(
        frozen ? 0n : REGISTRY_ROLES.SET_RESOLVER << 128n,
      );
      expect(roles & REGISTRY_ROLES.SET_RESOLVER, f.name).toBe(frozen ? 0n : REGISTRY_ROLES.SET_RESOLVER);
      expect(roles & REGISTRY_ROLES.CAN_TRANSFER_ADMIN, f.name).toBe(REGISTRY_ROLES.CAN_TRANSFER_ADMIN);
      expect(rootRoles & REGISTRY_ROLES.REGISTRAR, f.name).toBe(frozen ? 0n : REGISTRY_ROLES.REGISTRAR);
      expect(rootRoles & REGISTRY_ROLES.UPGRADE, f.name).toBe(REGISTRY_ROLES.UPGRADE);
      if (!frozen) expect(v1Resolver, `${f.name}: ENSv1 resolver cleared`).toBe(zeroAddress);
    }
    expect(locked.filter((f) => (f.v1Fuses! & CANNOT_SET_RESOLVER) !== 0).length).toBe(1);
    // The emancipated, unlocked subname: unwrapped in ENSv1 (its WrapperRegistry holds the registry record) and
    // registered with the registrar's roles.
    const emancipated = v2.names.filter((f) => f.via === "migrated-emancipated");
    expect(emancipated.length).toBe(1);
    for (const f of emancipated) {
      expect(
        (
          await read<Address>(at(ensroot.Registry), abis.ENSRegistryWithFallback, "owner", [nodeOf(f.labels)])
        ).toLowerCase(),
      ).toBe(f.registry);
      expect(await read<bigint>(f.registry, WrapperRegistryAbi as Abi, "roles", [BigInt(f.tokenId), f.owner])).toBe(
        REGISTRATION_ROLE_BITMAP,
      );
    }
    // An emancipated subname still in ENSv1 cannot be registered over in its WrapperRegistry: it must migrate.
    const pending = v2.v1Fallbacks.find((x) => x.registry !== at(c.ETHRegistry))!;
    const parentOwner = v2.names.find((f) => f.subregistry === pending.registry)!.owner!;
    await expect(
      client.simulateContract({
        address: pending.registry,
        abi: WrapperRegistryAbi as Abi,
        functionName: "register",
        args: [pending.labels[0], parentOwner, zeroAddress, zeroAddress, 0n, BigInt(2 ** 40)],
        account: parentOwner,
      }),
    ).rejects.toThrow(/NameRequiresMigration/);
  });

  it("UniversalResolverV2 resolves names waiting for migration through ENSV1Resolver to their ENSv1 records", async () => {
    const fallback = at(manifest.ensv2!.contracts.ENSV1Resolver);
    // A premigrated .eth reservation and an emancipated subname of a migrated locked name, not migrated yet.
    expect(v2.v1Fallbacks.length).toBe(2);
    for (const f of v2.v1Fallbacks) {
      expect(await resolveAddr(f.name, f.labels), f.name).toEqual([f.addr.toLowerCase(), fallback]);
      const [resolver] = await read<[Address, boolean]>(fallback, ENSV1ResolverAbi as Abi, "getResolver", [
        toHex(packetToBytes(f.name)),
      ]);
      expect(resolver.toLowerCase(), `${f.name}: its ENSv1 resolver`).toBe(f.v1Resolver.toLowerCase());
    }
    const reserved = v2.names.find((f) => f.via === "premigrated")!;
    expect(reserved.status).toBe("reserved");
    expect(reserved.resolver).toBe(fallback);
  });

  it("counts every ENSv2 event it emitted; the counts equal eth_getLogs per contract and event", async () => {
    const c = manifest.ensv2!.contracts;
    const checks: [string, Address, Abi, string][] = [
      ["ETHRegistry", at(c.ETHRegistry), PermissionedRegistryAbi as Abi, "LabelRegistered"],
      ["ETHRegistry", at(c.ETHRegistry), PermissionedRegistryAbi as Abi, "LabelReserved"],
      ["ETHRegistry", at(c.ETHRegistry), PermissionedRegistryAbi as Abi, "TransferSingle"],
      ["ETHRegistry", at(c.ETHRegistry), PermissionedRegistryAbi as Abi, "EACRolesChanged"],
      ["ETHRegistrar", at(c.ETHRegistrar), ETHRegistrarAbi as Abi, "NameRegistered"],
      ["ETHRegistrar", at(c.ETHRegistrar), ETHRegistrarAbi as Abi, "NameRenewed"],
      ["ETHRegistrar", at(c.ETHRegistrar), ETHRegistrarAbi as Abi, "CommitmentMade"],
    ];
    for (const [contract, address, abi, name] of checks) {
      const event = abi.find((x): x is AbiEvent => x.type === "event" && x.name === name)!;
      const logs = await client.getLogs({ address, event, fromBlock: 0n });
      expect(logs.length, `${contract}:${name}`).toBeGreaterThan(0);
      expect(v2.eventCounts[`${contract}:${name}`], `${contract}:${name}`).toBe(logs.length);
    }
    // The registrar's payments: NameRegistered carries the payment token, referrer, base and premium.
    const registered = await client.getLogs({
      address: at(c.ETHRegistrar),
      event: (ETHRegistrarAbi as Abi).find((x): x is AbiEvent => x.type === "event" && x.name === "NameRegistered")!,
      fromBlock: 0n,
    });
    const args = registered.map((l) => l.args as { paymentToken: Address; premium: bigint; base: bigint });
    expect(new Set(args.map((a) => a.paymentToken.toLowerCase()))).toEqual(
      new Set([c.MockUSDC!.address, c.MockDAI!.address]),
    );
    expect(
      args.some((a) => a.premium > 0n),
      "the re-registration after expiry pays a premium",
    ).toBe(true);
    expect(toEventSelector(`event TokenRegenerated(uint256 indexed oldTokenId, uint256 indexed newTokenId)`)).toBe(
      toEventSelector(
        (PermissionedRegistryAbi as Abi).find(
          (x): x is AbiEvent => x.type === "event" && x.name === "TokenRegenerated",
        )!,
      ),
    );
  });
});

describe("ENSv2 scenario is the same for the same seed", () => {
  it("a second devnet with the seed gives the same names, tokens, owners and links (expiries follow the clock)", async () => {
    const again = await startDevnet({ seed: SEED, names: NAMES, manifestPath: join(dir, "again.json") });
    try {
      const strip = (s: Ensv2Scenario) => ({ ...s, names: s.names.map(({ expiry: _e, ...rest }) => rest) });
      expect(strip(scenarioOf(again.manifest).ensv2)).toEqual(strip(v2));
    } finally {
      await again.stop();
    }
  }, 240_000);
});
