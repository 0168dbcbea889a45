import { describe, expect, it } from "vitest";
import { englishWords, LabelSource, Random } from "../src/scenario/random";

// A partition of 2,000 gives each source a slice of ~120 words, so a few hundred labels spend it, as the root chain of
// a 250,000-name devnet spends its ~60,000.
const PARTITION = { index: 3, count: 2000 };
const sliceOf = () => {
  const { list } = englishWords();
  const size = Math.floor(list.length / PARTITION.count);
  return new Set(list.slice(PARTITION.index * size, (PARTITION.index + 1) * size));
};

describe("LabelSource.word", () => {
  it("keeps handing out unique labels after its slice of the word list is spent", () => {
    const slice = sliceOf();
    const source = new LabelSource(new Random(11), PARTITION);
    const labels = Array.from({ length: slice.size * 4 }, () => source.word());
    expect(new Set(labels).size).toBe(labels.length);
    const words = labels.filter((l) => slice.has(l));
    const compounds = labels.filter((l) => !slice.has(l));
    // Nine tenths of the slice as plain words, then compounds of two of its words.
    expect(words.length).toBe(Math.ceil(slice.size * 0.9));
    expect(labels.slice(0, words.length)).toEqual(words);
    for (const c of compounds) {
      const [a, b, ...rest] = c.split("-");
      expect(rest).toEqual([]);
      expect(slice.has(a!) && slice.has(b!)).toBe(true);
    }
  });

  it("is the same sequence for the same seed", () => {
    const draw = () => {
      const source = new LabelSource(new Random(5), PARTITION);
      return Array.from({ length: 300 }, () => source.word());
    };
    expect(draw()).toEqual(draw());
  });

  it("draws exactly as the plain loop below the switch, so smaller devnets keep their labels", () => {
    const { list } = englishWords();
    const size = Math.floor(list.length / 4);
    const rng = new Random(42);
    const seen = new Set<string>();
    const expected: string[] = [];
    while (expected.length < 1000) {
      const w = list[1 * size + rng.int(size)]!;
      if (!seen.has(w)) {
        seen.add(w);
        expected.push(w);
      }
    }
    const source = new LabelSource(new Random(42), { index: 1, count: 4 });
    expect(Array.from({ length: 1000 }, () => source.word())).toEqual(expected);
  });
});
