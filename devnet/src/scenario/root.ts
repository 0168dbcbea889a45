import type { RootContract } from "../deploy/root";
import type { ChainDeployment } from "../deploy/types";
import type { ScenarioContext } from "./context";
import { playReferrerEra } from "./root-2025";
import { makeRootKit, type RootSizes } from "./root-kit";
import { playLegacyEras } from "./root-legacy";
import { playWrappedEra } from "./root-wrapped";

export type { RootSizes } from "./root-kit";

/**
 * The ENS root chain's story, era by era, as mainnet lived it: the old registry and the legacy controller
 * (root-legacy), the NameWrapper and the 2023 controller (root-wrapped), and the 2025 controller with referrers,
 * renewals and reverse names (root-2025).
 */
export async function playRoot(
  ctx: ScenarioContext,
  d: ChainDeployment<RootContract>,
  sizes: RootSizes,
  odd: Record<string, string>,
) {
  const kit = makeRootKit(ctx, d);
  const { legacyNames, legacySubs } = await playLegacyEras(kit, sizes, odd);
  const { wrappedNames } = await playWrappedEra(kit, sizes, odd, legacyNames, legacySubs);
  return playReferrerEra(kit, sizes, odd, legacyNames, wrappedNames);
}
