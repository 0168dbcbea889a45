import { type Hex, pad, zeroAddress } from "viem";
import type { Tx } from "../chain";
import { MIN_COMMITMENT_AGE, PAYMENT } from "../deploy/root";
import type { NameFacts } from "./model";
import { multicallData, recordCalls } from "./records";
import type { RootKit, RootSizes } from "./root-kit";

/**
 * Era 3 of the root chain: the 2025 controller with referrers (zero, an address, and one whose high 12 bytes are
 * not zero), renewals through every controller and the renewal-with-referrer contract, legacy and default reverse
 * names, and a record wipe on the newer resolver.
 */
export async function playReferrerEra(
  kit: RootKit,
  sizes: RootSizes,
  odd: Record<string, string>,
  legacyNames: NameFacts[],
  wrappedNames: NameFacts[],
) {
  const { ctx, own, real, chain, book, rng, labels, A, reg, oldReg, registrar, wrapper, me, dur, tx, ethName, sub } =
    kit;
  // ---- era 3: the 2025 controller with referrers, renewals, reverse and primary names. ----
  ctx.log(`root: ${sizes.unwrapped} registrations with referrers, renewals, reverse names`);
  const referrerFor = (i: number): Hex =>
    i % 3 === 0
      ? pad("0x", { size: 32 })
      : i % 3 === 1
        ? pad(ctx.owners[i % ctx.owners.length], { size: 32 })
        : ctx.secret(); // high 12 bytes non-zero
  const unwrappedRegs = Array.from({ length: sizes.unwrapped }, (_, i) => {
    const label = i === 0 ? labels.take(odd.nul) : labels.maybeUnhealable(0.1);
    return {
      label,
      owner: ctx.owner(),
      secret: ctx.secret(),
      resolver: i % 2 === 0 ? A("PublicResolver") : zeroAddress,
      referrer: referrerFor(i),
    };
  });
  const unwrappedCommitments = await chain.readMany<Hex>(
    unwrappedRegs.map((r) => ({
      to: A("UnwrappedEthRegistrarController"),
      abi: own.UnwrappedEthRegistrarController.abi,
      functionName: "makeCommitment",
      args: [r.label, r.owner, dur, r.secret, r.resolver, r.referrer],
    })),
  );
  await chain.send(
    unwrappedRegs.map((r, i) =>
      tx(r.owner, "UnwrappedEthRegistrarController", own.UnwrappedEthRegistrarController.abi, "commit", [
        unwrappedCommitments[i],
      ]),
    ),
  );
  await chain.increaseTime(MIN_COMMITMENT_AGE + 1);
  const unwrappedNames: NameFacts[] = [];
  await chain.send(
    unwrappedRegs.map((r) => {
      const f = book.add({
        ...ethName(r.label),
        via: "unwrapped-controller",
        registryOwner: r.owner,
        registrant: r.owner,
        resolver: r.resolver === zeroAddress ? undefined : r.resolver,
      });
      unwrappedNames.push(f);
      return tx(
        r.owner,
        "UnwrappedEthRegistrarController",
        own.UnwrappedEthRegistrarController.abi,
        "register",
        [r.label, r.owner, dur, r.secret, r.resolver, r.referrer],
        PAYMENT,
      );
    }),
  );

  const step7: Tx[] = [];
  unwrappedNames.forEach((f, i) => {
    if (f.resolver)
      step7.push({
        from: f.registryOwner!,
        to: A("PublicResolver"),
        data: multicallData(real.PublicResolver.abi, recordCalls(f, f.registryOwner!, i, rng)),
        note: "PublicResolver.multicall",
      });
  });
  // Renewals through every path (anyone may pay for a renewal).
  const payer = () => ctx.owner();
  legacyNames
    .filter((_, i) => i % 3 === 0)
    .forEach((f) =>
      step7.push(
        tx(
          payer(),
          "LegacyEthRegistrarController",
          real.ETHRegistrarController.abi,
          "renew",
          [f.labels[0], dur],
          PAYMENT,
        ),
      ),
    );
  wrappedNames
    .filter((_, i) => i % 3 === 1)
    .forEach((f) =>
      step7.push(
        tx(
          payer(),
          "WrappedEthRegistrarController",
          own.WrappedEthRegistrarController.abi,
          "renew",
          [f.labels[0], dur],
          PAYMENT,
        ),
      ),
    );
  unwrappedNames
    .filter((_, i) => i % 2 === 0)
    .forEach((f, i) =>
      step7.push(
        tx(
          payer(),
          "UnwrappedEthRegistrarController",
          own.UnwrappedEthRegistrarController.abi,
          "renew",
          [f.labels[0], dur, referrerFor(i + 1)],
          PAYMENT,
        ),
      ),
    );
  [...wrappedNames.filter((_, i) => i % 3 === 2), ...unwrappedNames.filter((_, i) => i % 2 === 1)].forEach((f, i) =>
    step7.push(
      tx(
        payer(),
        "RenewalWithReferrer",
        own.UniversalRegistrarRenewalWithReferrer.abi,
        "renew",
        [f.labels[0], dur, referrerFor(i)],
        PAYMENT,
      ),
    ),
  );
  // Reverse names: the legacy addr.reverse registrar and the default reverse registrar.
  const primaries: Record<string, { legacy?: string; default?: string }> = {};
  const named = [...legacyNames, ...unwrappedNames].filter(
    (f) => f.registryOwner && ctx.owners.includes(f.registryOwner),
  );
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
    step8.push(
      tx(wipe.wrappedOwner!, "ModernResolver", own.ModernResolver.abi, "setText", [
        wipe.node,
        "url",
        "https://example.com/after-clear",
      ]),
    );
    wipe.texts = { url: "https://example.com/after-clear" };
    wipe.addr = undefined;
  }
  await chain.send(step8);
  return { primaries };
}
