import { describe, expect, it } from "vitest";
import { isNormalizedName, nameInputProblem, normalizationProblem } from "../../src/lib/name-input";

const HASH = "4f5b812789fc606be1b3b16908db13fc7a9adf7ca72641f84d75b47069d3d7f0";

describe("name input", () => {
  it("accepts normalized names and encoded labelhashes in lowercase hex", () => {
    for (const name of [
      "vitalik.eth",
      "a.b.base.eth",
      `[${HASH}].eth`,
      `sub.[${HASH}].eth`,
      `[${HASH}]`,
      `[${HASH}].[${HASH}]`,
    ]) {
      expect(nameInputProblem(name), name).toBeUndefined();
    }
  });

  it("names the normalized form of an unnormalized name, with or without encoded labels", () => {
    expect(nameInputProblem("Vitalik.eth")).toBe(
      'name must be ENSIP-15 normalized; its normalized form is "vitalik.eth"',
    );
    expect(nameInputProblem(`Sub.[${HASH.toUpperCase()}].eth`)).toBe(
      `name must be ENSIP-15 normalized; its normalized form is "sub.[${HASH}].eth"`,
    );
  });

  it("refuses empty labels and invalid labels with plain-text messages (no U+200E)", () => {
    const cases: [string, string][] = [
      ["", "name must not be empty"],
      ["a..eth", 'name is not a valid ENS name: Invalid label "": empty label'],
      ["a_b.eth", 'name is not a valid ENS name: Invalid label "a_b": underscore allowed only at start'],
      [`[${HASH}].`, "name is not a valid ENS name: it has an empty label"],
      [`a b.[${HASH}]`, 'name is not a valid ENS name: disallowed character: " " {20}'],
      ["[abc].eth", 'name is not a valid ENS name: Invalid label "[abc]": disallowed character: "[" {5B}'],
    ];
    for (const [name, message] of cases) {
      const problem = nameInputProblem(name);
      expect(problem, name).toBe(message);
      expect(problem).not.toMatch(/\u200e/);
    }
  });

  it("keeps primary names strict: an encoded label is not a normalized name", () => {
    expect(isNormalizedName(`[${HASH}].eth`)).toBe(false);
    expect(normalizationProblem("a..eth")).not.toMatch(/\u200e/);
  });
});
