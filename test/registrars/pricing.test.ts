import { describe, expect, it } from "vitest";
import {
  decodeReferrer,
  hasReferral,
  mergeControllerEvent,
  priced,
  referralOf,
} from "../../src/plugins/shared/registrar-pricing";

const ZERO32 = `0x${"0".repeat(64)}` as const;
const ADDR = "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc";

describe("decodeReferrer", () => {
  it("reads an address from the last 20 bytes when the first 12 are zero", () => {
    expect(decodeReferrer(`0x${"0".repeat(24)}${ADDR.slice(2)}`)).toBe(ADDR);
  });
  it("lowercases mixed-case input", () => {
    expect(decodeReferrer(`0x${"0".repeat(24)}3C44CdDdB6a900fa2b585dd299e03d12FA4293BC`)).toBe(ADDR);
  });
  it("decodes the zero referrer to the zero address", () => {
    expect(decodeReferrer(ZERO32)).toBe("0x0000000000000000000000000000000000000000");
  });
  it("decodes a referrer with non-zero high bytes to the zero address", () => {
    expect(decodeReferrer("0xd724a3a8f3f25378f548cc52e6301cf6dd1f428534d3998077d4c20b42a207ea")).toBe(
      "0x0000000000000000000000000000000000000000",
    );
    // one non-zero bit in byte 12 (the last high byte) is enough
    expect(decodeReferrer(`0x${"0".repeat(22)}01${ADDR.slice(2)}`)).toBe("0x0000000000000000000000000000000000000000");
  });
  it("rejects anything but 32 bytes", () => {
    expect(() => decodeReferrer("0x1234")).toThrow(/32 bytes/);
  });
});

describe("hasReferral", () => {
  it("is false for no referrer and for the all-zero referrer, true otherwise", () => {
    expect(hasReferral(null)).toBe(false);
    expect(hasReferral(ZERO32)).toBe(false);
    expect(hasReferral(`0x${"0".repeat(24)}${ADDR.slice(2)}`)).toBe(true);
    expect(hasReferral("0xd724a3a8f3f25378f548cc52e6301cf6dd1f428534d3998077d4c20b42a207ea")).toBe(true);
  });
});

describe("priced", () => {
  it("totals base cost and premium; premium defaults to 0 (legacy cost, renewals)", () => {
    expect(priced(5n, 2n)).toEqual({ baseCost: 5n, premium: 2n, total: 7n });
    expect(priced(5n)).toEqual({ baseCost: 5n, premium: 0n, total: 5n });
  });
});

describe("mergeControllerEvent", () => {
  const fresh = {
    baseCost: null,
    premium: null,
    total: null,
    encodedReferrer: null,
    decodedReferrer: null,
    eventIds: ["1-10-2"],
  };

  it("sets the controller's price and appends its event id", () => {
    expect(mergeControllerEvent(fresh, { id: "1-10-5", pricing: priced(10n, 3n), referral: null })).toEqual({
      baseCost: 10n,
      premium: 3n,
      total: 13n,
      encodedReferrer: null,
      decodedReferrer: null,
      withReferral: false,
      eventIds: ["1-10-2", "1-10-5"],
    });
  });

  it("leaves pricing null for a controller that publishes none (Basenames, Lineanames owner/PoH)", () => {
    const merged = mergeControllerEvent(fresh, { id: "1-10-5", pricing: null, referral: null });
    expect([merged.baseCost, merged.premium, merged.total]).toEqual([null, null, null]);
  });

  it("keeps the first price and adds the referral of a renewal-with-referrer event", () => {
    const afterController = mergeControllerEvent(fresh, { id: "1-10-5", pricing: priced(10n), referral: null });
    const referral = referralOf(`0x${"0".repeat(24)}${ADDR.slice(2)}`);
    const merged = mergeControllerEvent(afterController, { id: "1-10-7", pricing: priced(99n), referral });
    expect(merged).toMatchObject({ baseCost: 10n, premium: 0n, total: 10n, ...referral, withReferral: true });
    expect(merged.eventIds).toEqual(["1-10-2", "1-10-5", "1-10-7"]);
  });

  it("records a zero referrer as a referral that does not count for withReferral", () => {
    const merged = mergeControllerEvent(fresh, { id: "1-10-5", pricing: priced(1n), referral: referralOf(ZERO32) });
    expect(merged).toMatchObject({
      encodedReferrer: ZERO32,
      decodedReferrer: "0x0000000000000000000000000000000000000000",
      withReferral: false,
    });
  });

  it("does not append the same event twice", () => {
    const once = mergeControllerEvent(fresh, { id: "1-10-5", pricing: null, referral: null });
    expect(mergeControllerEvent(once, { id: "1-10-5", pricing: null, referral: null }).eventIds).toEqual([
      "1-10-2",
      "1-10-5",
    ]);
  });
});
