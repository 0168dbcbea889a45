import { keccak256 as viemKeccak } from "viem";
import { describe, expect, it } from "vitest";
import { keccak256 } from "../src/keccak256.mjs";
import { labelhashOf, normalizeLabelhash } from "../src/labelhash.js";

describe("keccak256", () => {
  it("matches viem for lengths around the 136-byte block boundary and for odd bytes", () => {
    const inputs = [0, 1, 31, 32, 55, 134, 135, 136, 137, 271, 272, 273, 1000].map((n) => Buffer.alloc(n, n % 251));
    inputs.push(Buffer.from("vitalik"), Buffer.from("nul\0byte"), Buffer.from("🦄.eth"));
    for (const input of inputs)
      expect(`0x${keccak256(input).toString("hex")}`, `length ${input.length}`).toBe(viemKeccak(input));
  });

  it("gives the well-known labelhash of 'eth'", () => {
    expect(labelhashOf("eth")).toBe("0x4f5b812789fc606be1b3b16908db13fc7a9adf7ca72641f84d75b47069d3d7f0");
  });
});

describe("normalizeLabelhash", () => {
  it("lowercases valid input and rejects anything but 0x + 64 hex", () => {
    expect(normalizeLabelhash(`0x${"AB".repeat(32)}`)).toBe(`0x${"ab".repeat(32)}`);
    for (const bad of [
      "",
      "0x",
      `0X${"a".repeat(64)}`,
      `0x${"a".repeat(63)}`,
      `0x${"a".repeat(65)}`,
      `0x${"z".repeat(64)}`,
      `${"a".repeat(66)}`,
    ]) {
      expect(normalizeLabelhash(bad), bad).toBeNull();
    }
  });
});
