import { ens_beautify, ens_normalize } from "@adraffy/ens-normalize";
import { describe, expect, it } from "vitest";
import { beautifyLabel, canonicalName, interpretLabel } from "../../src/api/omnigraph/names";
import { encodeLabelhash, labelhashOf } from "../../src/lib/labels";

/*
 * The Omnigraph's Interpreted and beautified labels, which skip ENSIP-15's tokenizer for plain ASCII labels: the same
 * as ens-normalize says, for every label of up to five characters from an alphabet that reaches the hyphen rule.
 */

const normalized = (label: string) => {
  try {
    return ens_normalize(label) === label;
  } catch {
    return false;
  }
};

function* labels(alphabet: string, maxLength: number): Generator<string> {
  for (let length = 1; length <= maxLength; length++) {
    const total = alphabet.length ** length;
    for (let i = 0; i < total; i++) {
      let label = "";
      for (let k = 0, x = i; k < length; k++, x = Math.floor(x / alphabet.length))
        label += alphabet[x % alphabet.length];
      yield label;
    }
  }
}

describe("Interpreted labels", () => {
  it("are the label when ENSIP-15 normalizes it to itself, else its encoded labelhash; beautified as ens-normalize does", () => {
    let checked = 0;
    for (const label of labels("a0-_A.é", 5)) {
      if (label.includes(".")) continue;
      const isNormalized = normalized(label);
      expect(interpretLabel(label), label).toBe(isNormalized ? label : encodeLabelhash(labelhashOf(label)));
      if (isNormalized) expect(beautifyLabel(label), label).toBe(ens_beautify(label));
      checked++;
    }
    expect(checked).toBe(9330);
  });

  it("name the whole name label by label", () => {
    expect(canonicalName("ab--c.eth")).toEqual({
      interpreted: `${encodeLabelhash(labelhashOf("ab--c"))}.eth`,
      beautified: `${encodeLabelhash(labelhashOf("ab--c"))}.eth`,
    });
    expect(canonicalName("a-b--.eth")).toEqual({ interpreted: "a-b--.eth", beautified: "a-b--.eth" });
    expect(canonicalName("ξ.eth").beautified).toBe(ens_beautify("ξ.eth"));
  });
});
