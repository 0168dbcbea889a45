import { type Address, type Hex, pad, zeroAddress } from "viem";
import { Chain, type Tx } from "../chain";
import { loadDevnetContracts } from "../contracts";
import { MIN_COMMITMENT_AGE, PAYMENT, type RootContract } from "../deploy/root";
import type { ChainDeployment } from "../deploy/types";
import { ETH_NODE, childNode, dnsWire, labelhash } from "../names";
import type { ScenarioContext } from "./context";
import { YEAR_SECONDS } from "./context";
import type { NameFacts } from "./model";
import { multicallData, recordCalls, separateData } from "./records";

const CANNOT_UNWRAP = 1;
const PARENT_CANNOT_CONTROL = 1 << 16;

export interface RootSizes {
  legacy: number;
  old: number;
  wrapped: number;
  unwrapped: number;
}

/**
 * The ENS root chain's story, era by era: names in the old registry (some later migrated, with old-registry
 * events after the migration too), the legacy commit/reveal controller, records, subnames 2–3 deep, deletions,
 * transfers, resolver changes, the NameWrapper (2023 controller, wrapping, fuses, expiry, ERC-1155 transfers,
 * unwrapping), the 2025 controller with referrers, renewals (with referrer too), and reverse names.
 */
export async function playRoot(ctx: ScenarioContext, d: ChainDeployment<RootContract>, sizes: RootSizes, odd: Record<string, string>) {
  const { own, real } = loadDevnetContracts();
  const { chain, book, rng, labels } = ctx;
  const c = d.contracts;
  const A = (k: RootContract) => c[k].address;
  const reg = real.ENSRegistryWithFallback.abi;
  const oldReg = real.ENSRegistry.abi;
  const registrar = real.BaseRegistrarImplementation.abi;
  const wrapper = own.NameWrapper.abi;
  const tx = (from: Address, to: RootContract, abi: import("viem").Abi, fn: string, args: unknown[], value?: bigint): Tx =>
    Chain.call(from, A(to), abi, fn, args, `${to}.${fn}`, value);
  const me = chain.deployer;
  const dur = BigInt(YEAR_SECONDS);
  const ethName = (label: string): NameFacts =>
    ({ name: `${label}.eth`, labels: [label, "eth"], node: childNode(ETH_NODE, label), chainId: chain.chainId } as NameFacts);
  const sub = (parent: NameFacts, label: string, via: string, owner: Address): NameFacts =>
    book.add({ name: `${label}.${parent.name}`, labels: [label, ...parent.labels], node: childNode(parent.node, label), chainId: chain.chainId, via, registryOwner: owner });

  // ---- era 0: the old registry. The deployer holds `eth` there, as the auction registrar did. ----
  ctx.log(`root: ${sizes.old} names in the old registry`);
  const oldNames: NameFacts[] = [];
  const step0: Tx[] = [];
  for (let i = 0; i < sizes.old; i++) {
    const owner = ctx.owner();
    const f = book.add({ ...ethName(labels.maybeUnhealable(0.3)), via: "old-registry", registryOwner: owner, resolver: A("LegacyPublicResolver") });
    oldNames.push(f);
    step0.push(tx(me, "RegistryOld", oldReg, "setSubnodeRecord", [ETH_NODE, labelhash(f.labels[0]), owner, A("LegacyPublicResolver"), 0n]));
  }
  await chain.send(step0);

  const step1: Tx[] = [];
  const oldSubs: NameFacts[] = [];
  oldNames.forEach((f, i) => {
    const owner = f.registryOwner!;
    for (const data of separateData(real.LegacyPublicResolver.abi, recordCalls(f, owner, i, rng).slice(0, 2))) {
      step1.push({ from: owner, to: A("LegacyPublicResolver"), data, note: "LegacyPublicResolver record" });
    }
    if (i % 2 === 0) {
      const s = sub(f, labels.maybeUnhealable(0.3), "old-registry-subname", owner);
      oldSubs.push(s);
      step1.push(tx(owner, "RegistryOld", oldReg, "setSubnodeOwner", [f.node, labelhash(s.labels[0]), owner]));
    }
  });
  await chain.send(step1);

  // ---- era 1: the registry with fallback and the legacy controller (commit, wait, register). ----
  ctx.log(`root: ${sizes.legacy} legacy-controller registrations, migrating old names`);
  const legacyLabels = Array.from({ length: sizes.legacy }, (_, i) => (i === 0 ? labels.take(odd.uppercase) : labels.maybeUnhealable(0.1)));
  const legacy = legacyLabels.map((label, i) => {
    const owner = ctx.owner();
    const withConfig = i % 2 === 0;
    return { label, owner, secret: ctx.secret(), withConfig, resolver: withConfig ? A("PublicResolver") : zeroAddress, addr: withConfig ? owner : zeroAddress };
  });
  const commitments = await chain.readMany<Hex>(
    legacy.map((r) => ({
      to: A("LegacyEthRegistrarController"),
      abi: real.ETHRegistrarController.abi,
      functionName: "makeCommitmentWithConfig",
      args: [r.label, r.owner, r.secret, r.resolver, r.addr],
    })),
  );
  await chain.send(legacy.map((r, i) => tx(r.owner, "LegacyEthRegistrarController", real.ETHRegistrarController.abi, "commit", [commitments[i]])));
  await chain.increaseTime(MIN_COMMITMENT_AGE + 1);

  const migrated = oldNames.filter((_, i) => i % 4 !== 1); // most old names move to the new registry
  const legacyNames: NameFacts[] = [];
  await chain.send([
    ...legacy.map((r) => {
      const f = book.add({ ...ethName(r.label), via: "legacy-controller", registryOwner: r.owner, registrant: r.owner });
      if (r.withConfig) {
        f.resolver = A("PublicResolver");
        f.addr = r.owner.toLowerCase() as Address;
      }
      legacyNames.push(f);
      return r.withConfig
        ? tx(r.owner, "LegacyEthRegistrarController", real.ETHRegistrarController.abi, "registerWithConfig", [r.label, r.owner, dur, r.secret, r.resolver, r.addr], PAYMENT)
        : tx(r.owner, "LegacyEthRegistrarController", real.ETHRegistrarController.abi, "register", [r.label, r.owner, dur, r.secret], PAYMENT);
    }),
    // Migration, as the registrar migration did: re-register old .eth names in the new base registrar.
    ...migrated.map((f) => {
      f.migrated = true;
      f.registrant = f.registryOwner;
      f.resolver = undefined; // the new registry has no resolver for it yet
      f.texts = undefined;
      f.addr = undefined;
      return tx(me, "BaseRegistrar", registrar, "register", [BigInt(labelhash(f.labels[0])), f.registryOwner, dur]);
    }),
  ]);
  oldNames.filter((f) => !f.migrated).forEach((f) => (f.migrated = false));

  // Records, subnames (2–3 deep, odd labels), and the old registry after migration.
  const step2: Tx[] = [];
  const legacySubs: NameFacts[] = [];
  legacyNames.forEach((f, i) => {
    const owner = f.registryOwner!;
    if (f.resolver === A("PublicResolver")) {
      step2.push({ from: owner, to: A("PublicResolver"), data: multicallData(real.PublicResolver.abi, recordCalls(f, owner, i, rng)), note: "PublicResolver.multicall" });
      if (i % 7 === 0) step2.push(tx(owner, "PublicResolver", real.PublicResolver.abi, "setAuthorisation", [f.node, ctx.otherThan(owner), true]));
    }
    if (i % 2 === 0) {
      const s1 = sub(f, labels.maybeUnhealable(0.25), "registry-subname", owner);
      s1.resolver = A("PublicResolver");
      legacySubs.push(s1);
      step2.push(tx(owner, "Registry", reg, "setSubnodeRecord", [f.node, labelhash(s1.labels[0]), owner, A("PublicResolver"), 0n]));
      if (i % 4 === 0) {
        const s2 = sub(s1, labels.maybeUnhealable(0.25), "registry-subname", owner);
        legacySubs.push(s2);
        step2.push(tx(owner, "Registry", reg, "setSubnodeOwner", [s1.node, labelhash(s2.labels[0]), owner]));
        if (i % 8 === 0) {
          const s3 = sub(s2, labels.maybeUnhealable(0.25), "registry-subname", owner);
          legacySubs.push(s3);
          step2.push(tx(owner, "Registry", reg, "setSubnodeOwner", [s2.node, labelhash(s3.labels[0]), owner]));
        }
      }
    }
  });
  // Every odd label once, as subnames of the first legacy name: the registry only ever sees their labelhash.
  {
    const parent = legacyNames[0];
    const owner = parent.registryOwner!;
    for (const key of ["emoji", "dotted", "spaces", "bracketHash", "nul"]) {
      const s = sub(parent, labels.take(`${odd[key]}-sub`), "registry-subname", owner);
      step2.push(tx(owner, "Registry", reg, "setSubnodeOwner", [parent.node, labelhash(s.labels[0]), owner]));
    }
  }
  migrated.forEach((f, i) => {
    const owner = f.registryOwner!;
    step2.push(tx(owner, "Registry", reg, "setResolver", [f.node, A("PublicResolver")]));
    f.resolver = A("PublicResolver");
    // Events in the old registry after migration: indexers must ignore them for migrated nodes.
    step2.push(tx(owner, "RegistryOld", oldReg, "setTTL", [f.node, 3600n]));
    if (i % 2 === 0) step2.push(tx(owner, "RegistryOld", oldReg, "setResolver", [f.node, A("LegacyPublicResolver")]));
  });
  oldNames.filter((f) => !f.migrated).forEach((f) => {
    // …and honour them for names that never migrated.
    const owner = f.registryOwner!;
    const s = sub(f, labels.word(), "old-registry-subname", owner);
    step2.push(tx(owner, "RegistryOld", oldReg, "setSubnodeOwner", [f.node, labelhash(s.labels[0]), owner]));
    s.registryOwner = ctx.otherThan(owner);
    step2.push(tx(owner, "RegistryOld", oldReg, "setOwner", [s.node, s.registryOwner]));
    step2.push(tx(owner, "RegistryOld", oldReg, "setTTL", [f.node, 600n]));
  });
  // Re-create old subnames of migrated parents in the new registry.
  for (const s of oldSubs) {
    const parent = book.get(childNode(ETH_NODE, s.labels[1]));
    if (!parent.migrated) continue;
    step2.push(tx(s.registryOwner!, "Registry", reg, "setSubnodeOwner", [parent.node, labelhash(s.labels[0]), s.registryOwner]));
    s.migrated = true;
  }
  await chain.send(step2);

  // Deletions, transfers (registry and ERC-721), resolver and TTL changes.
  const step3: Tx[] = [];
  const transferred721: { f: NameFacts; to: Address }[] = [];
  legacySubs.forEach((s, i) => {
    const parentNode = childNode(ETH_NODE, s.labels[s.labels.length - 2]);
    if (s.labels.length === 3 && i % 3 === 1) {
      const parent = book.get(parentNode);
      step3.push(tx(parent.registryOwner!, "Registry", reg, "setSubnodeOwner", [parent.node, labelhash(s.labels[0]), zeroAddress]));
      s.deleted = true;
      s.registryOwner = zeroAddress;
    } else if (i % 3 === 2) {
      const to = ctx.otherThan(s.registryOwner!);
      step3.push(tx(s.registryOwner!, "Registry", reg, "setOwner", [s.node, to]));
      s.registryOwner = to;
    }
  });
  legacyNames.forEach((f, i) => {
    const owner = f.registryOwner!;
    if (i % 5 === 1) {
      const to = ctx.otherThan(owner);
      step3.push(tx(owner, "BaseRegistrar", registrar, "transferFrom", [owner, to, BigInt(labelhash(f.labels[0]))]));
      f.registrant = to;
      transferred721.push({ f, to });
    } else if (i % 5 === 2) {
      step3.push(tx(owner, "Registry", reg, "setResolver", [f.node, A("ModernResolver")]));
      f.resolver = A("ModernResolver");
      f.texts = undefined;
      f.addr = undefined;
      step3.push({ from: owner, to: A("ModernResolver"), data: multicallData(own.ModernResolver.abi, recordCalls(f, owner, i + 1, rng)), note: "ModernResolver.multicall" });
    } else if (i % 5 === 3) {
      step3.push(tx(owner, "Registry", reg, "setTTL", [f.node, 300n]));
    }
  });
  await chain.send(step3);
  await chain.send(
    transferred721
      .filter((_, i) => i % 2 === 0)
      .map(({ f, to }) => {
        f.registryOwner = to;
        return tx(to, "BaseRegistrar", registrar, "reclaim", [BigInt(labelhash(f.labels[0])), to]);
      }),
  );

  // ---- era 2: the NameWrapper and the 2023 controller. ----
  ctx.log(`root: ${sizes.wrapped} wrapped registrations, wrapping, fuses, ERC-1155 transfers`);
  const wrappedLabels = Array.from({ length: sizes.wrapped }, (_, i) =>
    i === 0 ? labels.take(odd.emoji) : i === 1 ? labels.take(odd.dotted) : labels.maybeUnhealable(0.1),
  );
  const wrappedRegs = wrappedLabels.map((label) => ({ label, owner: ctx.owner(), secret: ctx.secret() }));
  const wrappedCommitments = await chain.readMany<Hex>(
    wrappedRegs.map((r) => ({
      to: A("WrappedEthRegistrarController"),
      abi: own.WrappedEthRegistrarController.abi,
      functionName: "makeCommitment",
      args: [r.label, r.owner, dur, r.secret, A("ModernResolver"), 0],
    })),
  );
  await chain.send(wrappedRegs.map((r, i) => tx(r.owner, "WrappedEthRegistrarController", own.WrappedEthRegistrarController.abi, "commit", [wrappedCommitments[i]])));
  await chain.increaseTime(MIN_COMMITMENT_AGE + 1);
  const wrappedNames: NameFacts[] = [];
  const step4: Tx[] = wrappedRegs.map((r) => {
    const f = book.add({ ...ethName(r.label), via: "wrapped-controller", registryOwner: A("NameWrapper"), registrant: A("NameWrapper"), wrappedOwner: r.owner, resolver: A("ModernResolver") });
    wrappedNames.push(f);
    return tx(r.owner, "WrappedEthRegistrarController", own.WrappedEthRegistrarController.abi, "register", [r.label, r.owner, dur, r.secret, A("ModernResolver"), 0], PAYMENT);
  });
  // Wrap some legacy names their holders still fully own.
  const toWrap = legacyNames.filter((f, i) => i % 5 === 4 && f.registrant === f.registryOwner);
  for (const f of toWrap) {
    const owner = f.registrant!;
    step4.push(tx(owner, "BaseRegistrar", registrar, "setApprovalForAll", [A("NameWrapper"), true]));
    step4.push(tx(owner, "NameWrapper", wrapper, "wrapETH2LD", [f.labels[0], owner, 0, zeroAddress]));
    f.registryOwner = A("NameWrapper");
    f.registrant = A("NameWrapper");
    f.wrappedOwner = owner;
    f.via = "legacy-controller-then-wrapped";
  }
  await chain.send(step4);

  const step5: Tx[] = [];
  const wrappedSubs: NameFacts[] = [];
  // Subnames start with a shorter expiry than their parent's, so extending them later is visible (ExpiryExtended).
  const now = BigInt(await chain.timestamp());
  const day = 86_400n;
  const subExpiry = now + 200n * day;
  wrappedNames.forEach((f, i) => {
    const owner = f.wrappedOwner!;
    step5.push({ from: owner, to: A("ModernResolver"), data: multicallData(own.ModernResolver.abi, recordCalls(f, owner, i, rng)), note: "ModernResolver.multicall" });
    if (i % 2 === 0) {
      const label = i === 0 ? labels.take(odd.bracketHash) : labels.maybeUnhealable(0.2);
      const s1 = sub(f, label, "wrapped-subname", A("NameWrapper"));
      s1.wrappedOwner = owner;
      s1.resolver = A("ModernResolver");
      wrappedSubs.push(s1);
      step5.push(tx(owner, "NameWrapper", wrapper, "setSubnodeRecord", [f.node, label, owner, A("ModernResolver"), 0n, 0, subExpiry]));
      if (i % 4 === 0) {
        const label2 = i === 0 ? labels.take(odd.spaces) : labels.maybeUnhealable(0.2);
        const s2 = sub(s1, label2, "wrapped-subname", A("NameWrapper"));
        s2.wrappedOwner = owner;
        wrappedSubs.push(s2);
        step5.push(tx(owner, "NameWrapper", wrapper, "setSubnodeOwner", [s1.node, label2, owner, 0, subExpiry]));
      }
    }
  });
  // Fuses and expiry: burn CANNOT_UNWRAP on one 2LD, child fuses with a longer expiry, and an explicit extension.
  const fused = wrappedNames[wrappedNames.length - 1];
  step5.push(tx(fused.wrappedOwner!, "NameWrapper", wrapper, "setFuses", [fused.node, CANNOT_UNWRAP]));
  await chain.send(step5);

  const step6: Tx[] = [];
  const depth2 = wrappedSubs.filter((s) => s.labels.length === 3);
  if (depth2[0]) {
    const parent = book.get(childNode(ETH_NODE, depth2[0].labels[1]));
    step6.push(tx(parent.wrappedOwner!, "NameWrapper", wrapper, "setChildFuses", [parent.node, labelhash(depth2[0].labels[0]), PARENT_CANNOT_CONTROL, now + 300n * day]));
  }
  if (depth2[1]) {
    const parent = book.get(childNode(ETH_NODE, depth2[1].labels[1]));
    step6.push(tx(parent.wrappedOwner!, "NameWrapper", wrapper, "extendExpiry", [parent.node, labelhash(depth2[1].labels[0]), now + 400n * day]));
  }
  // ERC-1155 moves: single transfers of 2LDs, one batch of a subname and its child, unwraps of 2LDs and a subname.
  const movable = wrappedNames.filter((f) => f !== fused && wrappedSubs.every((s) => !s.labels.includes(f.labels[0])));
  movable.forEach((f, i) => {
    const owner = f.wrappedOwner!;
    if (i % 3 === 0) {
      const to = ctx.otherThan(owner);
      step6.push(tx(owner, "NameWrapper", wrapper, "safeTransferFrom", [owner, to, BigInt(f.node), 1n, "0x"]));
      f.wrappedOwner = to;
    } else if (i % 3 === 1) {
      step6.push(tx(owner, "NameWrapper", wrapper, "unwrapETH2LD", [labelhash(f.labels[0]), owner, owner]));
      f.registryOwner = owner;
      f.registrant = owner;
      f.wrappedOwner = undefined;
      f.unwrapped = true;
    }
  });
  const depth3 = wrappedSubs.find((s) => s.labels.length === 4);
  if (depth3) {
    const s1 = book.get(childNode(ETH_NODE, depth3.labels[2]));
    const mid = book.get(childNode(s1.node, depth3.labels[1]));
    const owner = depth3.wrappedOwner!;
    const to = ctx.otherThan(owner);
    step6.push(tx(owner, "NameWrapper", wrapper, "safeBatchTransferFrom", [owner, to, [BigInt(mid.node), BigInt(depth3.node)], [1n, 1n], "0x"]));
    mid.wrappedOwner = to;
    depth3.wrappedOwner = to;
  }
  const unwrapSub = wrappedSubs.find((s) => s.labels.length === 3 && s !== depth2[0] && s !== depth2[1] && !wrappedSubs.some((t) => t.labels.length === 4 && t.labels[1] === s.labels[0]));
  if (unwrapSub) {
    const parent = book.get(childNode(ETH_NODE, unwrapSub.labels[1]));
    step6.push(tx(unwrapSub.wrappedOwner!, "NameWrapper", wrapper, "unwrap", [parent.node, labelhash(unwrapSub.labels[0]), unwrapSub.wrappedOwner]));
    unwrapSub.registryOwner = unwrapSub.wrappedOwner;
    unwrapSub.wrappedOwner = undefined;
    unwrapSub.unwrapped = true;
  }
  // Wrap an unwrapped registry subname with wrap(): its owner lets the wrapper act on the registry first.
  const wrapSub = legacySubs.find((s) => s.labels.length === 3 && !s.deleted && s.registryOwner !== zeroAddress);
  if (wrapSub) {
    const owner = wrapSub.registryOwner!;
    step6.push(tx(owner, "Registry", reg, "setApprovalForAll", [A("NameWrapper"), true]));
    step6.push(tx(owner, "NameWrapper", wrapper, "wrap", [dnsWire(wrapSub.labels), owner, zeroAddress]));
    wrapSub.registryOwner = A("NameWrapper");
    wrapSub.wrappedOwner = owner;
  }
  await chain.send(step6);

  // ---- era 3: the 2025 controller with referrers, renewals, reverse and primary names. ----
  ctx.log(`root: ${sizes.unwrapped} registrations with referrers, renewals, reverse names`);
  const referrerFor = (i: number): Hex =>
    i % 3 === 0 ? pad("0x", { size: 32 }) : i % 3 === 1 ? pad(ctx.owners[i % ctx.owners.length], { size: 32 }) : ctx.secret(); // high 12 bytes non-zero
  const unwrappedRegs = Array.from({ length: sizes.unwrapped }, (_, i) => {
    const label = i === 0 ? labels.take(odd.nul) : labels.maybeUnhealable(0.1);
    return { label, owner: ctx.owner(), secret: ctx.secret(), resolver: i % 2 === 0 ? A("PublicResolver") : zeroAddress, referrer: referrerFor(i) };
  });
  const unwrappedCommitments = await chain.readMany<Hex>(
    unwrappedRegs.map((r) => ({
      to: A("UnwrappedEthRegistrarController"),
      abi: own.UnwrappedEthRegistrarController.abi,
      functionName: "makeCommitment",
      args: [r.label, r.owner, dur, r.secret, r.resolver, r.referrer],
    })),
  );
  await chain.send(unwrappedRegs.map((r, i) => tx(r.owner, "UnwrappedEthRegistrarController", own.UnwrappedEthRegistrarController.abi, "commit", [unwrappedCommitments[i]])));
  await chain.increaseTime(MIN_COMMITMENT_AGE + 1);
  const unwrappedNames: NameFacts[] = [];
  await chain.send(
    unwrappedRegs.map((r) => {
      const f = book.add({ ...ethName(r.label), via: "unwrapped-controller", registryOwner: r.owner, registrant: r.owner, resolver: r.resolver === zeroAddress ? undefined : r.resolver });
      unwrappedNames.push(f);
      return tx(r.owner, "UnwrappedEthRegistrarController", own.UnwrappedEthRegistrarController.abi, "register", [r.label, r.owner, dur, r.secret, r.resolver, r.referrer], PAYMENT);
    }),
  );

  const step7: Tx[] = [];
  unwrappedNames.forEach((f, i) => {
    if (f.resolver) step7.push({ from: f.registryOwner!, to: A("PublicResolver"), data: multicallData(real.PublicResolver.abi, recordCalls(f, f.registryOwner!, i, rng)), note: "PublicResolver.multicall" });
  });
  // Renewals through every path (anyone may pay for a renewal).
  const payer = () => ctx.owner();
  legacyNames.filter((_, i) => i % 3 === 0).forEach((f) => step7.push(tx(payer(), "LegacyEthRegistrarController", real.ETHRegistrarController.abi, "renew", [f.labels[0], dur], PAYMENT)));
  wrappedNames.filter((_, i) => i % 3 === 1).forEach((f) => step7.push(tx(payer(), "WrappedEthRegistrarController", own.WrappedEthRegistrarController.abi, "renew", [f.labels[0], dur], PAYMENT)));
  unwrappedNames.filter((_, i) => i % 2 === 0).forEach((f, i) => step7.push(tx(payer(), "UnwrappedEthRegistrarController", own.UnwrappedEthRegistrarController.abi, "renew", [f.labels[0], dur, referrerFor(i + 1)], PAYMENT)));
  [...wrappedNames.filter((_, i) => i % 3 === 2), ...unwrappedNames.filter((_, i) => i % 2 === 1)].forEach((f, i) =>
    step7.push(tx(payer(), "RenewalWithReferrer", own.UniversalRegistrarRenewalWithReferrer.abi, "renew", [f.labels[0], dur, referrerFor(i)], PAYMENT)),
  );
  // Reverse names: the legacy addr.reverse registrar and the default reverse registrar.
  const primaries: Record<string, { legacy?: string; default?: string }> = {};
  const named = [...legacyNames, ...unwrappedNames].filter((f) => f.registryOwner && ctx.owners.includes(f.registryOwner));
  ctx.sample(named, Math.max(2, Math.ceil(named.length / 4))).forEach((f, i) => {
    const who = f.registryOwner!;
    const key = who.toLowerCase();
    primaries[key] ??= {};
    if (i % 2 === 0 && !primaries[key].legacy) {
      step7.push(tx(who, "ReverseRegistrar", real.ReverseRegistrar.abi, "setName", [f.name]));
      primaries[key].legacy = f.name;
    } else if (!primaries[key].default) {
      step7.push(tx(who, "DefaultReverseRegistrar", own.StandaloneReverseRegistrar.abi, "setName", [f.name]));
      primaries[key].default = f.name;
    }
  });
  await chain.send(step7);

  // A text change and a record wipe (VersionChanged) on the newer resolver.
  const step8: Tx[] = [];
  const wipe = wrappedNames.find((f) => f.wrappedOwner);
  if (wipe) {
    step8.push(tx(wipe.wrappedOwner!, "ModernResolver", own.ModernResolver.abi, "clearRecords", [wipe.node]));
    step8.push(tx(wipe.wrappedOwner!, "ModernResolver", own.ModernResolver.abi, "setText", [wipe.node, "url", "https://example.com/after-clear"]));
    wipe.texts = { url: "https://example.com/after-clear" };
    wipe.addr = undefined;
  }
  await chain.send(step8);
  return { primaries };
}
