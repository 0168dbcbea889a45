import { type Abi, type Address, type Hex, labelhash, namehash, zeroAddress } from "viem";
import { Chain, type Tx } from "../../../devnet/src/chain";
import { loadDevnetContracts, scenarioOf } from "../../../devnet/src/index";
import { childNode } from "../../../devnet/src/names";
import { seededRandom } from "../../../harness/seeded-random";
import type { DevnetManifest } from "../../../src/namespaces/devnet-manifest";

/*
 * One devnet chain living on its own clock: blocks of registrations, transfers, resolver records and primary-name
 * changes written through the chain's real contracts, and reorgs. A reorg rolls the chain back (anvil_rollback) and
 * mines a new branch from the old branch's actions, some dropped, some changed, all shuffled, plus a few new ones.
 * Actions are kept abstract (a label, an account) and turned into transactions when their block is mined, from the
 * chain's state then, so a shuffled branch never sends a transaction that reverts: an action whose name does not
 * exist (its registration was dropped or comes later) is skipped.
 */

const YEAR = 365n * 24n * 3600n;

export type Action =
  | { kind: "register"; label: string; owner: number }
  | { kind: "transfer"; label: string; to: number }
  | { kind: "resolver"; label: string }
  | { kind: "text"; label: string; value: string }
  | { kind: "addr"; label: string }
  | { kind: "primary"; account: number; label: string };

/** The chain's contracts this workload writes to; a reverse-only chain has just a reverse registrar. */
interface Contracts {
  names?: {
    registry: Address;
    baseRegistrar: Address;
    resolver: Address;
    parentNode: Hex;
    suffix: string;
    /** Lineanames: names are registered wrapped through the controller (its owner may), and held in the NameWrapper. */
    wrapped?: { controller: Address; nameWrapper: Address };
  };
  reverseRegistrar: Address;
}

export interface ChainReorg {
  chainId: number;
  /** Blocks replaced: the old head's number minus the fork block's. */
  depth: number;
  fork: number;
  /** Blocks of the new branch, and its actions against the old branch's. */
  newBlocks: number;
  oldActions: number;
  newActions: number;
}

/** Serializes work on one chain: a block and a reorg never interleave. */
class Queue {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(job: () => Promise<T>): Promise<T> {
    const next = this.tail.then(job, job);
    this.tail = next.catch(() => undefined);
    return next;
  }
}

export class ChainWorkload {
  private readonly queue = new Queue();
  /** Actions mined per block number (the blocks this workload mined and that are still canonical). */
  private readonly history = new Map<number, Action[]>();
  private labelsMade = 0;
  /** The highest head this chain ever had: a reorg must stay within finality of it (see reorgDepthLimit). */
  maxHeadSeen = 0;
  actionsMined = 0;
  actionsSkipped = 0;

  private constructor(
    readonly chain: Chain,
    readonly name: string,
    /** The chain's name in the manifest and in Ponder's logs (devnetRoot, devnetBase, …). */
    readonly ponderName: string,
    private readonly contracts: Contracts,
    private readonly random: () => number,
  ) {}

  /**
   * Every chain of the devnet, each with its own share of the seeded random stream. Chains are found by their
   * datasources' chain ids, so a devnet of another shape (the rehearsal's mainnet-shaped chains) works as well.
   */
  static async forDevnet(manifest: DevnetManifest, random: () => number): Promise<ChainWorkload[]> {
    const other = scenarioOf(manifest).otherContracts as Record<string, Record<string, Address>>;
    const chainIdOf = (datasource: keyof DevnetManifest["datasources"]) =>
      String(manifest.datasources[datasource]?.chainId);
    const byId: Record<string, { name: string; contracts: Contracts }> = {};
    const root = other.ensroot!;
    byId[chainIdOf("ensroot")] = {
      name: "root",
      contracts: {
        names: {
          registry: root.Registry!,
          baseRegistrar: root.BaseRegistrar!,
          resolver: root.ModernResolver!,
          parentNode: namehash("eth"),
          suffix: "eth",
        },
        reverseRegistrar: root.DefaultReverseRegistrar!,
      },
    };
    for (const key of ["basenames", "lineanames"] as const) {
      const c = other[key]!;
      const suffix = manifest.datasources[key]?.managedName ?? (key === "basenames" ? "base.eth" : "linea.eth");
      byId[chainIdOf(key)] = {
        name: key,
        contracts: {
          names: {
            registry: c.Registry!,
            baseRegistrar: c.BaseRegistrar!,
            resolver: c.Resolver!,
            parentNode: namehash(suffix),
            suffix,
            ...(key === "lineanames"
              ? { wrapped: { controller: c.EthRegistrarController!, nameWrapper: c.NameWrapper! } }
              : {}),
          },
          reverseRegistrar: c.L2ReverseRegistrar!,
        },
      };
    }
    for (const [key, datasource] of [
      ["optimism", "reverseOptimism"],
      ["arbitrum", "reverseArbitrum"],
      ["scroll", "reverseScroll"],
    ] as const) {
      if (other[key]?.L2ReverseRegistrar)
        byId[chainIdOf(datasource)] = { name: key, contracts: { reverseRegistrar: other[key]!.L2ReverseRegistrar! } };
    }
    const out: ChainWorkload[] = [];
    for (const [id, chain] of Object.entries(manifest.chains)) {
      const known = byId[id];
      if (!known) throw new Error(`chain ${id} (${chain.name}): the workload knows no contracts for it`);
      const c = await Chain.connect(Number(id), chain.rpcUrl);
      await c.syncNonces();
      const seed = Math.floor(random() * 2 ** 32);
      out.push(new ChainWorkload(c, known.name, chain.name, known.contracts, seededRandom(seed)));
    }
    for (const w of out) w.maxHeadSeen = await w.chain.blockNumber();
    return out;
  }

  get chainId(): number {
    return this.chain.chainId;
  }

  async head(): Promise<number> {
    return this.chain.blockNumber();
  }

  /** The deepest reorg allowed now: its fork must stay within `finality - 1` blocks of the highest head ever seen. */
  async reorgDepthLimit(finality: number): Promise<number> {
    const head = await this.head();
    return Math.max(0, finality - 1 - (this.maxHeadSeen - head));
  }

  /** Mines one block: empty, or with 1–4 new actions. */
  mineBlock(): Promise<void> {
    return this.queue.run(async () => {
      const actions =
        this.random() < 0.6 ? Array.from({ length: 1 + Math.floor(this.random() * 4) }, () => this.newAction()) : [];
      const latest = await this.chain.latestTimestamp();
      await this.mine(actions, Math.max(Math.floor(Date.now() / 1000), latest + 1));
    });
  }

  /**
   * Replaces the newest `depth` blocks with a new branch built from their actions (about a quarter dropped, a quarter
   * changed, the whole shuffled, and up to two new ones) over `depth - 1` to `depth + 2` blocks whose timestamps span
   * the old branch's, so the chain's clock stays with the wall clock. `fork` instead of `depth` replays a range again,
   * unless that would now reach `finality` blocks below the highest head (then nothing happens: undefined).
   */
  reorg(target: { depth: number } | { fork: number; finality: number }): Promise<ChainReorg | undefined> {
    return this.queue.run(async () => {
      const head = await this.head();
      const fork = "fork" in target ? target.fork : head - target.depth;
      const depth = head - fork;
      if (depth < 1) throw new Error(`chain ${this.chainId}: no blocks above fork ${fork} (head ${head})`);
      // A range replayed: checked here, after any block queued before it, so it stays within finality.
      if ("fork" in target && this.maxHeadSeen - fork > target.finality - 1) return undefined;
      const forkTime = Number(
        (await this.chain.rpc.call<{ timestamp: Hex }>("eth_getBlockByNumber", [`0x${fork.toString(16)}`, false]))
          .timestamp,
      );
      const old: Action[] = [];
      for (let n = fork + 1; n <= head; n++) old.push(...(this.history.get(n) ?? []));
      await this.chain.rpc.call("anvil_rollback", [depth]);
      const after = await this.head();
      if (after !== fork)
        throw new Error(`chain ${this.chainId}: after anvil_rollback(${depth}) the head is ${after}, expected ${fork}`);
      for (const n of [...this.history.keys()]) if (n > fork) this.history.delete(n);
      await this.chain.syncNonces();

      const changed = old.flatMap((a) => {
        const draw = this.random();
        if (draw < 0.25) return [];
        return [draw < 0.5 ? this.changed(a) : a];
      });
      for (let i = Math.floor(this.random() * 3); i > 0; i--) changed.push(this.newAction());
      shuffle(changed, this.random);
      const blocks = Math.max(1, depth - 1 + Math.floor(this.random() * 4));
      const perBlock: Action[][] = Array.from({ length: blocks }, () => []);
      for (const a of changed) perBlock[Math.floor(this.random() * blocks)]!.push(a);
      const now = Math.max(Math.floor(Date.now() / 1000), forkTime + blocks);
      for (const [i, actions] of perBlock.entries()) {
        await this.mine(actions, forkTime + Math.max(i + 1, Math.floor(((i + 1) * (now - forkTime)) / blocks)));
      }
      return {
        chainId: this.chainId,
        depth,
        fork,
        newBlocks: blocks,
        oldActions: old.length,
        newActions: changed.length,
      };
    });
  }

  private freshLabel(): string {
    return `rm${this.chainId % 100}x${(this.labelsMade++).toString(36)}`;
  }

  /** A label this chain mined an action for in a still-canonical block, else a fresh one. */
  private knownLabel(): string {
    const labels = [...this.history.values()].flat().flatMap((a) => ("label" in a ? [a.label] : []));
    return labels.length > 0 ? labels[Math.floor(this.random() * labels.length)]! : this.freshLabel();
  }

  private account(): number {
    return 1 + Math.floor(this.random() * 6);
  }

  private newAction(): Action {
    if (!this.contracts.names) return { kind: "primary", account: this.account(), label: this.knownLabel() };
    const draw = this.random();
    if (draw < 0.3) return { kind: "register", label: this.freshLabel(), owner: this.account() };
    if (draw < 0.45) return { kind: "transfer", label: this.knownLabel(), to: this.account() };
    if (draw < 0.6) return { kind: "resolver", label: this.knownLabel() };
    if (draw < 0.75) return { kind: "text", label: this.knownLabel(), value: `v${Math.floor(this.random() * 1e6)}` };
    if (draw < 0.85) return { kind: "addr", label: this.knownLabel() };
    return { kind: "primary", account: this.account(), label: this.knownLabel() };
  }

  /** The same action with another owner, recipient, value or name. */
  private changed(a: Action): Action {
    switch (a.kind) {
      case "register":
        return { ...a, owner: this.account() };
      case "transfer":
        return { ...a, to: this.account() };
      case "text":
        return { ...a, value: `${a.value}-changed` };
      case "primary":
        return { ...a, account: this.account() };
      default:
        return { kind: "text", label: a.label, value: "changed" };
    }
  }

  /** Turns actions into transactions on the current state and mines them (or an empty block) at `timestamp`. */
  private async mine(actions: Action[], timestamp: number): Promise<void> {
    const txs = await this.transactions(actions);
    await this.chain.setNextBlockTimestamp(timestamp);
    const before = await this.head();
    if (txs.length > 0) await this.chain.send(txs.map((t) => t.tx));
    else await this.chain.mineEmpty(1);
    const number = before + 1;
    if ((await this.head()) !== number) throw new Error(`chain ${this.chainId}: expected one new block ${number}`);
    this.history.set(
      number,
      txs.map((t) => t.action),
    );
    this.actionsMined += txs.length;
    this.actionsSkipped += actions.length - txs.length;
    this.maxHeadSeen = Math.max(this.maxHeadSeen, number);
  }

  private async transactions(actions: Action[]): Promise<{ action: Action; tx: Tx }[]> {
    const { real, own } = loadDevnetContracts();
    const names = this.contracts.names;
    const nodeOf = (label: string) => childNode(names!.parentNode, label);
    const owners = new Map<string, Address>();
    if (names) {
      const labels = [...new Set(actions.flatMap((a) => (a.kind === "primary" || !("label" in a) ? [] : [a.label])))];
      const read = await this.chain.readMany<Address>(
        labels.map((l) => ({
          to: names.registry,
          abi: real.ENSRegistry.abi as Abi,
          functionName: "owner",
          args: [nodeOf(l)],
        })),
      );
      labels.forEach((l, i) => owners.set(l, read[i]!));
      // A wrapped name's owner is the NameWrapper's token holder.
      const wrapper = names.wrapped?.nameWrapper;
      const wrappedLabels = labels.filter((l) => wrapper && owners.get(l)!.toLowerCase() === wrapper.toLowerCase());
      const holders = await this.chain.readMany<Address>(
        wrappedLabels.map((l) => ({
          to: wrapper!,
          abi: own.NameWrapper.abi as Abi,
          functionName: "ownerOf",
          args: [BigInt(nodeOf(l))],
        })),
      );
      wrappedLabels.forEach((l, i) => owners.set(l, holders[i]!));
    }
    const acct = (i: number) => this.chain.accounts[i]!;
    const touched = new Set<string>();
    const out: { action: Action; tx: Tx }[] = [];
    const call = (from: Address, to: Address, abi: Abi, fn: string, args: unknown[]): Tx =>
      Chain.call(from, to, abi, fn, args, `reorg workload: ${fn}`);
    for (const a of actions) {
      // One action per name and block: actions of different senders on one name would depend on their order.
      if (a.kind !== "primary") {
        if (touched.has(a.label)) continue;
        touched.add(a.label);
      }
      const owner = a.kind === "primary" ? undefined : owners.get(a.label);
      const exists = owner !== undefined && owner !== zeroAddress;
      let tx: Tx | undefined;
      if (a.kind === "primary") {
        const name = names ? `${a.label}.${names.suffix}` : `${a.label}.eth`;
        tx = call(acct(a.account), this.contracts.reverseRegistrar, own.StandaloneReverseRegistrar.abi, "setName", [
          name,
        ]);
      } else if (a.kind === "register") {
        if (exists) tx = undefined;
        else if (names!.wrapped)
          tx = call(
            this.chain.deployer,
            names!.wrapped.controller,
            own.LineanamesRegistrarController.abi,
            "ownerRegister",
            [a.label, acct(a.owner), YEAR, zeroAddress],
          );
        else
          tx = call(this.chain.deployer, names!.baseRegistrar, real.BaseRegistrarImplementation.abi, "register", [
            BigInt(labelhash(a.label)),
            acct(a.owner),
            YEAR,
          ]);
      } else if (exists && this.chain.accounts.some((x) => x.toLowerCase() === owner!.toLowerCase())) {
        const node = nodeOf(a.label);
        const wrapper = names!.wrapped?.nameWrapper;
        if (a.kind === "transfer") {
          const to = acct(a.to).toLowerCase() === owner!.toLowerCase() ? acct(1 + (a.to % 6)) : acct(a.to);
          tx = wrapper
            ? call(owner!, wrapper, own.NameWrapper.abi, "safeTransferFrom", [owner!, to, BigInt(node), 1n, "0x"])
            : call(owner!, names!.registry, real.ENSRegistry.abi, "setOwner", [node, to]);
        } else if (a.kind === "resolver") {
          tx = wrapper
            ? call(owner!, wrapper, own.NameWrapper.abi, "setResolver", [node, names!.resolver])
            : call(owner!, names!.registry, real.ENSRegistry.abi, "setResolver", [node, names!.resolver]);
        } else if (a.kind === "text") {
          tx = call(owner!, names!.resolver, own.ModernResolver.abi, "setText", [node, "description", a.value]);
        } else {
          tx = call(owner!, names!.resolver, own.ModernResolver.abi, "setAddr", [node, owner!]);
        }
      }
      if (tx) out.push({ action: a, tx });
    }
    return out;
  }
}

function shuffle<T>(items: T[], random: () => number): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
}
