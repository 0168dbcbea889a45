import { nodeOf } from "../names";
import type { Ensv2Play } from "./ensv2-play";
import { type FullProfileFacts, fullProfileCalls, fullProfileOf } from "./full-profile";

/**
 * The full profile on an ENSv2 `.eth` name: the first registered one whose owner still administers the
 * PermissionedResolver it points at (its proxy's admin holds every resolver role), written there by that owner.
 */
export async function writeEnsv2FullProfile(play: Ensv2Play): Promise<FullProfileFacts> {
  const f = play.names.find(
    (x) =>
      x.status === "registered" &&
      x.labels.length === 2 &&
      x.owner !== undefined &&
      x.resolver !== undefined &&
      play.resolvers.get(x.owner) === x.resolver,
  );
  if (!f) throw new Error("ENSv2 full profile: no registered .eth name on its owner's resolver");
  const node = nodeOf(f.labels);
  const profile = fullProfileOf(f.name, play.chain.chainId, "ENSv2", f.owner!, f.resolver!);
  await play.chain.send(
    fullProfileCalls(node, profile).map((c) =>
      play.tx(f.owner!, f.resolver!, "PermissionedResolver", c.functionName, c.args),
    ),
  );
  f.texts = { ...f.texts, ...profile.texts };
  f.addr = f.owner;
  return profile;
}
