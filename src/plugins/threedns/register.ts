import * as Resolver from "./handlers/Resolver";
import * as Token from "./handlers/Token";

/** The threedns plugin: 3DNS on Optimism and Base. Each handler file registers only the contracts Ponder indexes. */
export function register(): void {
  for (const handlers of [Resolver, Token]) {
    handlers.register();
  }
}
