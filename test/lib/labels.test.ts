import { stringToBytes, keccak256 as viemKeccak256, labelhash as viemLabelhash } from "viem";
import { describe, expect, it } from "vitest";
import {
  encodeLabelhash,
  interpretLabel,
  isEncodedLabelhash,
  isNormalizedLabel,
  isSubgraphIndexableLabel,
  labelhashOf,
} from "../../src/lib/labels";

describe("labels", () => {
  it("labelhash is keccak256 of the UTF-8 bytes, even for labels shaped like an encoded hash", () => {
    expect(labelhashOf("eth")).toBe("0x4f5b812789fc606be1b3b16908db13fc7a9adf7ca72641f84d75b47069d3d7f0");
    expect(labelhashOf("🦊")).toBe(viemLabelhash("🦊"));
    const shaped = `[${"ab".repeat(32)}]`;
    expect(labelhashOf(shaped)).not.toBe(`0x${"ab".repeat(32)}`);
  });

  it("labelhash agrees with viem's keccak256 across the sponge's block boundaries and for any UTF-8", () => {
    const labels = [
      "",
      "a",
      "🦊",
      "ÄÖÜ-ß",
      "x".repeat(135),
      "x".repeat(136),
      "x".repeat(137),
      "y".repeat(272),
      "🦊".repeat(100),
    ];
    for (const label of labels) expect(labelhashOf(label), label).toBe(viemKeccak256(stringToBytes(label)));
  });

  it("encodes unknown labels as [64 lowercase hex]", () => {
    const hash = labelhashOf("vitalik");
    expect(encodeLabelhash(hash)).toBe(`[${hash.slice(2)}]`);
    expect(encodeLabelhash(hash.toUpperCase().replace("0X", "0x") as `0x${string}`)).toBe(`[${hash.slice(2)}]`);
    expect(isEncodedLabelhash(encodeLabelhash(hash))).toBe(true);
    expect(isEncodedLabelhash("[abc]")).toBe(false);
  });

  it("subgraph-indexable labels exclude NUL, '.', '[' and ']' only", () => {
    for (const ok of ["vitalik", "HelloWorld", "has spaces", "🦊🚀🌈", ""])
      expect(isSubgraphIndexableLabel(ok)).toBe(true);
    for (const bad of ["nul\0byte", "dot.ted", "[x", "y]"]) expect(isSubgraphIndexableLabel(bad)).toBe(false);
  });

  it("normalized labels are ENSIP-15 normalized single non-empty labels", () => {
    // Twice each: the second answer comes from the memo and must be the same.
    for (let pass = 0; pass < 2; pass++) {
      for (const ok of ["vitalik", "🦊🚀🌈", "123"]) expect(isNormalizedLabel(ok)).toBe(true);
      for (const bad of ["HelloWorld", "has spaces", "dot.ted", "", "nul\0byte", "[x]", "ab--cd", "Vitalik"])
        expect(isNormalizedLabel(bad)).toBe(false);
    }
  });

  it("interprets a label per mode: shown with its labelName, or encoded with labelName null", () => {
    const lh = labelhashOf("HelloWorld");
    expect(interpretLabel("HelloWorld", lh, "subgraph")).toEqual({ label: "HelloWorld", labelName: "HelloWorld" });
    expect(interpretLabel("HelloWorld", lh, "normalized")).toEqual({ label: encodeLabelhash(lh), labelName: null });
    const dotted = labelhashOf("dot.ted");
    for (const mode of ["subgraph", "normalized"] as const) {
      expect(interpretLabel("dot.ted", dotted, mode)).toEqual({ label: encodeLabelhash(dotted), labelName: null });
      expect(interpretLabel(null, dotted, mode)).toEqual({ label: encodeLabelhash(dotted), labelName: null });
    }
    expect(interpretLabel("vitalik", labelhashOf("vitalik"), "normalized")).toEqual({
      label: "vitalik",
      labelName: "vitalik",
    });
  });
});
