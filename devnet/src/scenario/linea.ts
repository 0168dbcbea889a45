import type { Abi, Address, Hex } from "viem";
import { Chain, type Tx } from "../chain";
import { loadDevnetContracts } from "../contracts";
import type { LineaContract } from "../deploy/linea";
import { MIN_COMMITMENT_AGE, PAYMENT } from "../deploy/root";
import type { ChainDeployment } from "../deploy/types";
import { childNode, labelhash, managedNameOf } from "../names";
import { type ScenarioContext, YEAR_SECONDS } from "./context";
import type { NameFacts } from "./model";
import { l2PrimaryNameTxs } from "./primary";
import { everyRecordKind, multicallData, recordCalls } from "./records";

export interface LineaSizes {
  normal: number;
  owner: number;
  poh: number;
}

const CANNOT_UNWRAP = 1;
const PARENT_CANNOT_CONTROL = 1 << 16;
const DAY = 86_400n;

/**
 * Lineanames on the "linea" chain: paid (commit/reveal), owner and Proof-of-Humanity registrations (all wrapped),
 * records (every kind on one name), wrapped subnames, fuses (a 2LD's own and a child's), an explicit expiry
 * extension, a TTL set through the wrapper, ERC-1155 single and batch transfers, an unwrap, renewals and L2
 * primary names.
 */
export async function playLinea(
  ctx: ScenarioContext,
  d: ChainDeployment<LineaContract>,
  sizes: LineaSizes,
  pohAccounts: Address[],
) {
  const { own } = loadDevnetContracts();
  const { chain, book, rng, labels } = ctx;
  const A = (k: LineaContract) => d.contracts[k].address;
  const tx = (from: Address, to: LineaContract, abi: Abi, fn: string, args: unknown[], value?: bigint): Tx =>
    Chain.call(from, A(to), abi, fn, args, `${to}.${fn}`, value);
  const ctl = own.LineanamesRegistrarController.abi;
  const wrapper = own.NameWrapper.abi;
  const me = chain.deployer;
  const dur = BigInt(YEAR_SECONDS);
  const managed = managedNameOf(chain, "linea");
  const lineaName = (label: string, via: string, owner: Address): NameFacts =>
    book.add({
      name: `${label}.${managed.name}`,
      labels: [label, managed.label, "eth"],
      node: childNode(managed.node, label),
      chainId: chain.chainId,
      via,
      registryOwner: A("NameWrapper"),
      registrant: A("NameWrapper"),
      wrappedOwner: owner,
      resolver: A("Resolver"),
    });

  ctx.log(`linea: ${sizes.normal + sizes.owner + sizes.poh} Lineanames registrations`);
  const regs = Array.from({ length: sizes.normal }, (_, i) => ({
    label: labels.maybeUnhealable(0.1),
    owner: i === 0 ? ctx.crossChainAccount : ctx.owner(),
    secret: ctx.secret(),
  }));
  const commitments = await chain.readMany<Hex>(
    regs.map((r) => ({
      to: A("EthRegistrarController"),
      abi: ctl,
      functionName: "makeCommitment",
      args: [r.label, r.owner, dur, r.secret, A("Resolver"), 0],
    })),
  );
  await chain.send(regs.map((r, i) => tx(r.owner, "EthRegistrarController", ctl, "commit", [commitments[i]])));
  await chain.increaseTime(MIN_COMMITMENT_AGE + 1);

  const names: NameFacts[] = [];
  const step1: Tx[] = regs.map((r) => {
    names.push(lineaName(r.label, "lineanames-controller", r.owner));
    return tx(
      r.owner,
      "EthRegistrarController",
      ctl,
      "register",
      [r.label, r.owner, dur, r.secret, A("Resolver"), 0],
      PAYMENT,
    );
  });
  for (let i = 0; i < sizes.owner; i++) {
    const owner = ctx.owner();
    const f = lineaName(labels.maybeUnhealable(0.1), "lineanames-owner", owner);
    names.push(f);
    step1.push(tx(me, "EthRegistrarController", ctl, "ownerRegister", [f.labels[0], owner, dur, A("Resolver")]));
  }
  pohAccounts.slice(0, sizes.poh).forEach((account) => {
    const f = lineaName(labels.maybeUnhealable(0.1), "lineanames-poh", account);
    names.push(f);
    step1.push(tx(account, "EthRegistrarController", ctl, "pohRegister", [f.labels[0], account, A("Resolver")]));
  });
  await chain.send(step1);

  const step2: Tx[] = [];
  const primaries: Record<string, string> = {};
  const now = BigInt(await chain.timestamp());
  const subOf = new Map<NameFacts, NameFacts>();
  names.forEach((f, i) => {
    const owner = f.wrappedOwner!;
    const records = i === 0 ? everyRecordKind(f, owner, rng) : recordCalls(f, owner, i, rng);
    step2.push({
      from: owner,
      to: A("Resolver"),
      data: multicallData(own.ModernResolver.abi, records),
      note: "Resolver.multicall",
    });
    if (i % 3 === 0) {
      const label = labels.maybeUnhealable(0.3);
      const sub = book.add({
        name: `${label}.${f.name}`,
        labels: [label, ...f.labels],
        node: childNode(f.node, label),
        chainId: chain.chainId,
        via: "wrapped-subname",
        registryOwner: A("NameWrapper"),
        wrappedOwner: owner,
        resolver: A("Resolver"),
      });
      subOf.set(f, sub);
      // The first subname starts short-lived so that its parent can extend it (ExpiryExtended) below.
      const expiry = i === 0 ? now + 100n * DAY : BigInt(2 ** 40);
      step2.push(
        tx(owner, "NameWrapper", wrapper, "setSubnodeRecord", [f.node, label, owner, A("Resolver"), 0n, 0, expiry]),
      );
    }
    if (!primaries[owner.toLowerCase()] && i % 2 === 0) {
      primaries[owner.toLowerCase()] = f.name;
      step2.push(...l2PrimaryNameTxs(chain.chainId, f, owner, A("L2ReverseRegistrar")));
    }
  });
  await chain.send(step2);

  const step3: Tx[] = [];
  const leaves = names.filter(
    (f) => ![...book.byNode.values()].some((s) => s.labels.length === 4 && s.labels[1] === f.labels[0]),
  );
  leaves.forEach((f, i) => {
    const owner = f.wrappedOwner!;
    if (i % 4 === 0) {
      const to = ctx.otherThan(owner);
      step3.push(tx(owner, "NameWrapper", wrapper, "safeTransferFrom", [owner, to, BigInt(f.node), 1n, "0x"]));
      f.wrappedOwner = to;
    } else if (i % 4 === 1) {
      step3.push(tx(owner, "NameWrapper", wrapper, "unwrapETH2LD", [labelhash(f.labels[0]), owner, owner]));
      f.registryOwner = owner;
      f.registrant = owner;
      f.wrappedOwner = undefined;
      f.unwrapped = true;
    }
  });
  names
    .filter((f) => f.via === "lineanames-controller")
    .forEach((f, i) => {
      if (i % 2 === 0) step3.push(tx(ctx.owner(), "EthRegistrarController", ctl, "renew", [f.labels[0], dur], PAYMENT));
    });
  // Fuses, expiry and TTL on the first name (it has a subname, so it is never moved or unwrapped above): burn
  // CANNOT_UNWRAP on the 2LD, PARENT_CANNOT_CONTROL on its subname, then extend the subname's expiry.
  const first = names[0];
  const firstSub = subOf.get(first)!;
  step3.push(tx(first.wrappedOwner!, "NameWrapper", wrapper, "setFuses", [first.node, CANNOT_UNWRAP]));
  step3.push(
    tx(first.wrappedOwner!, "NameWrapper", wrapper, "setChildFuses", [
      first.node,
      labelhash(firstSub.labels[0]),
      PARENT_CANNOT_CONTROL,
      0n,
    ]),
  );
  step3.push(
    tx(first.wrappedOwner!, "NameWrapper", wrapper, "extendExpiry", [
      first.node,
      labelhash(firstSub.labels[0]),
      now + 300n * DAY,
    ]),
  );
  step3.push(tx(first.wrappedOwner!, "NameWrapper", wrapper, "setTTL", [first.node, 3600n]));
  await chain.send(step3);

  // A batch transfer of a 2LD and its subname, both held by one account.
  const batched = names.find((f, i) => i > 0 && subOf.has(f));
  if (batched) {
    const owner = batched.wrappedOwner!;
    const sub = subOf.get(batched)!;
    const to = ctx.otherThan(owner);
    await chain.send([
      tx(owner, "NameWrapper", wrapper, "safeBatchTransferFrom", [
        owner,
        to,
        [BigInt(batched.node), BigInt(sub.node)],
        [1n, 1n],
        "0x",
      ]),
    ]);
    batched.wrappedOwner = to;
    sub.wrappedOwner = to;
  }
  return { primaries };
}
