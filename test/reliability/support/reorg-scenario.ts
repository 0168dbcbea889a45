import { type Abi, type Address, getAddress, type Hex, labelhash, zeroAddress } from "viem";
import { Chain, type Tx } from "../../../devnet/src/chain";
import { devnetAbis } from "../../../devnet/src/contracts";
import { REGISTRATION_ROLE_BITMAP, REGISTRY_ROLES } from "../../../devnet/src/ensv2-roles";
import { loadDevnetContracts, scenarioOf } from "../../../devnet/src/index";
import { childNode, ETH_NODE } from "../../../devnet/src/names";
import type { DevnetManifest } from "../../../src/namespaces/devnet-manifest";

/*
 * Alternative histories on the devnet's ENS root chain, written through the real contracts: anvil's evm_snapshot marks
 * a fork point, a branch registers names, sets owners and resolver records, transfers a scenario name, then pads
 * itself with empty blocks to its length; evm_revert returns to the fork point for the next branch. Asked to
 * (`ensv2`), a branch also registers its names in the devnet's ENSv2 .eth registry, points them at a resolver and
 * grants another account ROLE_SET_RESOLVER on one (its token regenerates), so that ENSv2 rows are reorged too.
 */

const YEAR = 365n * 24n * 3600n;

/** Words of the demo label set (so names heal) that the devnet scenario does not use; each branch takes fresh ones. */
const WORDS = [
  "marmalade",
  "pinecone",
  "quasar",
  "tangerine",
  "walrus",
  "zeppelin",
  "avalanche",
  "bramble",
  "cobalt",
  "dandelion",
  "ember",
  "falcon",
  "glacier",
  "harbor",
  "indigo",
  "juniper",
  "kestrel",
  "lantern",
  "meadow",
  "nectar",
  "orchard",
  "pebble",
  "quill",
  "raven",
  "saffron",
  "thistle",
  "umber",
  "velvet",
  "willow",
  "yonder",
  "zenith",
];

export interface BlockRef {
  number: number;
  hash: Hex;
}

/** What one branch wrote; the index must show exactly this once the branch is canonical. */
export interface BranchFacts {
  tag: string;
  /** Names only this branch registered, plus the name every branch of the fork registers (to its own owner). */
  registered: { label: string; node: Hex; owner: Address }[];
  /** The text record key and value set on every registered name, and the addr record (= its owner). */
  textKey: string;
  textValue: string;
  /** A scenario name this branch transferred in the registry, and to whom. */
  transferred: { name: string; node: Hex; to: Address };
  /**
   * ENSv2 (when the devnet has it): the same labels registered in the .eth registry to the branch's owner, each with
   * `resolver`; `granted` got ROLE_SET_RESOLVER on the first (shared) one.
   */
  ensv2?: { registry: Address; labels: string[]; owner: Address; resolver: Address; granted: Address };
  /** The branch's first and last blocks: its depth is head.number - forkBlock. */
  forkBlock: number;
  head: BlockRef;
}

export interface BranchPlan {
  tag: string;
  /** Blocks this branch mines after the fork point (at least 3: registrations, resolvers, records). */
  blocks: number;
  /** How many names only this branch registers. */
  ownNames: number;
  /** The label every branch of this fork registers, each to its own owner. */
  sharedLabel: string;
  owner: Address;
  transferTo: Address;
  /** Also write ENSv2 (the devnet's .eth registry): registrations, resolvers, a role grant. */
  ensv2?: boolean;
}

export class ReorgDriver {
  private wordsUsed = 0;
  private readonly taken: Set<string>;

  private constructor(
    private readonly chain: Chain,
    private readonly manifest: DevnetManifest,
  ) {
    const scenario = scenarioOf(manifest);
    this.taken = new Set([...scenario.labels, ...(scenario.ensv2?.names ?? []).map((n) => n.labels[0]!)]);
  }

  /**
   * Drives the ENS root chain (31337 on the devnet, 1 on a mainnet-shaped rehearsal chain); turns automine off (each
   * branch step mines its own block).
   */
  static async connect(manifest: DevnetManifest, rootChainId = 31337): Promise<ReorgDriver> {
    const root = manifest.chains[String(rootChainId)];
    if (!root) throw new Error(`the devnet has no ENS root chain (${rootChainId})`);
    return new ReorgDriver(await Chain.connect(rootChainId, root.rpcUrl), manifest);
  }

  get accounts(): Address[] {
    return this.chain.accounts;
  }

  /** A label of the demo set not used by the scenario nor by an earlier branch. */
  freshLabel(): string {
    while (this.wordsUsed < WORDS.length) {
      const w = WORDS[this.wordsUsed++]!;
      if (!this.taken.has(w)) return w;
    }
    throw new Error("reorg scenario ran out of fresh labels: add words to WORDS");
  }

  async head(): Promise<BlockRef> {
    const b = await this.chain.rpc.call<{ number: Hex; hash: Hex }>("eth_getBlockByNumber", ["latest", false]);
    return { number: Number(b.number), hash: b.hash };
  }

  async blockHash(number: number): Promise<Hex | null> {
    const b = await this.chain.rpc.call<{ hash: Hex } | null>("eth_getBlockByNumber", [
      `0x${number.toString(16)}`,
      false,
    ]);
    return b?.hash ?? null;
  }

  /** Extends the current branch with empty blocks; returns the new head. */
  async extend(blocks: number): Promise<BlockRef> {
    await this.chain.mineEmpty(blocks);
    return this.head();
  }

  async snapshot(): Promise<{ id: Hex; block: number }> {
    const id = await this.chain.rpc.call<Hex>("evm_snapshot");
    return { id, block: (await this.head()).number };
  }

  /** Back to the snapshot: every later block is gone from the chain (anvil forgets the snapshot too). */
  async revert(snapshot: { id: Hex; block: number }): Promise<void> {
    const ok = await this.chain.rpc.call<boolean>("evm_revert", [snapshot.id]);
    if (!ok) throw new Error(`evm_revert ${snapshot.id} failed`);
    const head = await this.head();
    if (head.number !== snapshot.block)
      throw new Error(`after evm_revert the head is ${head.number}, expected ${snapshot.block}`);
  }

  /**
   * An unwrapped .eth name of the scenario held in the registry by an unlocked account, with its owner on the current
   * chain (an earlier surviving branch may have transferred it).
   */
  async transferableName(registry: Address, abi: Abi): Promise<{ name: string; node: Hex; owner: Address }> {
    const names = scenarioOf(this.manifest).names;
    const f = names.find(
      (n) =>
        n.via === "unwrapped-controller" && n.labels.length === 2 && n.registryOwner && !n.deleted && !n.wrappedOwner,
    );
    if (!f) throw new Error("the scenario has no transferable unwrapped .eth name");
    const [owner] = await this.chain.readMany<Address>([{ to: registry, abi, functionName: "owner", args: [f.node] }]);
    return { name: f.name, node: f.node, owner: getAddress(owner!) };
  }

  /** Mines one branch from the current head. */
  async playBranch(plan: BranchPlan): Promise<BranchFacts> {
    if (plan.blocks < 3) throw new Error("a branch needs at least 3 blocks");
    const { real, own } = loadDevnetContracts();
    const rc = (scenarioOf(this.manifest).otherContracts as Record<string, Record<string, Address>>).ensroot!;
    const forkBlock = (await this.head()).number;
    // Nonces were spent on the abandoned branch: read them again from the reverted state.
    await this.chain.syncNonces();

    const labels = [plan.sharedLabel, ...Array.from({ length: plan.ownNames }, () => this.freshLabel())];
    const registered = labels.map((label) => ({ label, node: childNode(ETH_NODE, label), owner: plan.owner }));
    const textKey = `reorg.${plan.tag}`;
    const textValue = `branch ${plan.tag}`;
    const transfer = await this.transferableName(rc.Registry!, real.ENSRegistryWithFallback.abi);
    const call = (from: Address, to: Address, abi: Abi, fn: string, args: unknown[]): Tx =>
      Chain.call(from, to, abi, fn, args, `${plan.tag}: ${fn}`);

    if (plan.ensv2 && !this.manifest.ensv2) throw new Error(`branch ${plan.tag}: the devnet has no ENSv2`);
    const v2 =
      plan.ensv2 && this.manifest.ensv2
        ? {
            registry: this.manifest.ensv2.contracts.ETHRegistry!.address as Address,
            labels,
            owner: plan.owner,
            resolver: rc.ModernResolver!,
            // A grant changes roles only for an account without them: not the owner itself.
            granted: getAddress(plan.transferTo) !== getAddress(plan.owner) ? plan.transferTo : this.chain.deployer,
          }
        : undefined;
    const v2Call = (from: Address, fn: string, args: unknown[]) =>
      call(from, v2!.registry, devnetAbis().PermissionedRegistry, fn, args);
    const yearFromNow = BigInt(await this.chain.latestTimestamp()) + YEAR;

    // Block 1: registrations (the deployer is a BaseRegistrar controller, and a registrar of the ENSv2 .eth registry)
    // and the transfer of a scenario name.
    await this.chain.send([
      ...registered.map((r) =>
        call(this.chain.deployer, rc.BaseRegistrar!, real.BaseRegistrarImplementation.abi, "register", [
          BigInt(labelhash(r.label)),
          r.owner,
          YEAR,
        ]),
      ),
      call(transfer.owner, rc.Registry!, real.ENSRegistryWithFallback.abi, "setOwner", [
        transfer.node,
        plan.transferTo,
      ]),
      ...(v2
        ? labels.map((l) =>
            v2Call(this.chain.deployer, "register", [
              l,
              plan.owner,
              zeroAddress,
              zeroAddress,
              REGISTRATION_ROLE_BITMAP,
              yearFromNow,
            ]),
          )
        : []),
    ]);
    // Block 2: the owner points each name at a resolver; block 3: records on it (this resolver's TextChanged carries
    // the value, so the index holds each branch's values too), and on ENSv2 a role grant that regenerates a token.
    await this.chain.send([
      ...registered.map((r) =>
        call(plan.owner, rc.Registry!, real.ENSRegistryWithFallback.abi, "setResolver", [r.node, rc.ModernResolver!]),
      ),
      ...(v2 ? labels.map((l) => v2Call(plan.owner, "setResolver", [BigInt(labelhash(l)), v2.resolver])) : []),
    ]);
    await this.chain.send([
      ...registered.flatMap((r) => [
        call(plan.owner, rc.ModernResolver!, own.ModernResolver.abi, "setText", [r.node, textKey, textValue]),
        call(plan.owner, rc.ModernResolver!, own.ModernResolver.abi, "setAddr", [r.node, plan.owner]),
      ]),
      ...(v2
        ? [v2Call(plan.owner, "grantRoles", [BigInt(labelhash(labels[0]!)), REGISTRY_ROLES.SET_RESOLVER, v2.granted])]
        : []),
    ]);
    const padding = forkBlock + plan.blocks - (await this.head()).number;
    if (padding > 0) await this.chain.mineEmpty(padding);
    const head = await this.head();
    if (head.number !== forkBlock + plan.blocks)
      throw new Error(`branch ${plan.tag} ends at ${head.number}, expected ${forkBlock + plan.blocks}`);
    return {
      tag: plan.tag,
      registered,
      textKey,
      textValue,
      transferred: { name: transfer.name, node: transfer.node, to: plan.transferTo },
      ...(v2 ? { ensv2: v2 } : {}),
      forkBlock,
      head,
    };
  }
}
