import { type Abi, type Address, type Hex, maxUint256, toEventSelector, zeroAddress, zeroHash } from "viem";
import type { Tx } from "../chain";
import { deployEnsv2, ENSV2_MIN_COMMITMENT_AGE, type Ensv2Deployment } from "../deploy/ensv2";
import { REGISTRATION_ROLE_BITMAP, REGISTRY_ROLES, RESOLVER_ROLES } from "../ensv2-roles";
import { labelhash, nodeOf } from "../names";
import type { ScenarioContext } from "./context";
import { useRegistryBeforeLink } from "./ensv2-before-link";
import { playForeignTransfers } from "./ensv2-foreign-traffic";
import { migrateLockedNames } from "./ensv2-locked";
import { type Ensv1ForMigration, migrateEnsv1Names } from "./ensv2-migration";
import type { Ensv2ForeignTransfers, Ensv2NameFacts, Ensv2RegistryFacts, Ensv2Scenario } from "./ensv2-model";
import { Ensv2Play } from "./ensv2-play";
import { writeEnsv2FullProfile } from "./ensv2-profile";
import type { FullProfileFacts } from "./full-profile";

const YEAR = 365 * 86_400;
/** Short lifetime of the names the scenario lets expire (the chain then jumps past it). */
const SHORT_LIFE = 600;

/** Token id of a label in a registry now (it changes with every regeneration). */
async function tokenIdOf(play: Ensv2Play, registry: Address, label: string): Promise<bigint> {
  return play.chain.read<bigint>(registry, play.d.abis.PermissionedRegistry as Abi, "getTokenId", [
    BigInt(labelhash(label)),
  ]);
}

const ethNameOf = (label: string) => ({ name: `${label}.eth`, labels: [label, "eth"] });

/**
 * Deploys ENSv2 beside ENSv1 on the root chain and plays its life there, after every ENSv1 step (so ENSv1's
 * addresses, blocks and random draws are those of a devnet without ENSv2): registrations and renewals through
 * ETHRegistrar (commit, wait, register; USDC and DAI), records on per-owner PermissionedResolver proxies, subname
 * registries three levels deep (one re-parented), role grants and revocations on names (each regenerates the token)
 * and on a resolver, ERC-1155 transfers, reservations, a name left to expire and one re-registered after expiry,
 * ENSv1 names migrated through the UnlockedMigrationController, and locked wrapped ENSv1 names (and emancipated
 * subnames of one) migrated through the LockedMigrationController and their WrapperRegistry; a full profile
 * (every record kind) on one registered name; last, a user registry used before it is linked, and ERC-1155 traffic
 * of a contract that is no registry.
 */
export async function playEnsv2(
  ctx: ScenarioContext,
  v1: Ensv1ForMigration,
  totalNames: number,
): Promise<{ deployment: Ensv2Deployment; scenario: Ensv2Scenario; fullProfile: FullProfileFacts }> {
  const d = await deployEnsv2(ctx.chain, { nameWrapper: v1.nameWrapper, registry: v1.registry });
  const play = new Ensv2Play(ctx, d);
  const me = ctx.chain.deployer;
  const eth = play.address("ETHRegistry");
  const registrar = play.address("ETHRegistrar");
  play.registries.push(
    { address: play.address("RootRegistry"), name: "", kind: "root" },
    { address: eth, parent: play.address("RootRegistry"), parentLabel: "eth", name: "eth", kind: "eth" },
  );

  // The deployer holds the admin bits of the .eth registry's root roles: it grants itself registrar rights, to
  // reserve names and register short-lived ones (as premigration and a registrar of its own would).
  await ctx.chain.send([
    play.tx(me, eth, "PermissionedRegistry", "grantRootRoles", [
      REGISTRY_ROLES.REGISTRAR | REGISTRY_ROLES.REGISTER_RESERVED | REGISTRY_ROLES.RENEW,
      me,
    ]),
  ]);
  play.roleChanges.push({
    contract: eth,
    on: "root",
    account: me,
    roles: String(REGISTRY_ROLES.REGISTRAR | REGISTRY_ROLES.REGISTER_RESERVED | REGISTRY_ROLES.RENEW),
    grant: true,
  });

  // Every owner can pay in both tokens.
  const tokens = [play.address("MockUSDC"), play.address("MockDAI")];
  await ctx.chain.send(
    ctx.owners.flatMap((o) => tokens.map((t) => play.tx(me, t, "MockERC20", "mint", [o, 10n ** 30n]))),
  );
  await ctx.chain.send(
    ctx.owners.flatMap((o) => tokens.map((t) => play.tx(o, t, "MockERC20", "approve", [registrar, maxUint256]))),
  );

  // A PermissionedResolver proxy for four owners.
  for (const o of ctx.sample(ctx.owners, 4)) {
    play.resolvers.set(o, await play.deployProxy(o, play.address("PermissionedResolverImpl"), "PermissionedResolver"));
  }

  // One ENSv2 registration per six ENSv1 names, at most 2,000: large benchmark devnets are about ENSv1 volume.
  const registered = await registerThroughRegistrar(
    play,
    Math.min(2_000, Math.max(6, Math.round(totalNames / 6))),
    tokens,
  );
  await writeRecords(play, registered);
  await renew(play, registered, tokens);
  await buildSubnameTree(play, registered.slice(0, 2));
  await grantAndRevoke(play, registered[2]!, registered.find((f, i) => i > 2 && f.resolver) ?? registered[0]!);
  await transferTokens(play, registered.slice(4, 6));
  await reserveAndExpire(play, tokens);
  await migrateEnsv1Names(play, v1);
  await migrateLockedNames(play, v1);
  const fullProfile = await writeEnsv2FullProfile(play);
  // Last, so that every step before draws and plays as it did without them.
  await useRegistryBeforeLink(play, registered[3]!);
  const foreignTransfers = await playForeignTransfers(play);

  return { deployment: d, scenario: await finish(play, foreignTransfers), fullProfile };
}

async function registerThroughRegistrar(play: Ensv2Play, n: number, tokens: Address[]): Promise<Ensv2NameFacts[]> {
  const { ctx } = play;
  const registrar = play.address("ETHRegistrar");
  const withResolver = [...play.resolvers.keys()];
  const plans = Array.from({ length: n }, (_, i) => {
    // Every other name belongs to an owner with a resolver, so records get written whatever the draws.
    const owner = i % 2 === 0 ? withResolver[(i / 2) % withResolver.length]! : ctx.owner();
    const label = ctx.labels.word();
    const referrer: Hex = i % 3 === 0 ? zeroHash : (`0x${(i + 1).toString(16).padStart(64, "0")}` as Hex);
    return {
      label,
      owner,
      secret: ctx.secret(),
      resolver: play.resolvers.get(owner) ?? zeroAddress,
      duration: BigInt(YEAR * (1 + (i % 2))),
      token: tokens[i % 2]!,
      referrer,
    };
  });
  const commitments = await ctx.chain.readMany<Hex>(
    plans.map((p) => ({
      to: registrar,
      abi: play.d.abis.ETHRegistrar as Abi,
      functionName: "makeCommitment",
      args: [p.label, p.owner, p.secret, zeroAddress, p.resolver, p.duration, p.referrer],
    })),
  );
  await ctx.chain.send(plans.map((p, i) => play.tx(p.owner, registrar, "ETHRegistrar", "commit", [commitments[i]])));
  await ctx.chain.increaseTime(ENSV2_MIN_COMMITMENT_AGE + 1);
  await ctx.chain.send(
    plans.map((p) =>
      play.tx(p.owner, registrar, "ETHRegistrar", "register", [
        p.label,
        p.owner,
        p.secret,
        zeroAddress,
        p.resolver,
        p.duration,
        p.token,
        p.referrer,
      ]),
    ),
  );
  const now = await play.now();
  return plans.map((p) =>
    play.addName({
      ...ethNameOf(p.label),
      via: "registrar",
      registry: play.address("ETHRegistry"),
      status: "registered",
      owner: p.owner,
      // Registered in one block: its timestamp plus the duration.
      expiry: now + Number(p.duration),
      resolver: p.resolver === zeroAddress ? undefined : p.resolver,
    }),
  );
}

/** Each owner with a resolver writes a text and the ETH address of its names on it. */
async function writeRecords(play: Ensv2Play, names: Ensv2NameFacts[]): Promise<void> {
  const txs: Tx[] = [];
  for (const f of names.filter((x) => x.resolver)) {
    const node = nodeOf(f.labels);
    const url = `https://${f.labels[0]}.example`;
    txs.push(play.tx(f.owner!, f.resolver!, "PermissionedResolver", "setText", [node, "url", url]));
    txs.push(play.tx(f.owner!, f.resolver!, "PermissionedResolver", "setAddr", [node, f.owner!]));
    f.texts = { url };
    f.addr = f.owner;
  }
  await play.chain.send(txs);
}

/** Half the names are renewed for a year through the registrar, each paid by another account. */
async function renew(play: Ensv2Play, names: Ensv2NameFacts[], tokens: Address[]): Promise<void> {
  const chosen = names.filter((_, i) => i % 2 === 0);
  await play.chain.send(
    chosen.map((f, i) =>
      play.tx(play.ctx.otherThan(f.owner!), play.address("ETHRegistrar"), "ETHRegistrar", "renew", [
        f.labels[0],
        BigInt(YEAR),
        tokens[(i + 1) % 2],
        zeroHash,
      ]),
    ),
  );
  for (const f of chosen) f.expiry += YEAR;
}

/**
 * Under each parent: a user registry (sub.<parent>) with a name held by a second account, who hangs a registry of its
 * own under it (deep.sub.<parent>). Under the first parent that second registry is then re-parented to another
 * label (deep.alt.<parent>): linked under the new label, unlinked from the old one, `setParent` to the new place.
 */
async function buildSubnameTree(play: Ensv2Play, parents: Ensv2NameFacts[]): Promise<void> {
  const { ctx } = play;
  const eth = play.address("ETHRegistry");
  const userImpl = play.address("UserRegistryImpl");
  for (const [i, parent] of parents.entries()) {
    const o = parent.owner!;
    const label = parent.labels[0]!;
    const r1 = await play.deployProxy(o, userImpl, "UserRegistry");
    await play.chain.send([
      play.tx(o, eth, "PermissionedRegistry", "setSubregistry", [BigInt(labelhash(label)), r1]),
      play.tx(o, r1, "UserRegistry", "setParent", [eth, label]),
    ]);
    parent.subregistry = r1;
    play.registries.push({ address: r1, parent: eth, parentLabel: label, name: parent.name, kind: "user" });

    const o2 = ctx.otherThan(o);
    const sub = ctx.labels.word();
    const subExpiry = parent.expiry;
    await play.chain.send([
      play.tx(o, r1, "UserRegistry", "register", [
        sub,
        o2,
        zeroAddress,
        play.resolvers.get(o) ?? zeroAddress,
        REGISTRATION_ROLE_BITMAP,
        BigInt(subExpiry),
      ]),
    ]);
    const subFacts = play.addName({
      name: `${sub}.${parent.name}`,
      labels: [sub, ...parent.labels],
      via: "subname",
      registry: r1,
      status: "registered",
      owner: o2,
      expiry: subExpiry,
      resolver: play.resolvers.get(o),
    });

    const r2 = await play.deployProxy(o2, userImpl, "UserRegistry");
    await play.chain.send([
      play.tx(o2, r1, "UserRegistry", "setSubregistry", [BigInt(labelhash(sub)), r2]),
      play.tx(o2, r2, "UserRegistry", "setParent", [r1, sub]),
    ]);
    subFacts.subregistry = r2;
    const r2Facts: Ensv2RegistryFacts = {
      address: r2,
      parent: r1,
      parentLabel: sub,
      name: subFacts.name,
      kind: "user",
    };
    play.registries.push(r2Facts);

    const o3 = ctx.otherThan(o2);
    const deep = ctx.labels.word();
    await play.chain.send([
      play.tx(o2, r2, "UserRegistry", "register", [
        deep,
        o3,
        zeroAddress,
        zeroAddress,
        REGISTRATION_ROLE_BITMAP,
        BigInt(subExpiry),
      ]),
    ]);
    const deepFacts = play.addName({
      name: `${deep}.${subFacts.name}`,
      labels: [deep, ...subFacts.labels],
      via: "subname",
      registry: r2,
      status: "registered",
      owner: o3,
      expiry: subExpiry,
    });

    if (i === 0) {
      const alt = ctx.labels.word();
      await play.chain.send([
        play.tx(o, r1, "UserRegistry", "register", [
          alt,
          o2,
          zeroAddress,
          zeroAddress,
          REGISTRATION_ROLE_BITMAP,
          BigInt(subExpiry),
        ]),
      ]);
      const altFacts = play.addName({
        name: `${alt}.${parent.name}`,
        labels: [alt, ...parent.labels],
        via: "subname",
        registry: r1,
        status: "registered",
        owner: o2,
        expiry: subExpiry,
      });
      await play.chain.send([
        play.tx(o2, r1, "UserRegistry", "setSubregistry", [BigInt(labelhash(alt)), r2]),
        play.tx(o2, r1, "UserRegistry", "setSubregistry", [BigInt(labelhash(sub)), zeroAddress]),
        play.tx(o2, r2, "UserRegistry", "setParent", [r1, alt]),
      ]);
      altFacts.subregistry = r2;
      subFacts.subregistry = undefined;
      Object.assign(r2Facts, { parentLabel: alt, name: altFacts.name });
      deepFacts.name = `${deep}.${altFacts.name}`;
      deepFacts.labels = [deep, ...altFacts.labels];
    }
  }
}

/**
 * On a name: its owner lets a friend set the resolver (the token regenerates), the friend points it at the friend's
 * resolver, then the owner takes the role back (regenerated again). On a resolver: its owner lets a friend write
 * texts, the friend writes one, the owner revokes.
 */
async function grantAndRevoke(play: Ensv2Play, name: Ensv2NameFacts, resolverName: Ensv2NameFacts): Promise<void> {
  const { ctx } = play;
  const eth = play.address("ETHRegistry");
  const label = name.labels[0]!;
  const id = BigInt(labelhash(label));
  const friend = [...play.resolvers.keys()].find((a) => a !== name.owner) ?? ctx.otherThan(name.owner!);
  const role = REGISTRY_ROLES.SET_RESOLVER;
  await play.chain.send([play.tx(name.owner!, eth, "PermissionedRegistry", "grantRoles", [id, role, friend])]);
  const friendResolver = play.resolvers.get(friend) ?? zeroAddress;
  await play.chain.send([play.tx(friend, eth, "PermissionedRegistry", "setResolver", [id, friendResolver])]);
  await play.chain.send([play.tx(name.owner!, eth, "PermissionedRegistry", "revokeRoles", [id, role, friend])]);
  name.resolver = friendResolver === zeroAddress ? undefined : friendResolver;
  // The friend's resolver has no records for this name.
  name.texts = undefined;
  name.addr = undefined;
  name.regenerations += 2;
  play.roleChanges.push(
    { contract: eth, on: label, account: friend, roles: String(role), grant: true },
    { contract: eth, on: label, account: friend, roles: String(role), grant: false },
  );

  const resolver = resolverName.resolver;
  if (!resolver) return;
  const resolverOwner = [...play.resolvers.entries()].find(([, r]) => r === resolver)![0];
  const writer = ctx.otherThan(resolverOwner);
  const description = `kept by ${writer.toLowerCase()}`;
  await play.chain.send([
    play.tx(resolverOwner, resolver, "PermissionedResolver", "grantRootRoles", [RESOLVER_ROLES.SET_TEXT, writer]),
  ]);
  await play.chain.send([
    play.tx(writer, resolver, "PermissionedResolver", "setText", [
      nodeOf(resolverName.labels),
      "description",
      description,
    ]),
  ]);
  await play.chain.send([
    play.tx(resolverOwner, resolver, "PermissionedResolver", "revokeRootRoles", [RESOLVER_ROLES.SET_TEXT, writer]),
  ]);
  resolverName.texts = { ...resolverName.texts, description };
  play.roleChanges.push(
    { contract: resolver, on: "root", account: writer, roles: String(RESOLVER_ROLES.SET_TEXT), grant: true },
    { contract: resolver, on: "root", account: writer, roles: String(RESOLVER_ROLES.SET_TEXT), grant: false },
  );
}

/** ERC-1155 transfers of .eth tokens to another account (the roles move with the token). */
async function transferTokens(play: Ensv2Play, names: Ensv2NameFacts[]): Promise<void> {
  const eth = play.address("ETHRegistry");
  const txs: Tx[] = [];
  for (const f of names) {
    const to = play.ctx.otherThan(f.owner!);
    txs.push(
      play.tx(f.owner!, eth, "PermissionedRegistry", "safeTransferFrom", [
        f.owner!,
        to,
        await tokenIdOf(play, eth, f.labels[0]!),
        1n,
        "0x",
      ]),
    );
    f.owner = to;
  }
  await play.chain.send(txs);
}

/**
 * Two labels reserved (no owner) for a year; one name registered straight in the registry for ten minutes and left
 * to expire; one such name re-registered through the registrar by another account once expired (premium paid).
 */
async function reserveAndExpire(play: Ensv2Play, tokens: Address[]): Promise<void> {
  const { ctx } = play;
  const me = ctx.chain.deployer;
  const eth = play.address("ETHRegistry");
  const now = await play.now();
  const reserved = [ctx.labels.word(), ctx.labels.word()];
  const expiring = [ctx.labels.word(), ctx.labels.word()];
  const owners = expiring.map(() => ctx.owner());
  await ctx.chain.send([
    ...reserved.map((l) =>
      play.tx(me, eth, "PermissionedRegistry", "register", [
        l,
        zeroAddress,
        zeroAddress,
        zeroAddress,
        0n,
        BigInt(now + YEAR),
      ]),
    ),
    ...expiring.map((l, i) =>
      play.tx(me, eth, "PermissionedRegistry", "register", [
        l,
        owners[i],
        zeroAddress,
        zeroAddress,
        REGISTRATION_ROLE_BITMAP,
        BigInt(now + SHORT_LIFE),
      ]),
    ),
  ]);
  const at = await play.now();
  for (const l of reserved)
    play.addName({ ...ethNameOf(l), via: "reserved", registry: eth, status: "reserved", expiry: now + YEAR });
  const expired = expiring.map((l, i) =>
    play.addName({
      ...ethNameOf(l),
      via: "registry",
      registry: eth,
      status: "expired",
      expiry: now + SHORT_LIFE,
      owner: owners[i],
    }),
  );
  await ctx.chain.increaseTime(Math.max(0, now + SHORT_LIFE - at) + 1);

  const reborn = expired[1]!;
  const buyer = ctx.otherThan(reborn.owner!);
  const secret = ctx.secret();
  const registrar = play.address("ETHRegistrar");
  const args = [reborn.labels[0], buyer, secret, zeroAddress, zeroAddress, BigInt(YEAR), zeroHash] as const;
  const commitment = await ctx.chain.read<Hex>(registrar, play.d.abis.ETHRegistrar as Abi, "makeCommitment", [...args]);
  await ctx.chain.send([play.tx(buyer, registrar, "ETHRegistrar", "commit", [commitment])]);
  await ctx.chain.increaseTime(ENSV2_MIN_COMMITMENT_AGE + 1);
  await ctx.chain.send([
    play.tx(buyer, registrar, "ETHRegistrar", "register", [
      reborn.labels[0],
      buyer,
      secret,
      zeroAddress,
      zeroAddress,
      BigInt(YEAR),
      tokens[0],
      zeroHash,
    ]),
  ]);
  Object.assign(reborn, { via: "registrar", status: "registered", owner: buyer, expiry: (await play.now()) + YEAR });
  // The expired one keeps its last owner in the facts for reference, but `ownerOf` reads zero.
}

/** Token ids and event counts read back from the chain once everything is played. */
async function finish(play: Ensv2Play, foreignTransfers: Ensv2ForeignTransfers): Promise<Ensv2Scenario> {
  const tokenIds = await play.chain.readMany<bigint>(
    play.names.map((f) => ({
      to: f.registry,
      abi: play.d.abis.PermissionedRegistry as Abi,
      functionName: "getTokenId",
      args: [BigInt(labelhash(f.labels[0]!))],
    })),
  );
  play.names.forEach((f, i) => {
    f.tokenId = String(tokenIds[i]);
  });
  const addresses = new Map<Address, string>();
  for (const [name, c] of Object.entries(play.d.contracts)) addresses.set(c.address, name);
  for (const r of play.registries) if (r.kind === "user") addresses.set(r.address, "UserRegistry");
  for (const r of play.registries) if (r.kind === "wrapper") addresses.set(r.address, "WrapperRegistry");
  for (const r of play.resolvers.values()) addresses.set(r, "PermissionedResolver");
  const abiOf: Record<string, string> = {
    RootRegistry: "PermissionedRegistry",
    ETHRegistry: "PermissionedRegistry",
    UserRegistry: "UserRegistry",
    PermissionedResolver: "PermissionedResolver",
    ETHRegistrar: play.chain.ensv2Registrar,
    VerifiableFactory: "VerifiableFactory",
    UnlockedMigrationController: "UnlockedMigrationController",
    WrapperRegistry: "WrapperRegistry",
  };
  const eventCounts: Record<string, number> = {};
  for (const [key, n] of play.chain.logTally) {
    const [address, topic0] = key.split("|") as [Address, Hex];
    const contract = addresses.get(address);
    if (!contract || !abiOf[contract]) continue;
    const event = (play.d.abis[abiOf[contract]] as Abi).find(
      (x) => x.type === "event" && toEventSelector(x) === topic0,
    );
    if (!event || event.type !== "event") continue;
    const k = `${contract}:${event.name}`;
    eventCounts[k] = (eventCounts[k] ?? 0) + n;
  }
  return {
    contracts: Object.fromEntries(Object.entries(play.d.contracts).map(([k, v]) => [k, v.address])),
    registries: play.registries,
    resolvers: Object.fromEntries([...play.resolvers].map(([o, r]) => [o.toLowerCase(), r])),
    names: play.names,
    roleChanges: play.roleChanges,
    v1Fallbacks: play.v1Fallbacks,
    eventCounts: Object.fromEntries(Object.entries(eventCounts).sort(([a], [b]) => a.localeCompare(b))),
    foreignTransfers,
  };
}
