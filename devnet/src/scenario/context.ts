import type { Address, Hex } from "viem";
import type { Chain } from "../chain";
import { NameBook } from "./model";
import { type LabelSource, Random } from "./random";

/** What every chain's scenario works with. Each chain has its own PRNG stream, so chains can play concurrently. */
export class ScenarioContext {
  readonly book = new NameBook();
  readonly rng: Random;
  /** Name holders: every funded account but the deployer (which plays registry admin and operators). */
  readonly owners: Address[];

  constructor(
    readonly chain: Chain,
    readonly labels: LabelSource,
    seed: number,
    readonly log: (line: string) => void,
  ) {
    this.rng = new Random(seed);
    this.owners = chain.accounts.slice(1);
  }

  owner(): Address {
    return this.rng.pick(this.owners);
  }

  /** The account that holds a name with records on every chain and sets a primary name on each (cross-chain). */
  get crossChainAccount(): Address {
    return this.owners[0];
  }

  otherThan(a: Address): Address {
    for (;;) {
      const b = this.owner();
      if (b !== a) return b;
    }
  }

  /** A secret for commit/reveal, deterministic per seed. */
  secret(): Hex {
    let s = "0x";
    for (let i = 0; i < 8; i++)
      s += Math.floor(this.rng.next() * 2 ** 32)
        .toString(16)
        .padStart(8, "0");
    return s as Hex;
  }

  /** `n` distinct items (or all, if fewer), in a seeded order. */
  sample<T>(items: readonly T[], n: number): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = this.rng.int(i + 1);
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, Math.max(0, Math.min(n, copy.length)));
  }
}

export const YEAR_SECONDS = 365 * 24 * 3600;
