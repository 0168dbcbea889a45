import { type Abi, type Address, zeroAddress } from "viem";
import { REGISTRATION_ROLE_BITMAP } from "../ensv2-roles";
import { labelhash } from "../names";
import type { Ensv2NameFacts } from "./ensv2-model";
import type { Ensv2Play } from "./ensv2-play";

/**
 * A user registry used before it is linked: under `parent`, its owner deploys a UserRegistry and registers three
 * labels in it (one to a second account, two kept), the second account passes its token on (TransferSingle) and,
 * in the block that links the registry (SubregistryUpdated, then setParent), the owner hands its two tokens to the
 * second account in one TransferBatch before the link. After the link, the third holder gives its token back.
 * An indexer that finds registries from the root hears of this one only at the link.
 */
export async function useRegistryBeforeLink(play: Ensv2Play, parent: Ensv2NameFacts): Promise<void> {
  const { ctx } = play;
  const eth = play.address("ETHRegistry");
  const o = parent.owner!;
  const label = parent.labels[0]!;
  const r = await play.deployProxy(o, play.address("UserRegistryImpl"), "UserRegistry");
  const o2 = ctx.otherThan(o);
  const o3 = ctx.otherThan(o2);
  const [a, b, c] = [ctx.labels.word(), ctx.labels.word(), ctx.labels.word()];
  const register = (l: string, owner: Address) =>
    play.tx(o, r, "UserRegistry", "register", [
      l,
      owner,
      zeroAddress,
      zeroAddress,
      REGISTRATION_ROLE_BITMAP,
      BigInt(parent.expiry),
    ]);
  await play.chain.send([register(a, o2), register(b, o), register(c, o)]);
  const ids = await play.chain.readMany<bigint>(
    [a, b, c].map((l) => ({
      to: r,
      abi: play.d.abis.UserRegistry as Abi,
      functionName: "getTokenId",
      args: [BigInt(labelhash(l))],
    })),
  );
  await play.chain.send([play.tx(o2, r, "UserRegistry", "safeTransferFrom", [o2, o3, ids[0], 1n, "0x"])]);
  // One sender, one block: the batch's log comes before the link's.
  await play.chain.send([
    play.tx(o, r, "UserRegistry", "safeBatchTransferFrom", [o, o2, [ids[1], ids[2]], [1n, 1n], "0x"]),
    play.tx(o, eth, "PermissionedRegistry", "setSubregistry", [BigInt(labelhash(label)), r]),
    play.tx(o, r, "UserRegistry", "setParent", [eth, label]),
  ]);
  await play.chain.send([play.tx(o3, r, "UserRegistry", "safeTransferFrom", [o3, o, ids[0], 1n, "0x"])]);

  parent.subregistry = r;
  play.registries.push({
    address: r,
    parent: eth,
    parentLabel: label,
    name: parent.name,
    kind: "user",
    usedBeforeLink: true,
  });
  for (const [l, owner] of [
    [a, o],
    [b, o2],
    [c, o2],
  ] as const) {
    play.addName({
      name: `${l}.${parent.name}`,
      labels: [l, ...parent.labels],
      via: "subname",
      registry: r,
      status: "registered",
      owner,
      expiry: parent.expiry,
    });
  }
}
