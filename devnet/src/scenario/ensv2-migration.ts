import { type Abi, type Address, encodeAbiParameters, zeroAddress } from "viem";
import { Chain } from "../chain";
import { labelhash } from "../names";
import type { Ensv2Play } from "./ensv2-play";
import type { NameBook, NameFacts } from "./model";

/** The ENSv1 side of the root chain that migration reads and moves names out of. */
export interface Ensv1ForMigration {
  /** The ENSv1 registry (with fallback): ENSV1Resolver resolves through it. */
  registry: Address;
  nameWrapper: Address;
  baseRegistrar: Address;
  nameWrapperAbi: Abi;
  baseRegistrarAbi: Abi;
  /** The devnet's ENSv1 resolver with today's events, where the scenario writes ENSv1 records of new names. */
  modernResolver: Address;
  modernResolverAbi: Abi;
  /** Names some account's ENSv1 primary name points at (their records must stay where they are). */
  primaryNames: Set<string>;
  book: NameBook;
}

/** LibMigration.Data, the payload of the ERC-721 / ERC-1155 transfer to a migration controller. */
export const MIGRATION_DATA = [
  {
    type: "tuple",
    components: [
      { name: "label", type: "string" },
      { name: "owner", type: "address" },
      { name: "subregistry", type: "address" },
      { name: "resolver", type: "address" },
    ],
  },
] as const;

/** NameWrapper's CANNOT_UNWRAP fuse: a wrapped name with it burnt is locked and needs the locked controller. */
const CANNOT_UNWRAP = 1;

/**
 * .eth 2LDs of ENSv1 a migration can take: plain ones held through the base registrar or wrapped (unlocked). Migration
 * clears the ENSv1 resolver and copies no records, so names whose records the ENSv1 checks rely on stay behind.
 */
function candidates(book: NameBook, wrapped: boolean): NameFacts[] {
  return [...book.byNode.values()].filter(
    (f) =>
      f.chainId !== undefined &&
      f.labels.length === 2 &&
      f.labels[1] === "eth" &&
      !f.deleted &&
      // An ETH address may back a primary name; texts only on wrapped names, where no plain one is left.
      !f.addr &&
      (wrapped || !f.texts) &&
      f.registrant !== undefined &&
      (wrapped
        ? f.wrappedOwner !== undefined && !f.unwrapped
        : f.wrappedOwner === undefined && f.registrant === f.registryOwner),
  );
}

/**
 * Migration as contracts-v2 does it: the names are first reserved in the .eth registry with their ENSv1 expiry
 * (premigration), then each owner sends its ENSv1 token to the UnlockedMigrationController with the migration data;
 * the controller clears the ENSv1 resolver, keeps the ENSv1 token and registers the name in ENSv2 for the owner.
 * Two unwrapped names (ERC-721 from the base registrar) and, where the ENSv1 play left one unlocked, one wrapped
 * name (ERC-1155 from the NameWrapper). The ENSv1 facts of the moved names follow them.
 */
export async function migrateEnsv1Names(play: Ensv2Play, v1: Ensv1ForMigration): Promise<void> {
  const { ctx } = play;
  const me = ctx.chain.deployer;
  const eth = play.address("ETHRegistry");
  const controller = play.address("UnlockedMigrationController");
  const unwrapped = ctx.sample(candidates(v1.book, false), 2);
  const wrappedAll = candidates(v1.book, true);
  const fuses = await ctx.chain.readMany<[Address, number, bigint]>(
    wrappedAll.map((f) => ({
      to: v1.nameWrapper,
      abi: v1.nameWrapperAbi,
      functionName: "getData",
      args: [BigInt(f.node)],
    })),
  );
  const wrapped = ctx.sample(
    wrappedAll.filter((_, i) => (Number(fuses[i]![1]) & CANNOT_UNWRAP) === 0),
    1,
  );
  const moving = [...unwrapped, ...wrapped];
  if (moving.length === 0) return;

  const expiries = await ctx.chain.readMany<bigint>(
    moving.map((f) => ({
      to: v1.baseRegistrar,
      abi: v1.baseRegistrarAbi,
      functionName: "nameExpires",
      args: [BigInt(labelhash(f.labels[0]!))],
    })),
  );
  await ctx.chain.send(
    moving.map((f, i) =>
      play.tx(me, eth, "PermissionedRegistry", "register", [
        f.labels[0],
        zeroAddress,
        zeroAddress,
        zeroAddress,
        0n,
        expiries[i],
      ]),
    ),
  );

  const txs = moving.map((f) => {
    const owner = (f.wrappedOwner ?? f.registrant)!;
    const resolver = play.resolvers.get(owner) ?? zeroAddress;
    const data = encodeAbiParameters(MIGRATION_DATA, [
      { label: f.labels[0]!, owner, subregistry: zeroAddress, resolver },
    ]);
    return f.wrappedOwner
      ? Chain.call(
          owner,
          v1.nameWrapper,
          v1.nameWrapperAbi,
          "safeTransferFrom",
          [owner, controller, BigInt(f.node), 1n, data],
          "migrate wrapped",
        )
      : Chain.call(
          owner,
          v1.baseRegistrar,
          v1.baseRegistrarAbi,
          "safeTransferFrom",
          [owner, controller, BigInt(labelhash(f.labels[0]!)), data],
          "migrate unwrapped",
        );
  });
  await ctx.chain.send(txs);

  for (const [i, f] of moving.entries()) {
    const owner = (f.wrappedOwner ?? f.registrant)!;
    const resolver = play.resolvers.get(owner);
    play.addName({
      name: f.name,
      labels: f.labels,
      via: f.wrappedOwner ? "migrated-wrapped" : "migrated-unwrapped",
      registry: eth,
      status: "registered",
      owner,
      expiry: Number(expiries[i]),
      resolver,
    });
    // What ENSv1 shows afterwards: the controller holds the token (and, unwrapped, the registry record); no resolver.
    if (f.wrappedOwner) f.wrappedOwner = controller;
    else Object.assign(f, { registrant: controller, registryOwner: controller });
    f.resolver = undefined;
    f.texts = undefined;
  }
}
