import { wireL2Registry } from "../../shared/l2-registry";
import { isIndexed } from "../../shared/register";

export function register(): void {
  // Base's registry: names under base.eth; `eth` and `base.eth` themselves stay the root chain's rows.
  const C = "basenames/Registry";
  if (isIndexed(C)) {
    wireL2Registry(C, "basenames");
  }
}
