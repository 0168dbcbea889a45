import { bytesToHex, type Hex, keccak256, stringToBytes } from "viem";
import { describe, expect, it } from "vitest";
import { decodeDnsWireName, decodeWrappedName, dnsEncode, textOfDnsTxtRecord } from "../../src/lib/dns-wire";
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
    expect(decodeWrappedName(wire("HelloWorld", "eth"), "subgraph")).toEqual({
      labelName: "HelloWorld",
      name: "HelloWorld.eth",
    });
    expect(decodeWrappedName(wire("sub", "dot.ted", "eth"), "subgraph")).toEqual({ labelName: null, name: null });
    expect(decodeWrappedName(wire("nul\0byte", "eth"), "subgraph")).toEqual({ labelName: null, name: null });
    expect(decodeWrappedName("0x00", "subgraph")).toEqual({ labelName: null, name: "." });
    expect(decodeWrappedName("0x05", "subgraph")).toEqual({ labelName: null, name: null });
  });

  it("default mode: unnormalized labels are encoded, the name is kept", () => {
    expect(decodeWrappedName(wire("vitalik", "eth"), "normalized")).toEqual({
      labelName: "vitalik",
      name: "vitalik.eth",
    });
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
    expect(decodeDnsWireName(dnsEncode(`${long}.eth`))!.map((l) => l.text)).toEqual([
      encodeLabelhash(labelhashOf(long)),
      "eth",
    ]);
  });
});

describe("DNS TXT records as 3DNS texts", () => {
  // Mainnet's 3DNS resolver on Optimism, tx 0xf32db67e…e8d7: a TXT record at com.twitter.ens, TTL 3600, value "0xTko".
  const name = "0x03636f6d077477697474657203656e7300" as Hex;
  const record = "0x03636f6d077477697474657203656e73000010000100000e100006053078546b6f" as Hex;

  it("maps <key>.ens to the text key and the first TXT RR to its value", () => {
    expect(textOfDnsTxtRecord(name, 16, record)).toEqual({ key: "com.twitter", value: "0xTko" });
    expect(textOfDnsTxtRecord(wire("avatar", "ens"), 16, txt(["avatar", "ens"], ["https://x/a.png"]))).toEqual({
      key: "avatar",
      value: "https://x/a.png",
    });
  });

  it("joins a value's character-strings (DNS splits values over 255 bytes)", () => {
    const long = "d".repeat(300);
    expect(
      textOfDnsTxtRecord(
        wire("description", "ens"),
        16,
        txt(["description", "ens"], [long.slice(0, 255), long.slice(255)]),
      )!.value,
    ).toBe(long);
  });

  it("reads a deletion (no record) as the text gone", () => {
    expect(textOfDnsTxtRecord(name, 16)).toEqual({ key: "com.twitter", value: null });
  });

  it("ignores other types, names outside .ens, the bare .ens name and malformed input", () => {
    expect(textOfDnsTxtRecord(name, 1, record)).toBeNull();
    expect(
      textOfDnsTxtRecord(wire("_dmarc", "example", "xyz"), 16, txt(["_dmarc", "example", "xyz"], ["v=DMARC1"])),
    ).toBeNull();
    expect(textOfDnsTxtRecord(wire("ens"), 16, txt(["ens"], ["x"]))).toBeNull();
    expect(textOfDnsTxtRecord("0x0561", 16, record)).toBeNull();
    // A record whose first RR is not TXT (an A record) or is cut short changes no text.
    expect(textOfDnsTxtRecord(name, 16, rr(["com", "twitter", "ens"], 1, Uint8Array.of(192, 0, 2, 1)))).toBeNull();
    expect(textOfDnsTxtRecord(name, 16, record.slice(0, -4) as Hex)).toBeNull();
  });
});

function rr(owner: string[], type: number, rdata: Uint8Array): Hex {
  const head = [
    ...Buffer.from(wire(...owner).slice(2), "hex"),
    type >> 8,
    type & 255,
    0,
    1,
    0,
    0,
    14,
    16,
    rdata.length >> 8,
    rdata.length & 255,
  ];
  return bytesToHex(Uint8Array.from([...head, ...rdata]));
}

function txt(owner: string[], strings: string[]): Hex {
  return rr(owner, 16, Uint8Array.from(strings.flatMap((s) => [stringToBytes(s).length, ...stringToBytes(s)])));
}
