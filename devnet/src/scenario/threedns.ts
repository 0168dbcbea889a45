import { type Address, type Hex, zeroHash } from "viem";
import { Chain, type Tx } from "../chain";
import { loadDevnetContracts } from "../contracts";
import type { ChainDeployment } from "../deploy/types";
import { childNode, dnsWire, nodeOf } from "../names";
import { type ScenarioContext, YEAR_SECONDS } from "./context";
import type { NameFacts } from "./model";
import { everyRecordKind, multicallData, recordCalls } from "./records";

const TLDS = ["xyz", "box", "io"];

type ThreeDNSContract = "ThreeDNSToken" | "ThreeDNSResolver";

/**
 * 3DNS on the "base" chain (and on the rehearsal's Optimism chain): the operator mints DNS names (label.tld) to registrants; holders set records on the
 * 3DNS resolver, transfer tokens (single and batch) and burn some; the operator extends some registrations.
 */
export async function playThreeDNS(ctx: ScenarioContext, d: ChainDeployment<ThreeDNSContract>, count: number) {
  const { own } = loadDevnetContracts();
  const { chain, book, rng, labels } = ctx;
  const token = own.ThreeDNSToken.abi;
  const A = (k: ThreeDNSContract) => d.contracts[k].address;
  const tx = (from: Address, fn: string, args: unknown[]): Tx =>
    Chain.call(from, A("ThreeDNSToken"), token, fn, args, `ThreeDNSToken.${fn}`);
  const me = chain.deployer;

  ctx.log(`base: ${count} 3DNS registrations`);
  // The first two share a registrant so a batch transfer has two tokens to move.
  const batchOwner = ctx.owner();
  const names: NameFacts[] = [];
  const step1: Tx[] = [];
  for (let i = 0; i < count; i++) {
    const owner = i < 2 ? batchOwner : ctx.owner();
    const tld = TLDS[i % TLDS.length];
    const label = labels.maybeUnhealable(0.1);
    const f = book.add({
      name: `${label}.${tld}`,
      labels: [label, tld],
      node: childNode(nodeOf([tld]), label),
      chainId: chain.chainId,
      via: "3dns",
      registryOwner: owner,
      wrappedOwner: owner,
      resolver: A("ThreeDNSResolver"),
    });
    names.push(f);
    step1.push(tx(me, "register", [dnsWire(f.labels), owner, 0, BigInt(YEAR_SECONDS), A("ThreeDNSResolver")]));
  }
  await chain.send(step1);

  const step2: Tx[] = [];
  names.forEach((f, i) => {
    step2.push({
      from: f.registryOwner!,
      to: A("ThreeDNSResolver"),
      data: multicallData(own.ThreeDNSResolver.abi, recordCalls(f, f.registryOwner!, i, rng)),
      note: "ThreeDNSResolver.multicall",
    });
    if (i % 3 === 2) step2.push(tx(me, "extend", [f.node, BigInt(YEAR_SECONDS)]));
  });
  // The first name (batch-transferred later, never burned) gets every record kind.
  step2.push({
    from: names[0].registryOwner!,
    to: A("ThreeDNSResolver"),
    data: multicallData(own.ThreeDNSResolver.abi, everyRecordKind(names[0], names[0].registryOwner!, rng)),
    note: "ThreeDNSResolver.multicall(every kind)",
  });
  await chain.send(step2);

  const step3: Tx[] = [];
  const moved = new Set<NameFacts>();
  if (names.length >= 2) {
    const to = ctx.otherThan(batchOwner);
    step3.push(
      tx(batchOwner, "safeBatchTransferFrom", [
        batchOwner,
        to,
        [BigInt(names[0].node), BigInt(names[1].node)],
        [1n, 1n],
        "0x",
      ]),
    );
    for (const f of names.slice(0, 2)) {
      f.registryOwner = to;
      f.wrappedOwner = to;
      moved.add(f);
    }
  }
  names.slice(2).forEach((f, i) => {
    const owner = f.registryOwner!;
    if (i % 3 === 1) {
      const to = ctx.otherThan(owner);
      step3.push(tx(owner, "safeTransferFrom", [owner, to, BigInt(f.node), 1n, "0x"]));
      f.registryOwner = to;
      f.wrappedOwner = to;
    } else if (i % 3 === 0) {
      step3.push(tx(owner, "burn", [f.node]));
      f.registryOwner = "0x0000000000000000000000000000000000000000";
      f.wrappedOwner = undefined;
      f.resolver = undefined; // a burned registration has no resolver either
      f.deleted = true;
    }
  });
  await chain.send(step3);
  return { tlds: TLDS.map((t) => ({ tld: t, node: nodeOf([t]) as Hex })), rootNode: zeroHash };
}
