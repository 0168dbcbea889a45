import { describe, expect, it } from "vitest";
import { parentNodeParam, registrarActionsQuery } from "../../src/api/registrar-actions/query";
import { pageContext } from "../../src/api/shared/paging";

const parse = (q: Record<string, string>) => registrarActionsQuery.safeParse(q);
const fieldsOf = (q: Record<string, string>) => {
  const r = parse(q);
  return r.success ? [] : r.error.issues.map((i) => i.path.join("."));
};

describe("registrar actions query", () => {
  it("has defaults: limit 25, page 1, no filters", () => {
    expect(parse({})).toEqual({
      success: true,
      data: {
        limit: 25,
        page: 1,
        withReferral: false,
        decodedReferrer: undefined,
        beginTimestamp: undefined,
        endTimestamp: undefined,
      },
    });
  });
  it("treats empty values as not given", () => {
    expect(parse({ limit: "", page: "", withReferral: "" }).data).toMatchObject({
      limit: 25,
      page: 1,
      withReferral: false,
    });
  });
  it("accepts limits 1 to 100", () => {
    expect(parse({ limit: "1" }).data?.limit).toBe(1);
    expect(parse({ limit: "100" }).data?.limit).toBe(100);
  });
  it.each([["0"], ["101"], ["1.5"], ["abc"], ["-3"]])("rejects limit=%s", (limit) => {
    expect(fieldsOf({ limit })).toEqual(["limit"]);
  });
  it.each([["0"], ["-1"], ["2.5"], ["x"]])("rejects page=%s", (page) => {
    expect(fieldsOf({ page })).toEqual(["page"]);
  });
  it("parses withReferral true/false only", () => {
    expect(parse({ withReferral: "true" }).data?.withReferral).toBe(true);
    expect(parse({ withReferral: "false" }).data?.withReferral).toBe(false);
    expect(fieldsOf({ withReferral: "yes" })).toEqual(["withReferral"]);
    expect(fieldsOf({ withReferral: "1" })).toEqual(["withReferral"]);
  });
  it("lowercases decodedReferrer and rejects non-addresses", () => {
    expect(parse({ decodedReferrer: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC" }).data?.decodedReferrer).toBe(
      "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc",
    );
    expect(fieldsOf({ decodedReferrer: "0x1234" })).toEqual(["decodedReferrer"]);
    expect(fieldsOf({ decodedReferrer: `0x${"g".repeat(40)}` })).toEqual(["decodedReferrer"]);
  });
  it("accepts an inclusive timestamp range, begin == end included", () => {
    expect(parse({ beginTimestamp: "10", endTimestamp: "10" }).success).toBe(true);
  });
  it("rejects end before begin, negative and fractional timestamps", () => {
    expect(fieldsOf({ beginTimestamp: "11", endTimestamp: "10" })).toEqual(["endTimestamp"]);
    expect(fieldsOf({ beginTimestamp: "-1" })).toEqual(["beginTimestamp"]);
    expect(fieldsOf({ endTimestamp: "1.5" })).toEqual(["endTimestamp"]);
  });
  it("reports every bad field at once", () => {
    expect(fieldsOf({ limit: "0", page: "0", withReferral: "maybe" }).sort()).toEqual([
      "limit",
      "page",
      "withReferral",
    ]);
  });
});

describe("parentNode", () => {
  it("accepts 0x + 64 hex, lowercased", () => {
    const node = `0x${"AB".repeat(32)}`;
    expect(parentNodeParam.parse({ parentNode: node }).parentNode).toBe(node.toLowerCase());
  });
  it.each([["0x1234"], ["eth"], [`${"ab".repeat(32)}`], [`0x${"ab".repeat(32)}00`]])("rejects %s", (parentNode) => {
    expect(parentNodeParam.safeParse({ parentNode }).success).toBe(false);
  });
});

describe("pageContext", () => {
  it("counts pages of limit records", () => {
    expect(pageContext(1, 25, 60)).toEqual({
      page: 1,
      limit: 25,
      totalRecords: 60,
      totalPages: 3,
      hasNext: true,
      hasPrev: false,
    });
    expect(pageContext(2, 25, 60)).toMatchObject({ hasNext: true, hasPrev: true });
    expect(pageContext(3, 25, 60)).toMatchObject({ hasNext: false, hasPrev: true });
  });
  it("has exact page boundaries", () => {
    expect(pageContext(1, 10, 10)).toMatchObject({ totalPages: 1, hasNext: false });
    expect(pageContext(1, 10, 11)).toMatchObject({ totalPages: 2, hasNext: true });
  });
  it("gives an empty result one empty page", () => {
    expect(pageContext(1, 25, 0)).toEqual({
      page: 1,
      limit: 25,
      totalRecords: 0,
      totalPages: 1,
      hasNext: false,
      hasPrev: false,
    });
  });
  it("past the last page: no next, a previous", () => {
    expect(pageContext(9, 25, 30)).toMatchObject({ totalPages: 2, hasNext: false, hasPrev: true });
  });
});
