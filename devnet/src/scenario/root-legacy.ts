import { type Address, type Hex, zeroAddress } from "viem";
import type { Tx } from "../chain";
import { MIN_COMMITMENT_AGE, PAYMENT } from "../deploy/root";
import { childNode, ETH_NODE, labelhash } from "../names";
import type { NameFacts } from "./model";
import { multicallData, recordCalls, separateData } from "./records";
import type { RootKit, RootSizes } from "./root-kit";

/**
 * Eras 0 and 1 of the root chain: names in the old registry, the registry with fallback and the legacy commit/reveal
 * controller, the migration of most old names (with old-registry events afterwards, for migrated and unmigrated
 * names), records of every kind, subnames 2–3 deep (odd labels among them), deletions, registry and ERC-721
 * transfers, reclaims, resolver and TTL changes.
 */
export async function playLegacyEras(kit: RootKit, sizes: RootSizes, odd: Record<string, string>) {
  const { ctx, own, real, chain, book, rng, labels, A, reg, oldReg, registrar, wrapper, me, dur, tx, ethName, sub } =
    kit;
  // ---- era 0: the old registry. The deployer holds `eth` there, as the auction registrar did. ----
  ctx.log(`root: ${sizes.old} names in the old registry`);
  const oldNames: NameFacts[] = [];
  const step0: Tx[] = [];
  for (let i = 0; i < sizes.old; i++) {
    const owner = ctx.owner();
    const f = book.add({
      ...ethName(labels.maybeUnhealable(0.3)),
      via: "old-registry",
      registryOwner: owner,
      resolver: A("LegacyPublicResolver"),
    });
    oldNames.push(f);
    step0.push(
      tx(me, "RegistryOld", oldReg, "setSubnodeRecord", [
        ETH_NODE,
        labelhash(f.labels[0]),
        owner,
        A("LegacyPublicResolver"),
        0n,
      ]),
    );
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
  const legacyLabels = Array.from({ length: sizes.legacy }, (_, i) =>
    i === 0 ? labels.take(odd.uppercase) : labels.maybeUnhealable(0.1),
  );
  const legacy = legacyLabels.map((label, i) => {
    // Name 2 (a word with records) belongs to the cross-chain account; name 0 is the odd uppercase label.
    const owner = i === 2 ? ctx.crossChainAccount : ctx.owner();
    const withConfig = i % 2 === 0;
    return {
      label,
      owner,
      secret: ctx.secret(),
      withConfig,
      resolver: withConfig ? A("PublicResolver") : zeroAddress,
      addr: withConfig ? owner : zeroAddress,
    };
  });
  const commitments = await chain.readMany<Hex>(
    legacy.map((r) => ({
      to: A("LegacyEthRegistrarController"),
      abi: real.ETHRegistrarController.abi,
      functionName: "makeCommitmentWithConfig",
      args: [r.label, r.owner, r.secret, r.resolver, r.addr],
    })),
  );
  await chain.send(
    legacy.map((r, i) =>
      tx(r.owner, "LegacyEthRegistrarController", real.ETHRegistrarController.abi, "commit", [commitments[i]]),
    ),
  );
  await chain.increaseTime(MIN_COMMITMENT_AGE + 1);

  const migrated = oldNames.filter((_, i) => i % 4 !== 1); // most old names move to the new registry
  const legacyNames: NameFacts[] = [];
  await chain.send([
    ...legacy.map((r) => {
      const f = book.add({
        ...ethName(r.label),
        via: "legacy-controller",
        registryOwner: r.owner,
        registrant: r.owner,
      });
      if (r.withConfig) {
        f.resolver = A("PublicResolver");
        f.addr = r.owner.toLowerCase() as Address;
      }
      legacyNames.push(f);
      return r.withConfig
        ? tx(
            r.owner,
            "LegacyEthRegistrarController",
            real.ETHRegistrarController.abi,
            "registerWithConfig",
            [r.label, r.owner, dur, r.secret, r.resolver, r.addr],
            PAYMENT,
          )
        : tx(
            r.owner,
            "LegacyEthRegistrarController",
            real.ETHRegistrarController.abi,
            "register",
            [r.label, r.owner, dur, r.secret],
            PAYMENT,
          );
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
      step2.push({
        from: owner,
        to: A("PublicResolver"),
        data: multicallData(real.PublicResolver.abi, recordCalls(f, owner, i, rng)),
        note: "PublicResolver.multicall",
      });
      if (i % 7 === 0)
        step2.push(
          tx(owner, "PublicResolver", real.PublicResolver.abi, "setAuthorisation", [
            f.node,
            ctx.otherThan(owner),
            true,
          ]),
        );
    }
    if (i % 2 === 0) {
      const s1 = sub(f, labels.maybeUnhealable(0.25), "registry-subname", owner);
      s1.resolver = A("PublicResolver");
      legacySubs.push(s1);
      step2.push(
        tx(owner, "Registry", reg, "setSubnodeRecord", [
          f.node,
          labelhash(s1.labels[0]),
          owner,
          A("PublicResolver"),
          0n,
        ]),
      );
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
  oldNames
    .filter((f) => !f.migrated)
    .forEach((f) => {
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
    step2.push(
      tx(s.registryOwner!, "Registry", reg, "setSubnodeOwner", [parent.node, labelhash(s.labels[0]), s.registryOwner]),
    );
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
      step3.push(
        tx(parent.registryOwner!, "Registry", reg, "setSubnodeOwner", [
          parent.node,
          labelhash(s.labels[0]),
          zeroAddress,
        ]),
      );
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
      step3.push({
        from: owner,
        to: A("ModernResolver"),
        data: multicallData(own.ModernResolver.abi, recordCalls(f, owner, i + 1, rng)),
        note: "ModernResolver.multicall",
      });
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

  return { legacyNames, legacySubs };
}
