import { onNameWrapper } from "../../shared/name-wrapper-handlers";

export function register(): void {
  onNameWrapper("subgraph/NameWrapper", () => "eth");
}
