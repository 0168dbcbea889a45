import { readFileSync } from "node:fs";
import wordListPath from "word-list";

/** mulberry32: a tiny seeded PRNG, so the same --seed always yields the same labels, owners and actions. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

let words: string[] | undefined;
let wordSet: Set<string> | undefined;

/** The word-list package's English words that make plain ENS labels (3–12 lowercase letters). */
export function englishWords(): { list: string[]; set: Set<string> } {
  if (!words) {
    const all = readFileSync(wordListPath, "utf8").split("\n");
    wordSet = new Set(all);
    words = all.filter((w) => /^[a-z]{3,12}$/.test(w));
  }
  return { list: words, set: wordSet! };
}

/**
 * Hands out unique labels: mostly dictionary words, some random strings that are not words (the "unhealable" ones,
 * left out of the demo label set so healing has misses), and a fixed set of odd labels.
 */
export class LabelSource {
  readonly used = new Set<string>();
  readonly unhealable = new Set<string>();
  /**
   * Chains play concurrently, each with its own LabelSource; `partition` gives each a disjoint slice of the word
   * list so the labels do not depend on how the chains interleave.
   */
  constructor(
    private readonly rng: Random,
    private readonly partition = { index: 0, count: 1 },
  ) {}

  /** Dictionary words handed out so far, from this source's slice. */
  private wordsTaken = 0;

  /**
   * A dictionary word from this source's slice while nine tenths of it are free; then two of its words joined by a
   * hyphen. A slice holds ~60,000 words (4 chains), and a 250,000-name devnet asks the root chain for more than that:
   * drawing until a free word came up never returned once the slice was spent. Below the switch the draws are
   * exactly those of the plain loop, so smaller devnets keep their labels.
   */
  word(): string {
    const { list } = englishWords();
    const slice = Math.floor(list.length / this.partition.count);
    const draw = () => list[this.partition.index * slice + this.rng.int(slice)];
    if (this.wordsTaken < slice * 0.9) {
      for (;;) {
        const w = draw();
        if (!this.used.has(w)) {
          this.wordsTaken++;
          return this.take(w);
        }
      }
    }
    for (;;) {
      // A hyphen never occurs in a slice's words, so a compound cannot equal a word of any chain's slice.
      const compound = `${draw()}-${draw()}`;
      if (!this.used.has(compound)) return this.take(compound);
    }
  }

  /** A random lowercase string that is not an English word, e.g. "qzvkt0x9m2". */
  unhealableLabel(): string {
    const { set } = englishWords();
    const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
    for (;;) {
      let s = "";
      const len = 8 + this.rng.int(6);
      for (let i = 0; i < len; i++) s += alphabet[this.rng.int(alphabet.length)];
      if (!set.has(s) && !this.used.has(s)) {
        this.unhealable.add(s);
        return this.take(s);
      }
    }
  }

  /** Either a word or (with probability p) an unhealable label. */
  maybeUnhealable(p: number): string {
    return this.rng.chance(p) ? this.unhealableLabel() : this.word();
  }

  take(label: string): string {
    if (this.used.has(label)) throw new Error(`label used twice: ${JSON.stringify(label)}`);
    this.used.add(label);
    return label;
  }
}

/**
 * Labels indexers must survive: mixed case, emoji, a dot inside a label, spaces, something shaped like an encoded
 * `[labelhash]`, and a NUL byte. Each is registered where the contract accepts any string.
 */
export function oddLabels(rng: Random): Record<string, string> {
  const hex = Array.from({ length: 64 }, () => "0123456789abcdef"[rng.int(16)]).join("");
  return {
    uppercase: "HelloWorld",
    emoji: "🦊🚀🌈",
    dotted: "dot.ted",
    spaces: "has spaces",
    bracketHash: `[${hex}]`,
    nul: "nul\u0000byte",
  };
}
