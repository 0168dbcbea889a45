import { type Hex, zeroAddress } from "viem";
import type { Tx } from "../chain";
import { MIN_COMMITMENT_AGE, PAYMENT } from "../deploy/root";
import { childNode, dnsWire, ETH_NODE, labelhash } from "../names";
import type { NameFacts } from "./model";
import { multicallData, recordCalls } from "./records";
import type { RootKit, RootSizes } from "./root-kit";

const CANNOT_UNWRAP = 1;
const PARENT_CANNOT_CONTROL = 1 << 16;

/**
 * Era 2 of the root chain: the NameWrapper and the 2023 controller. Wrapped registrations, wrapping of existing
 * names (`wrapETH2LD`, `wrap`), wrapped subnames, fuses, expiry extension, ERC-1155 single and batch transfers and
 * unwraps of 2LDs and subnames.
 */
export async function playWrappedEra(
  kit: RootKit,
  sizes: RootSizes,
  odd: Record<string, string>,
  legacyNames: NameFacts[],
  legacySubs: NameFacts[],
) {
  const { ctx, own, real, chain, book, rng, labels, A, reg, oldReg, registrar, wrapper, me, dur, tx, ethName, sub } =
    kit;
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
  await chain.send(
    wrappedRegs.map((r, i) =>
      tx(r.owner, "WrappedEthRegistrarController", own.WrappedEthRegistrarController.abi, "commit", [
        wrappedCommitments[i],
      ]),
    ),
  );
  await chain.increaseTime(MIN_COMMITMENT_AGE + 1);
  const wrappedNames: NameFacts[] = [];
  const step4: Tx[] = wrappedRegs.map((r) => {
    const f = book.add({
      ...ethName(r.label),
      via: "wrapped-controller",
      registryOwner: A("NameWrapper"),
      registrant: A("NameWrapper"),
      wrappedOwner: r.owner,
      resolver: A("ModernResolver"),
    });
    wrappedNames.push(f);
    return tx(
      r.owner,
      "WrappedEthRegistrarController",
      own.WrappedEthRegistrarController.abi,
      "register",
      [r.label, r.owner, dur, r.secret, A("ModernResolver"), 0],
      PAYMENT,
    );
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
    step5.push({
      from: owner,
      to: A("ModernResolver"),
      data: multicallData(own.ModernResolver.abi, recordCalls(f, owner, i, rng)),
      note: "ModernResolver.multicall",
    });
    if (i % 2 === 0) {
      const label = i === 0 ? labels.take(odd.bracketHash) : labels.maybeUnhealable(0.2);
      const s1 = sub(f, label, "wrapped-subname", A("NameWrapper"));
      s1.wrappedOwner = owner;
      s1.resolver = A("ModernResolver");
      wrappedSubs.push(s1);
      step5.push(
        tx(owner, "NameWrapper", wrapper, "setSubnodeRecord", [
          f.node,
          label,
          owner,
          A("ModernResolver"),
          0n,
          0,
          subExpiry,
        ]),
      );
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
    step6.push(
      tx(parent.wrappedOwner!, "NameWrapper", wrapper, "setChildFuses", [
        parent.node,
        labelhash(depth2[0].labels[0]),
        PARENT_CANNOT_CONTROL,
        now + 300n * day,
      ]),
    );
  }
  if (depth2[1]) {
    const parent = book.get(childNode(ETH_NODE, depth2[1].labels[1]));
    step6.push(
      tx(parent.wrappedOwner!, "NameWrapper", wrapper, "extendExpiry", [
        parent.node,
        labelhash(depth2[1].labels[0]),
        now + 400n * day,
      ]),
    );
  }
  // ERC-1155 moves: single transfers of 2LDs, one batch of a subname and its child, unwraps of 2LDs and a subname.
  // A Set, not a search of every subname per name: that was quadratic (~3 min of a 250,000-name play).
  const subnameLabels = new Set(wrappedSubs.flatMap((s) => s.labels));
  const movable = wrappedNames.filter((f) => f !== fused && !subnameLabels.has(f.labels[0]));
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
    step6.push(
      tx(owner, "NameWrapper", wrapper, "safeBatchTransferFrom", [
        owner,
        to,
        [BigInt(mid.node), BigInt(depth3.node)],
        [1n, 1n],
        "0x",
      ]),
    );
    mid.wrappedOwner = to;
    depth3.wrappedOwner = to;
  }
  const unwrapSub = wrappedSubs.find(
    (s) =>
      s.labels.length === 3 &&
      s !== depth2[0] &&
      s !== depth2[1] &&
      !wrappedSubs.some((t) => t.labels.length === 4 && t.labels[1] === s.labels[0]),
  );
  if (unwrapSub) {
    const parent = book.get(childNode(ETH_NODE, unwrapSub.labels[1]));
    step6.push(
      tx(unwrapSub.wrappedOwner!, "NameWrapper", wrapper, "unwrap", [
        parent.node,
        labelhash(unwrapSub.labels[0]),
        unwrapSub.wrappedOwner,
      ]),
    );
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

  return { wrappedNames };
}
