import { type Hex, bytesToHex, keccak256, stringToBytes } from "viem";
import { describe, expect, it } from "vitest";
import { decodeDnsWireName, decodeWrappedName, dnsEncode } from "../../src/lib/dns-wire";
import { encodeLabelhash, labelhashOf } from "../../src/lib/labels";

/** Wire format of labels (each as bytes). */
function wire(...labels: (string | Uint8Array)[]): Hex {
  const parts: number[] = [];
  for (const l of labels) {
    const b = typeof l === "string" ? stringToBytes(l) : l;
    parts.push(b.length, ...b);
  }
  parts.push(0);
  return bytesToHex(Uint8Array.from(parts));
}

describe("DNS wire-format names", () => {
  it("decodes labels leaf first, the root as none", () => {
    expect(decodeDnsWireName(wire("vitalik", "eth"))!.map((l) => l.text)).toEqual(["vitalik", "eth"]);
    expect(decodeDnsWireName("0x00")).toEqual([]);
    const [label] = decodeDnsWireName(wire("dot.ted"))!;
    expect(label).toEqual({ text: "dot.ted", labelhash: labelhashOf("dot.ted") });
  });

  it("returns null for malformed names", () => {
    expect(decodeDnsWireName("0x")).toBeNull(); // no terminator
    expect(decodeDnsWireName("0x0561626300")).toBeNull(); // length beyond the data
    expect(decodeDnsWireName("0x03616263")).toBeNull(); // missing terminating zero
    expect(decodeDnsWireName("0x036162630000")).toBeNull(); // bytes after the terminator
    expect(decodeDnsWireName("0xzz" as Hex)).toBeNull();
  });

  it("keeps invalid UTF-8 as a label without text but with its hash", () => {
    const bytes = Uint8Array.from([0xff, 0xfe]);
    const [label] = decodeDnsWireName(wire(bytes, "eth"))!;
    expect(label!.text).toBeNull();
    expect(label!.labelhash).toBe(keccak256(bytes));
  });

  it("compatible mode: the subgraph's decodeName (any unshowable label nulls the name)", () => {
    expect(decodeWrappedName(wire("HelloWorld", "eth"), "subgraph")).toEqual({ labelName: "HelloWorld", name: "HelloWorld.eth" });
    expect(decodeWrappedName(wire("sub", "dot.ted", "eth"), "subgraph")).toEqual({ labelName: null, name: null });
    expect(decodeWrappedName(wire("nul\0byte", "eth"), "subgraph")).toEqual({ labelName: null, name: null });
    expect(decodeWrappedName("0x00", "subgraph")).toEqual({ labelName: null, name: "." });
    expect(decodeWrappedName("0x05", "subgraph")).toEqual({ labelName: null, name: null });
  });

  it("default mode: unnormalized labels are encoded, the name is kept", () => {
    expect(decodeWrappedName(wire("vitalik", "eth"), "normalized")).toEqual({ labelName: "vitalik", name: "vitalik.eth" });
    expect(decodeWrappedName(wire("sub", "HelloWorld", "eth"), "normalized")).toEqual({
      labelName: "sub",
      name: `sub.${encodeLabelhash(labelhashOf("HelloWorld"))}.eth`,
    });
    expect(decodeWrappedName(wire("dot.ted", "eth"), "normalized")).toEqual({
      labelName: null,
      name: `${encodeLabelhash(labelhashOf("dot.ted"))}.eth`,
    });
  });

  it("encodes names for ENSIP-10 resolve(), round-tripping through the decoder", () => {
    expect(dnsEncode("a.eth")).toBe("0x01610365746800");
    expect(decodeDnsWireName(dnsEncode("sub.vitalik.eth"))!.map((l) => l.text)).toEqual(["sub", "vitalik", "eth"]);
    // A label over 255 bytes cannot be length-prefixed: it goes as its [labelhash].
    const long = "a".repeat(300);
    expect(decodeDnsWireName(dnsEncode(`${long}.eth`))!.map((l) => l.text)).toEqual([encodeLabelhash(labelhashOf(long)), "eth"]);
  });
});
