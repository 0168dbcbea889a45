import { type Abi, type Address, encodeFunctionData, zeroAddress } from "viem";
import { Chain, type Tx } from "../chain";
import { loadDevnetContracts } from "../contracts";
import type { BaseContract, Premint } from "../deploy/base";
import { PAYMENT } from "../deploy/root";
import type { ChainDeployment } from "../deploy/types";
import { childNode, labelhash, managedNameOf } from "../names";
import { type ScenarioContext, YEAR_SECONDS } from "./context";
import type { NameFacts } from "./model";
import { l2PrimaryNameTxs } from "./primary";
import { everyRecordKind, multicallData, recordCalls } from "./records";

export interface BaseSizes {
  ea: number;
  regular: number;
  upgradeable: number;
}

/**
 * Basenames on the "base" chain: preminted names (minted at deploy time) claimed into the registry, registrations
 * through the early-access, regular and upgradeable controllers (with records written during registration),
 * records, subnames, deletions, renewals, ERC-721 transfers and L2 primary names.
 */
export async function playBasenames(
  ctx: ScenarioContext,
  d: ChainDeployment<BaseContract>,
  sizes: BaseSizes,
  premints: Premint[],
) {
  const { own, real } = loadDevnetContracts();
  const { chain, book, rng, labels } = ctx;
  const c = d.contracts;
  const A = (k: BaseContract) => c[k].address;
  const tx = (from: Address, to: BaseContract, abi: Abi, fn: string, args: unknown[], value?: bigint): Tx =>
    Chain.call(from, A(to), abi, fn, args, `${to}.${fn}`, value);
  const ctl = own.BasenamesRegistrarController.abi;
  const registrar = own.BasenamesBaseRegistrar.abi;
  const reg = real.ENSRegistry.abi;
  const resolverAbi = own.ModernResolver.abi;
  const dur = BigInt(YEAR_SECONDS);
  const managed = managedNameOf(chain, "base");
  const baseName = (label: string, via: string, owner: Address): NameFacts =>
    book.add({
      name: `${label}.${managed.name}`,
      labels: [label, managed.label, "eth"],
      node: childNode(managed.node, label),
      chainId: chain.chainId,
      via,
      registryOwner: owner,
      registrant: owner,
      resolver: A("Resolver"),
    });

  ctx.log(
    `base: ${sizes.ea + sizes.regular + sizes.upgradeable} Basenames registrations, ${premints.length} preminted`,
  );
  const names: NameFacts[] = [];
  const step1: Tx[] = [];
  const register = (controller: BaseContract, via: string, count: number, withData: boolean) => {
    for (let i = 0; i < count; i++) {
      const owner = i === 0 && via === "basenames-ea-controller" ? ctx.crossChainAccount : ctx.owner();
      const f = baseName(labels.maybeUnhealable(0.1), via, owner);
      names.push(f);
      // Records written by the controller during registration (the resolver trusts it).
      const data = withData
        ? recordCalls(f, owner, names.length - 1, rng).map((call) =>
            encodeFunctionData({ abi: resolverAbi, functionName: call.functionName, args: call.args } as never),
          )
        : [];
      step1.push(tx(owner, controller, ctl, "register", [f.labels[0], owner, dur, A("Resolver"), data], PAYMENT));
    }
  };
  register("EARegistrarController", "basenames-ea-controller", sizes.ea, true);
  register("RegistrarController", "basenames-controller", sizes.regular, true);
  register("UpgradeableRegistrarController", "basenames-upgradeable-controller", sizes.upgradeable, false);
  // Preminted names have a token but no registry record until the holder reclaims it.
  const preminted = premints.map((p) => {
    const f = baseName(p.label, "basenames-premint", p.owner);
    f.resolver = undefined;
    step1.push(tx(p.owner, "BaseRegistrar", registrar, "reclaim", [BigInt(labelhash(p.label)), p.owner]));
    return f;
  });
  await chain.send(step1);

  const step2: Tx[] = [];
  const subs: NameFacts[] = [];
  names.forEach((f, i) => {
    const owner = f.registryOwner!;
    if (f.via === "basenames-upgradeable-controller") {
      step2.push({
        from: owner,
        to: A("Resolver"),
        data: multicallData(resolverAbi, recordCalls(f, owner, i, rng)),
        note: "Resolver.multicall",
      });
    }
    if (i % 3 === 0) {
      const label1 = labels.maybeUnhealable(0.3);
      const s = book.add({
        name: `${label1}.${f.name}`,
        labels: [label1, ...f.labels],
        node: childNode(f.node, label1),
        chainId: chain.chainId,
        via: "registry-subname",
        registryOwner: owner,
        resolver: A("Resolver"),
      });
      subs.push(s);
      step2.push(
        tx(owner, "Registry", reg, "setSubnodeRecord", [f.node, labelhash(s.labels[0]), owner, A("Resolver"), 0n]),
      );
      if (i % 6 === 0) {
        const label = labels.maybeUnhealable(0.3);
        const s2 = book.add({
          name: [label, ...s.labels].join("."),
          labels: [label, ...s.labels],
          node: childNode(s.node, label),
          chainId: chain.chainId,
          via: "registry-subname",
          registryOwner: owner,
        });
        step2.push(tx(owner, "Registry", reg, "setSubnodeOwner", [s.node, labelhash(label), owner]));
        subs.push(s2);
      }
    }
  });
  // One name gets every record kind (and a version bump), so the resolver emits every record event.
  step2.push({
    from: names[0].registryOwner!,
    to: A("Resolver"),
    data: multicallData(resolverAbi, everyRecordKind(names[0], names[0].registryOwner!, rng)),
    note: "Resolver.multicall(every kind)",
  });
  for (const f of preminted) {
    step2.push(tx(f.registryOwner!, "Registry", reg, "setResolver", [f.node, A("Resolver")]));
    f.resolver = A("Resolver");
  }
  // L2 primary names on Base, set as a user does: the chain's coin type first, then the L2 reverse registrar.
  const primaries: Record<string, string> = {};
  ctx.sample(names, Math.max(1, Math.ceil(names.length / 3))).forEach((f) => {
    const who = f.registryOwner!.toLowerCase();
    if (primaries[who]) return;
    primaries[who] = f.name;
    step2.push(...l2PrimaryNameTxs(chain.chainId, f, f.registryOwner!, A("L2ReverseRegistrar")));
  });
  await chain.send(step2);

  const step3: Tx[] = [];
  const transferred: { f: NameFacts; to: Address }[] = [];
  names.forEach((f, i) => {
    if (f.via !== "basenames-ea-controller" && i % 2 === 0) {
      const controller = f.via === "basenames-controller" ? "RegistrarController" : "UpgradeableRegistrarController";
      step3.push(tx(ctx.owner(), controller, ctl, "renew", [f.labels[0], dur], PAYMENT));
    }
    if (i % 4 === 1) {
      const to = ctx.otherThan(f.registrant!);
      step3.push(
        tx(f.registrant!, "BaseRegistrar", registrar, "transferFrom", [
          f.registrant,
          to,
          BigInt(labelhash(f.labels[0])),
        ]),
      );
      f.registrant = to;
      transferred.push({ f, to });
    }
  });
  subs
    .filter((s) => s.labels.length === 4)
    .forEach((s, i) => {
      if (i === 1) {
        // A TTL and a registry-level transfer (Transfer, not NewOwner) of a subname the scenario keeps.
        const to = ctx.otherThan(s.registryOwner!);
        step3.push(tx(s.registryOwner!, "Registry", reg, "setTTL", [s.node, 3600n]));
        step3.push(tx(s.registryOwner!, "Registry", reg, "setOwner", [s.node, to]));
        s.registryOwner = to;
      }
      if (i % 2 !== 0) return;
      const parent = book.get(childNode(managed.node, s.labels[1]));
      step3.push(
        tx(parent.registryOwner!, "Registry", reg, "setSubnodeOwner", [
          parent.node,
          labelhash(s.labels[0]),
          zeroAddress,
        ]),
      );
      s.registryOwner = zeroAddress;
      s.deleted = true;
    });
  await chain.send(step3);
  await chain.send(
    transferred.map(({ f, to }) => {
      f.registryOwner = to;
      return tx(to, "BaseRegistrar", registrar, "reclaim", [BigInt(labelhash(f.labels[0])), to]);
    }),
  );
  return { primaries };
}
