import { describe, expect, it } from "vitest";
import { nameReferenceId, referencedAccount, v1HolderId } from "../../src/lib/name-references";

const A = "0x00000000000000000000000000000000000000aB";

describe("referencedAccount", () => {
  it("reads an EVM coin type's 20 bytes as a lowercase account", () => {
    expect(referencedAccount(60n, A)).toBe(A.toLowerCase());
    expect(referencedAccount(0x80000000n, A)).toBe(A.toLowerCase());
    expect(referencedAccount(0x80000000n | 8453n, A)).toBe(A.toLowerCase());
  });
  it("never matches a non-EVM coin, an empty or zero record, or bytes of another length", () => {
    expect(referencedAccount(0n, A)).toBeNull(); // bitcoin
    expect(referencedAccount(501n, A)).toBeNull(); // solana
    expect(referencedAccount(60n, "0x")).toBeNull();
    expect(referencedAccount(60n, `0x${"00".repeat(20)}`)).toBeNull();
    expect(referencedAccount(60n, `0x${"11".repeat(32)}`)).toBeNull();
  });
});

describe("ids", () => {
  it("keys an ENSv1 name by chain and node, and a reference by its name and coin type", () => {
    expect(v1HolderId(1, "0xABCD")).toBe("1-0xabcd");
    expect(nameReferenceId("1-0xabcd", 60n)).toBe("1-0xabcd-60");
  });
});
