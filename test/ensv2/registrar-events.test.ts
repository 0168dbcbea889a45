import { type Address, encodeAbiParameters, encodeEventTopics, type Hex, pad, parseAbiParameters } from "viem";
import { describe, expect, it } from "vitest";
import { Ensv2EthRegistrarAbi, Ensv2EthRegistrarIndexedReferrerAbi } from "../../abis";
import { decodeRegistrarEvent, type RegistrarLogEvent } from "../../src/plugins/ensv2/lib/registrar-events";

/*
 * The registrar's two layouts of NameRegistered and NameRenewed (src/plugins/ensv2/lib/registrar-events.ts), on logs
 * encoded here: each decodes in the layout its topic count names, and anything else is an error naming the contract,
 * the event and the transaction (test/ensv2/registrar-layouts.test.ts runs both on the devnet).
 */

const C = "ensv2/ETHRegistrar";
const REGISTRAR = "0x8c2e866b439358c41ae05de9cbe8a00bfefaffca" as Address;
const TOKEN = "0x00000000000000000000000000000000000000aa" as Address;
const REFERRER = pad("0x51", { size: 32 });
const TX = `0x${"ab".repeat(32)}` as Hex;

const logOf = (topics: Hex[], data: Hex): RegistrarLogEvent => ({
  args: undefined,
  block: { number: 7n, timestamp: 1n },
  log: { logIndex: 3, address: REGISTRAR, topics, data },
  transaction: { hash: TX, from: TOKEN },
});

const renewedData = (withReferrer: boolean) =>
  withReferrer
    ? encodeAbiParameters(parseAbiParameters("string, uint64, uint64, address, bytes32, uint256"), [
        "label",
        10n,
        20n,
        TOKEN,
        REFERRER,
        30n,
      ])
    : encodeAbiParameters(parseAbiParameters("string, uint64, uint64, address, uint256"), [
        "label",
        10n,
        20n,
        TOKEN,
        30n,
      ]);

describe("the registrar's price events in both layouts", () => {
  it("decodes NameRegistered with the referrer in the data (2 topics) and indexed (3 topics) to the same arguments", () => {
    const args = {
      tokenId: 5n,
      label: "label",
      owner: TOKEN,
      subregistry: TOKEN,
      resolver: TOKEN,
      duration: 10n,
      paymentToken: TOKEN,
      referrer: REFERRER,
      base: 30n,
      premium: 40n,
    };
    const source = encodeEventTopics({ abi: Ensv2EthRegistrarAbi, eventName: "NameRegistered", args });
    const deployed = encodeEventTopics({ abi: Ensv2EthRegistrarIndexedReferrerAbi, eventName: "NameRegistered", args });
    expect([source.length, deployed.length, source[0]]).toEqual([2, 3, deployed[0]]);
    const head = "string, address, address, address, uint64, address";
    const a = decodeRegistrarEvent(
      C,
      "NameRegistered",
      logOf(
        source as Hex[],
        encodeAbiParameters(parseAbiParameters(`${head}, bytes32, uint256, uint256`), [
          "label",
          TOKEN,
          TOKEN,
          TOKEN,
          10n,
          TOKEN,
          REFERRER,
          30n,
          40n,
        ]),
      ),
    );
    const b = decodeRegistrarEvent(
      C,
      "NameRegistered",
      logOf(
        deployed as Hex[],
        encodeAbiParameters(parseAbiParameters(`${head}, uint256, uint256`), [
          "label",
          TOKEN,
          TOKEN,
          TOKEN,
          10n,
          TOKEN,
          30n,
          40n,
        ]),
      ),
    );
    expect(a.args).toEqual(args);
    expect(b.args).toEqual(args);
  });

  it("reads the deployed NameRenewed's `amount` as the price, and keeps the name it was emitted with", () => {
    const args = { tokenId: 5n, referrer: REFERRER };
    const source = encodeEventTopics({ abi: Ensv2EthRegistrarAbi, eventName: "NameRenewed", args });
    const deployed = encodeEventTopics({ abi: Ensv2EthRegistrarIndexedReferrerAbi, eventName: "NameRenewed", args });
    const a = decodeRegistrarEvent(C, "NameRenewed", logOf(source as Hex[], renewedData(true)));
    const b = decodeRegistrarEvent(C, "NameRenewed", logOf(deployed as Hex[], renewedData(false)));
    for (const d of [a, b]) {
      expect([d.args.tokenId, d.args.newExpiry, d.args.paymentToken, d.args.referrer, d.args.base]).toEqual([
        5n,
        20n,
        TOKEN,
        REFERRER,
        30n,
      ]);
    }
    expect(Object.keys(a.emitted)).toContain("base");
    expect(Object.keys(b.emitted)).toContain("amount");
    expect(Object.keys(b.emitted)).not.toContain("base");
  });

  it("throws, naming the contract, the event and the transaction, at a log in neither layout", () => {
    const topics = encodeEventTopics({
      abi: Ensv2EthRegistrarIndexedReferrerAbi,
      eventName: "NameRenewed",
      args: { tokenId: 5n, referrer: REFERRER },
    }) as Hex[];
    const where = `${C} (${REGISTRAR}): NameRenewed in tx ${TX} (block 7, log 3)`;
    // One topic more than the deployed layout.
    expect(() => decodeRegistrarEvent(C, "NameRenewed", logOf([...topics, REFERRER], renewedData(false)))).toThrow(
      `${where} has 4 topics, a layout of neither build`,
    );
    // No token id topic.
    expect(() => decodeRegistrarEvent(C, "NameRenewed", logOf([topics[0]!], renewedData(false)))).toThrow(
      `${where} has 1 topics`,
    );
    // Three topics, but data too short for the deployed layout.
    expect(() => decodeRegistrarEvent(C, "NameRenewed", logOf(topics, `0x${"00".repeat(64)}`))).toThrow(
      `${where} does not decode in the layout its 3 topics name (referrer indexed, as the sepolia-v2 deployment)`,
    );
  });
});
