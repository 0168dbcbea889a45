import { wireL2Registry } from "../../shared/l2-registry";
import { isIndexed } from "../../shared/register";

export function register(): void {
  // Linea's registry: names under linea.eth; `eth` and `linea.eth` themselves stay the root chain's rows.
  const C = "lineanames/Registry";
  if (isIndexed(C)) {
    wireL2Registry(C, "lineanames");
  }
}
