import { type Address, labelhash } from "viem";
import { Chain, type Tx } from "../chain";
import { loadDevnetContracts } from "../contracts";
import { childNode } from "../names";
import type { ScenarioContext } from "./context";
import type { NameFacts } from "./model";
import { multicallData, recordCalls } from "./records";

const ZERO: Address = "0x0000000000000000000000000000000000000000";

/**
 * Registry-style 3DNS subnames, as mainnet's token emits them (NewOwner below a registration, Transfer of a subname):
 * holders of two live registrations give subnames to other accounts, one of which gives a subname one level deeper;
 * the subname owners set records on the 3DNS resolver; one subname changes hands (Transfer) and one is deleted
 * (NewOwner to the zero address).
 */
export async function playThreeDNSSubnames(
  ctx: ScenarioContext,
  token: Address,
  threednsResolver: Address,
  registrations: NameFacts[],
): Promise<void> {
  const parents = registrations.filter((f) => !f.deleted && f.registryOwner && f.registryOwner !== ZERO).slice(0, 2);
  if (parents.length === 0) return;
  const { own } = loadDevnetContracts();
  const { chain, book, labels, rng } = ctx;
  const call = (from: Address, fn: string, args: unknown[]) =>
    Chain.call(from, token, own.ThreeDNSToken.abi, fn, args, `ThreeDNSToken.${fn}`);
  const subname = (parent: NameFacts, owner: Address) => {
    const label = labels.word();
    return book.add({
      name: `${label}.${parent.name}`,
      labels: [label, ...parent.labels],
      node: childNode(parent.node, label),
      chainId: chain.chainId,
      via: "3dns-subname",
      registryOwner: owner,
      resolver: threednsResolver,
    });
  };
  ctx.log(`${chain.chainId}: 3DNS subnames under ${parents.length} registrations`);

  const step1: Tx[] = [];
  const subs = parents.map((p) => subname(p, ctx.otherThan(p.registryOwner!)));
  subs.forEach((s, i) =>
    step1.push(
      call(parents[i]!.registryOwner!, "setSubnodeOwner", [parents[i]!.node, labelhash(s.labels[0]!), s.registryOwner]),
    ),
  );
  const doomed = subname(parents[0]!, ctx.otherThan(parents[0]!.registryOwner!));
  step1.push(
    call(parents[0]!.registryOwner!, "setSubnodeOwner", [
      parents[0]!.node,
      labelhash(doomed.labels[0]!),
      doomed.registryOwner,
    ]),
  );
  await chain.send(step1);

  const deep = subname(subs[0]!, ctx.otherThan(subs[0]!.registryOwner!));
  const step2: Tx[] = [
    call(subs[0]!.registryOwner!, "setSubnodeOwner", [subs[0]!.node, labelhash(deep.labels[0]!), deep.registryOwner]),
  ];
  subs.forEach((s, i) =>
    step2.push({
      from: s.registryOwner!,
      to: threednsResolver,
      data: multicallData(own.ThreeDNSResolver.abi, recordCalls(s, s.registryOwner!, i, rng)),
      note: "ThreeDNSResolver.multicall(subname)",
    }),
  );
  step2.push(
    call(parents[0]!.registryOwner!, "setSubnodeOwner", [parents[0]!.node, labelhash(doomed.labels[0]!), ZERO]),
  );
  doomed.registryOwner = ZERO;
  doomed.resolver = undefined;
  doomed.deleted = true;
  await chain.send(step2);

  const moved = subs[subs.length - 1]!;
  const to = ctx.otherThan(moved.registryOwner!);
  await chain.send([
    {
      from: deep.registryOwner!,
      to: threednsResolver,
      data: multicallData(own.ThreeDNSResolver.abi, recordCalls(deep, deep.registryOwner!, 2, rng)),
      note: "ThreeDNSResolver.multicall(deep subname)",
    },
    call(moved.registryOwner!, "setOwner", [moved.node, to]),
  ]);
  moved.registryOwner = to;
}
