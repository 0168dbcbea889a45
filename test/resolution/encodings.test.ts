import { describe, expect, it } from "vitest";
import { decodeContenthash, encodeAddress } from "../../src/api/shared/resolution/encodings";

/*
 * Records' bytes in their own worlds' text forms, with vectors from the specs and the libraries' documentation
 * (BIP-173, address-encoder's README, content-hash's README); the IPNS bytes are content-hash's `encode("ipns", …)`
 * of the name, checked against the layout the test names.
 */

describe("encodeAddress", () => {
  it("writes Bitcoin's scriptPubKey as its address (P2PKH base58check, P2WPKH bech32)", () => {
    // Address-encoder's README: the genesis block's address.
    expect(encodeAddress(0n, "0x76a91462e907b15cbf27d5425399ebf6f0fb50ebb88f1888ac")).toBe(
      "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa",
    );
    // BIP-173's P2WPKH example.
    expect(encodeAddress(0n, "0x0014751e76e8199196d454941c45d1b3a323f1433bd6")).toBe(
      "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
    );
  });

  it("writes a Solana key in base58 (the system program: 32 zero bytes)", () => {
    expect(encodeAddress(501n, `0x${"00".repeat(32)}`)).toBe("1".repeat(32));
  });

  it("answers null for bytes the coin rejects, an unknown coin, or nothing", () => {
    expect(encodeAddress(0n, "0x010203")).toBeNull();
    expect(encodeAddress(501n, `0x${"00".repeat(31)}`)).toBeNull();
    expect(encodeAddress(999_999_999n, "0x0102")).toBeNull();
    expect(encodeAddress(2n ** 255n, "0x0102")).toBeNull();
    expect(encodeAddress(0n, null)).toBeNull();
    expect(encodeAddress(0n, "0x")).toBeNull();
  });
});

describe("decodeContenthash", () => {
  it("decodes IPFS to its CIDv1, URI and gateway URL", () => {
    // Content-hash's README.
    expect(decodeContenthash("0xe3010170122029f2d17be6139079dc48696d1f582a8530eb9805b561eda517e22a892c7e3f1f")).toEqual(
      {
        protocolType: "IPFS",
        decoded: "bafybeibj6lixxzqtsb45ysdjnupvqkufgdvzqbnvmhw2kf7cfkesy7r7d4",
        uri: "ipfs://bafybeibj6lixxzqtsb45ysdjnupvqkufgdvzqbnvmhw2kf7cfkesy7r7d4",
        httpUrl: "https://ipfs.io/ipfs/bafybeibj6lixxzqtsb45ysdjnupvqkufgdvzqbnvmhw2kf7cfkesy7r7d4",
      },
    );
  });

  it("decodes IPNS (a libp2p-key CID: 0xe5 01 72, an identity multihash of an ED25519 key) to base36", () => {
    const hex = "0xe5010172002408011220e4680b2f8c8d21090e6aa327f1bb342ab8e7d9238f1e35831a54d6a8f5c91124";
    const name = "k51qzi5uqu5dlvj2baxnqndepeb86cbk3ng7n3i46uzyxzyqj2xjonzllnv0v8";
    expect(decodeContenthash(hex)).toEqual({
      protocolType: "IPNS",
      decoded: name,
      uri: `ipns://${name}`,
      httpUrl: `https://ipfs.io/ipns/${name}`,
    });
  });

  it("decodes Swarm (a swarm-manifest CID with a keccak-256 hash) to the hash", () => {
    const hash = "d1de9994b4d039f6548d191eb26786769f580809256b4685ef316805265ea162";
    expect(decodeContenthash(`0xe40101fa011b20${hash}`)).toEqual({
      protocolType: "SWARM",
      decoded: hash,
      uri: `bzz://${hash}`,
      httpUrl: `https://api.gateway.ethswarm.org/bzz/${hash}/`,
    });
  });

  it("decodes an onion address, which has no public gateway", () => {
    // Content-hash's README: encode("onion", "zqktlwi4fecvo6ri").
    expect(decodeContenthash("0xbc037a716b746c776934666563766f367269")).toEqual({
      protocolType: "ONION",
      decoded: "zqktlwi4fecvo6ri",
      uri: "onion://zqktlwi4fecvo6ri",
      httpUrl: null,
    });
  });

  it("answers null for malformed bytes, a codec the schema has no protocol for, or nothing", () => {
    expect(decodeContenthash("0xe301")).toBeNull(); // IPFS with no CID
    expect(decodeContenthash("0xe3010170")).toBeNull(); // a CID cut short
    expect(decodeContenthash("0xdeadbeef")).toBeNull(); // no such codec
    expect(decodeContenthash(`0xb69910${"00".repeat(32)}`)).toBeNull(); // ADNL: not a ContenthashProtocol
    expect(decodeContenthash("0x")).toBeNull();
    expect(decodeContenthash(null)).toBeNull();
  });
});
