import * as BaseRegistrars from "./handlers/BaseRegistrars";
import * as Erc1155Tokens from "./handlers/Erc1155Tokens";
import * as Seaport from "./handlers/Seaport";

/** The tokenscope plugin: name tokens and their sales. Each handler file registers only the contracts Ponder indexes. */
export function register(): void {
  for (const handlers of [BaseRegistrars, Erc1155Tokens, Seaport]) {
    handlers.register();
  }
}
