import { type Abi, type Address, encodeAbiParameters, zeroAddress } from "viem";
import { Chain, type Tx } from "../chain";
import { childNode, labelhash, nodeOf } from "../names";
import { type Ensv1ForMigration, MIGRATION_DATA } from "./ensv2-migration";
import type { Ensv2NameFacts } from "./ensv2-model";
import type { Ensv2Play } from "./ensv2-play";
import type { NameFacts } from "./model";

// NameWrapper fuses (ens-contracts INameWrapper.sol).
const CANNOT_UNWRAP = 1;
const CANNOT_BURN_FUSES = 2;
const CANNOT_TRANSFER = 4;
const CANNOT_SET_RESOLVER = 8;
const CANNOT_CREATE_SUBDOMAIN = 32;
const PARENT_CANNOT_CONTROL = 1 << 16;
/** contracts-v2's script/preMigration.ts reserves each name until its ENSv1 expiry plus this grace (its default). */
const PREMIGRATION_GRACE = 90 * 86_400;

type WrapperData = [owner: Address, fuses: number, expiry: bigint];

/**
 * Locked (CANNOT_UNWRAP) wrapped ENSv1 names migrated as contracts-v2 migrates them, and names left waiting for
 * migration that resolve through the ENSv1 fallback:
 *
 * 1. Premigration: `BatchRegistrar.batchRegister` reserves the chosen .eth 2LDs in the .eth registry with
 *    `ENSV1Resolver` as their resolver, until their ENSv1 expiry plus 90 days (script/preMigration.ts).
 * 2. In ENSv1, the owners burn CANNOT_UNWRAP on two wrapped .eth 2LDs (the second also CANNOT_SET_RESOLVER,
 *    CANNOT_CREATE_SUBDOMAIN and CANNOT_BURN_FUSES), and the first one's owner creates three emancipated
 *    (PARENT_CANNOT_CONTROL) wrapped subnames for another account: one locked too, two not.
 * 3. Each 2LD's owner sends its NameWrapper token to the LockedMigrationController with the migration data: the
 *    controller deploys the name's WrapperRegistry (a VerifiableFactory proxy of `WrapperRegistryImpl`, roles from
 *    the fuses) and registers the reserved name for the owner with that registry as its subregistry; the ENSv1
 *    resolver is cleared, or, with CANNOT_SET_RESOLVER, becomes the ENSv2 resolver.
 * 4. The subnames' holder sends the locked subname and one emancipated one to the 2LD's WrapperRegistry: the locked
 *    one gets a WrapperRegistry of its own, the other is unwrapped and registered with the registrar's roles. The
 *    third stays in ENSv1: the WrapperRegistry answers `ENSV1Resolver` as its resolver until it migrates.
 *
 * One more .eth 2LD with an ENSv1 address record is premigrated and not migrated: resolving it in ENSv2 goes through
 * `ENSV1Resolver` to its ENSv1 resolver. The ENSv1 facts of every name involved follow.
 */
export async function migrateLockedNames(play: Ensv2Play, v1: Ensv1ForMigration): Promise<void> {
  const { ctx } = play;
  const { chain } = ctx;
  const me = chain.deployer;
  const eth = play.address("ETHRegistry");
  const controller = play.address("LockedMigrationController");
  const fallbackResolver = play.address("ENSV1Resolver");
  const owners = new Set(ctx.owners);
  const now = await play.now();
  // Labels a DNS-encoded name can carry as they are (the devnet's odd labels hold dots, spaces and brackets).
  const all2lds = [...v1.book.byNode.values()].filter(
    (f) =>
      f.labels.length === 2 &&
      f.labels[1] === "eth" &&
      /^[a-z0-9-]+$/.test(f.labels[0]!) &&
      !f.deleted &&
      f.registrant !== undefined,
  );
  const v1ExpiryOf = new Map<NameFacts, number>();
  const v1Expiries = await chain.readMany<bigint>(
    all2lds.map((f) => ({
      to: v1.baseRegistrar,
      abi: v1.baseRegistrarAbi,
      functionName: "nameExpires",
      args: [BigInt(labelhash(f.labels[0]!))],
    })),
  );
  all2lds.forEach((f, i) => v1ExpiryOf.set(f, Number(v1Expiries[i])));
  // Registered in ENSv1 for at least another month.
  const live2lds = all2lds.filter((f) => v1ExpiryOf.get(f)! > now + 30 * 86_400);

  // Wrapped .eth 2LDs an account holds (not a migration controller), nobody's primary name (migration clears the
  // ENSv1 resolver), not transfer-locked.
  const wrapped = live2lds.filter(
    (f) => f.wrappedOwner && owners.has(f.wrappedOwner) && !f.unwrapped && !v1.primaryNames.has(f.name),
  );
  const wrappedData = await chain.readMany<WrapperData>(
    wrapped.map((f) => ({
      to: v1.nameWrapper,
      abi: v1.nameWrapperAbi,
      functionName: "getData",
      args: [BigInt(f.node)],
    })),
  );
  const lockable = wrapped.filter((_, i) => (wrappedData[i]![1] & CANNOT_TRANSFER) === 0);
  // The first one's owner has a PermissionedResolver where possible, so its names resolve in ENSv2.
  const withResolver = lockable.filter((f) => play.resolvers.has(f.wrappedOwner!));
  const [parent] = ctx.sample(withResolver.length > 0 ? withResolver : lockable, 1);
  const [frozen] = ctx.sample(
    lockable.filter((f) => f !== parent),
    1,
  );
  // A .eth 2LD with an ENSv1 address record, premigrated only: ENSv2 resolves it through the fallback.
  const waiting = ctx.sample(
    live2lds.filter(
      (f) =>
        f.addr &&
        f.resolver &&
        f !== parent &&
        f !== frozen &&
        (f.wrappedOwner ? owners.has(f.wrappedOwner) : f.registrant !== undefined && owners.has(f.registrant)),
    ),
    1,
  )[0];
  const locked = [parent, frozen].filter((f): f is NameFacts => f !== undefined);
  const premigrated = [...locked, ...(waiting ? [waiting] : [])];
  if (premigrated.length === 0) return;

  // 1. Premigration, as script/preMigration.ts does it: reserved with the ENSv1 fallback resolver.
  const reservedUntil = premigrated.map((f) => v1ExpiryOf.get(f)! + PREMIGRATION_GRACE);
  await chain.send([
    play.tx(me, play.address("BatchRegistrar"), "BatchRegistrar", "batchRegister", [
      zeroAddress,
      fallbackResolver,
      premigrated.map((f) => f.labels[0]!),
      reservedUntil.map(BigInt),
    ]),
  ]);
  if (waiting) {
    play.addName({
      name: waiting.name,
      labels: waiting.labels,
      via: "premigrated",
      registry: eth,
      status: "reserved",
      expiry: reservedUntil[premigrated.indexOf(waiting)]!,
      resolver: fallbackResolver,
    });
    play.v1Fallbacks.push({
      name: waiting.name,
      labels: waiting.labels,
      registry: eth,
      v1Resolver: waiting.resolver!,
      addr: waiting.addr!,
    });
  }
  if (!parent) return;

  // 2. Lock the names in ENSv1 and give the first one emancipated subnames.
  const wrapper = (from: Address, fn: string, args: unknown[]): Tx =>
    Chain.call(from, v1.nameWrapper, v1.nameWrapperAbi, fn, args, `NameWrapper.${fn}`);
  const lockTxs = [wrapper(parent.wrappedOwner!, "setFuses", [parent.node, CANNOT_UNWRAP])];
  if (frozen) {
    const fuses = CANNOT_UNWRAP | CANNOT_SET_RESOLVER | CANNOT_CREATE_SUBDOMAIN | CANNOT_BURN_FUSES;
    lockTxs.push(wrapper(frozen.wrappedOwner!, "setFuses", [frozen.node, fuses]));
  }
  await chain.send(lockTxs);
  const [, , parentExpiry] = await chain.read<WrapperData>(v1.nameWrapper, v1.nameWrapperAbi, "getData", [
    BigInt(parent.node),
  ]);
  const holders = [...play.resolvers.keys()].filter((a) => a !== parent.wrappedOwner);
  const holder = holders.length > 0 ? ctx.sample(holders, 1)[0]! : ctx.otherThan(parent.wrappedOwner!);
  const modernResolver = v1.modernResolver;
  const subs = [
    { label: ctx.labels.word(), fuses: PARENT_CANNOT_CONTROL | CANNOT_UNWRAP, resolver: zeroAddress },
    { label: ctx.labels.word(), fuses: PARENT_CANNOT_CONTROL, resolver: zeroAddress },
    { label: ctx.labels.word(), fuses: PARENT_CANNOT_CONTROL, resolver: modernResolver },
  ].map((s) => ({
    ...s,
    facts: v1.book.add({
      name: `${s.label}.${parent.name}`,
      labels: [s.label, ...parent.labels],
      node: childNode(parent.node, s.label),
      chainId: chain.chainId,
      via: "emancipated-subname",
      registryOwner: v1.nameWrapper,
      wrappedOwner: holder,
      resolver: s.resolver === zeroAddress ? undefined : s.resolver,
    }),
  }));
  await chain.send(
    subs.map((s) =>
      wrapper(parent.wrappedOwner!, "setSubnodeRecord", [
        parent.node,
        s.label,
        holder,
        s.resolver,
        0n,
        s.fuses,
        parentExpiry,
      ]),
    ),
  );
  const pending = subs[2]!;
  await chain.send([
    Chain.call(holder, modernResolver, v1.modernResolverAbi, "setAddr", [pending.facts.node, holder], "setAddr"),
  ]);
  pending.facts.addr = holder.toLowerCase() as Address;
  const subData = await chain.readMany<WrapperData>(
    subs.map((s) => ({
      to: v1.nameWrapper,
      abi: v1.nameWrapperAbi,
      functionName: "getData",
      args: [BigInt(s.facts.node)],
    })),
  );

  const lockedFuses = await chain.readMany<WrapperData>(
    locked.map((f) => ({
      to: v1.nameWrapper,
      abi: v1.nameWrapperAbi,
      functionName: "getData",
      args: [BigInt(f.node)],
    })),
  );

  // 3. The 2LDs go to the LockedMigrationController.
  const migrationData = (label: string, owner: Address) =>
    encodeAbiParameters(MIGRATION_DATA, [
      { label, owner, subregistry: zeroAddress, resolver: play.resolvers.get(owner) ?? zeroAddress },
    ]);
  await chain.send(
    locked.map((f) =>
      wrapper(f.wrappedOwner!, "safeTransferFrom", [
        f.wrappedOwner!,
        controller,
        BigInt(f.node),
        1n,
        migrationData(f.labels[0]!, f.wrappedOwner!),
      ]),
    ),
  );
  const subregistries = await chain.readMany<Address>(
    locked.map((f) => ({
      to: eth,
      abi: play.d.abis.PermissionedRegistry as Abi,
      functionName: "getSubregistry",
      args: [f.labels[0]],
    })),
  );
  const lockedFacts: Ensv2NameFacts[] = [];
  const firstNew = play.names.length;
  for (const [i, f] of locked.entries()) {
    const owner = f.wrappedOwner!;
    const registry = subregistries[i]!.toLowerCase() as Address;
    // CANNOT_SET_RESOLVER keeps the ENSv1 resolver, and ENSv2 takes it; otherwise the migration data's resolver.
    const keepsResolver = f === frozen;
    lockedFacts.push(
      play.addName({
        name: f.name,
        labels: f.labels,
        via: "migrated-locked",
        registry: eth,
        status: "registered",
        owner,
        expiry: reservedUntil[premigrated.indexOf(f)]!,
        resolver: keepsResolver ? f.resolver : play.resolvers.get(owner),
        subregistry: registry,
        v1Fuses: lockedFuses[i]![1],
        // The ENSv1 resolver it keeps holds its ENSv1 records.
        ...(keepsResolver && f.resolver ? { texts: f.texts, addr: f.addr } : {}),
      }),
    );
    play.registries.push({ address: registry, parent: eth, parentLabel: f.labels[0], name: f.name, kind: "wrapper" });
    f.wrappedOwner = controller;
    if (!keepsResolver) Object.assign(f, { resolver: undefined, texts: undefined, addr: undefined });
  }
  const parentRegistry = lockedFacts[0]!.subregistry!;

  // 4. The locked subname and one emancipated subname go to the parent's WrapperRegistry; the third stays.
  const moving = subs.slice(0, 2);
  await chain.send(
    moving.map((s) =>
      wrapper(holder, "safeTransferFrom", [
        holder,
        parentRegistry,
        BigInt(s.facts.node),
        1n,
        migrationData(s.label, holder),
      ]),
    ),
  );
  const [lockedSubRegistry] = await chain.readMany<Address>([
    {
      to: parentRegistry,
      abi: play.d.abis.WrapperRegistry as Abi,
      functionName: "getSubregistry",
      args: [moving[0]!.label],
    },
  ]);
  for (const [i, s] of moving.entries()) {
    const isLocked = i === 0;
    const registry = isLocked ? (lockedSubRegistry!.toLowerCase() as Address) : undefined;
    play.addName({
      name: s.facts.name,
      labels: s.facts.labels,
      via: isLocked ? "migrated-locked" : "migrated-emancipated",
      registry: parentRegistry,
      status: "registered",
      owner: holder,
      expiry: Number(subData[i]![2]),
      resolver: play.resolvers.get(holder),
      subregistry: registry,
      v1Fuses: subData[i]![1],
    });
    if (registry) {
      play.registries.push({
        address: registry,
        parent: parentRegistry,
        parentLabel: s.label,
        name: s.facts.name,
        kind: "wrapper",
      });
      s.facts.wrappedOwner = parentRegistry;
    } else {
      // Unwrapped by the WrapperRegistry, which now holds the ENSv1 registry record.
      Object.assign(s.facts, { wrappedOwner: undefined, registryOwner: parentRegistry, unwrapped: true });
    }
    s.facts.resolver = undefined;
  }
  play.v1Fallbacks.push({
    name: pending.facts.name,
    labels: pending.facts.labels,
    registry: parentRegistry,
    v1Resolver: modernResolver,
    addr: holder.toLowerCase() as Address,
  });

  // The roles migration granted, as the registries answer them: each name's owner on its token (from the fuses, or
  // the registrar's set for an emancipated one) and, on each new WrapperRegistry's root, the name's owner.
  const migrated = play.names.slice(firstNew);
  const rolesRead = await chain.readMany<bigint>(
    migrated.flatMap((f) => [
      {
        to: f.registry,
        abi: play.d.abis.WrapperRegistry as Abi,
        functionName: "roles",
        args: [BigInt(labelhash(f.labels[0]!)), f.owner],
      },
      ...(f.subregistry
        ? [{ to: f.subregistry, abi: play.d.abis.WrapperRegistry as Abi, functionName: "roles", args: [0n, f.owner] }]
        : []),
    ]),
  );
  let r = 0;
  for (const f of migrated) {
    play.roleChanges.push({
      contract: f.registry,
      on: f.labels[0]!,
      account: f.owner!,
      roles: String(rolesRead[r++]),
      grant: true,
    });
    if (f.subregistry) {
      play.roleChanges.push({
        contract: f.subregistry,
        on: "root",
        account: f.owner!,
        roles: String(rolesRead[r++]),
        grant: true,
      });
    }
  }

  // Migrated names with their owner's PermissionedResolver get their ETH address there, so ENSv2 resolution shows it.
  const recordTxs: Tx[] = [];
  for (const f of migrated) {
    if (!f.owner || !f.resolver || play.resolvers.get(f.owner) !== f.resolver) continue;
    recordTxs.push(play.tx(f.owner!, f.resolver!, "PermissionedResolver", "setAddr", [nodeOf(f.labels), f.owner!]));
    f.addr = f.owner;
  }
  await chain.send(recordTxs);
}
