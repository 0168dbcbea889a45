import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingestFile, type LabelsServer, MESSAGES, startLabelsServer } from "../src/index.js";
import { getJson, hashOf, tempDir, writeCsv, writeText } from "./helpers.js";

const ODD_LABELS = [
  "",
  "a.b.c",
  "😀🦄",
  "nul\0inside",
  "\0",
  "tab\there",
  'quote" and, comma',
  "Ünïcödé",
  "[not-a-hash]",
  " padded ",
  "line\nbreak",
];
const V0_LABELS = ["vitalik", "eth", "nick", ...ODD_LABELS];
const V1_LABELS = ["newcomer", "latecomer"];

describe("label healing HTTP API", () => {
  const tmp = tempDir();
  const dbPath = join(tmp.dir, "labels.sqlite");
  let server: LabelsServer;
  let url: string;

  beforeAll(async () => {
    server = await startLabelsServer({ dbPath, port: 0 });
    url = server.url;
  });
  afterAll(async () => {
    await server.close();
    tmp.cleanup();
  });

  describe("before any ingest", () => {
    it("answers /health but 503 on heal, count and config", async () => {
      expect(await getJson(`${url}/health`)).toMatchObject({ status: 200, body: { status: "ok" } });
      const heal = await getJson(`${url}/v1/heal/${hashOf("eth")}`);
      expect(heal.status).toBe(503);
      expect(heal.body).toMatchObject({ status: "error", errorCode: 503 });
      expect(heal.body.error).toMatch(/not ready/);
      const count = await getJson(`${url}/v1/labels/count`);
      expect(count.status).toBe(503);
      expect(count.body.error).toContain(MESSAGES.countNotInitialized);
      expect((await getJson(`${url}/v1/config`)).status).toBe(503);
      expect((await getJson(`${url}/v1/heal`, { method: "POST", body: JSON.stringify([hashOf("eth")]) })).status).toBe(
        503,
      );
    });

    it("still rejects a bad labelhash with 400 before looking at the database", async () => {
      const res = await getJson(`${url}/v1/heal/0x1234`);
      expect(res).toMatchObject({
        status: 400,
        body: { status: "error", error: MESSAGES.invalidLabelhash, errorCode: 400 },
      });
    });
  });

  describe("after two versions are ingested", () => {
    beforeAll(async () => {
      await ingestFile({ dbPath, file: writeCsv(join(tmp.dir, "v0.csv"), V0_LABELS), labelSetId: "test-set" });
      await ingestFile({ dbPath, file: writeText(join(tmp.dir, "v1.txt"), [...V1_LABELS, "eth"]) });
      // The server checks for new data on each request; wait for its 500 ms retry to open the new file.
      await new Promise((r) => setTimeout(r, 600));
    });

    it("heals every label byte for byte, including empty, dotted, emoji and NUL labels", async () => {
      for (const label of V0_LABELS) {
        const res = await getJson(`${url}/v1/heal/${hashOf(label)}`);
        expect(res.status, JSON.stringify(label)).toBe(200);
        expect(res.body).toEqual({ status: "success", label });
      }
    });

    it("accepts uppercase hex and looks up the lowercase form", async () => {
      const upper = `0x${hashOf("vitalik").slice(2).toUpperCase()}`;
      expect(await getJson(`${url}/v1/heal/${upper}`)).toMatchObject({ status: 200, body: { label: "vitalik" } });
    });

    it("answers 404 Label not found for an unknown labelhash", async () => {
      const res = await getJson(`${url}/v1/heal/${hashOf("never-ingested")}`);
      expect(res).toEqual({
        status: 404,
        body: { status: "error", error: MESSAGES.labelNotFound, errorCode: 404 },
        headers: res.headers,
      });
    });

    it.each([
      ["too short", "0x1234"],
      ["no 0x prefix", hashOf("eth").slice(2)],
      ["non-hex digit", `0x${"g".repeat(64)}`],
      ["too long", `${hashOf("eth")}00`],
      ["encoded label form", `[${hashOf("eth").slice(2)}]`],
    ])("rejects a labelhash that is %s with 400", async (_name, labelhash) => {
      const res = await getJson(`${url}/v1/heal/${encodeURIComponent(labelhash)}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ status: "error", error: MESSAGES.invalidLabelhash, errorCode: 400 });
    });

    it("rejects a missing labelhash with 400", async () => {
      expect((await getJson(`${url}/v1/heal/`)).body).toMatchObject({
        error: MESSAGES.invalidLabelhash,
        errorCode: 400,
      });
      expect((await getJson(`${url}/v1/heal`)).status).toBe(400);
    });

    describe("label set pinning", () => {
      const heal = (label: string, query: string) => getJson(`${url}/v1/heal/${hashOf(label)}?${query}`);

      it("returns a label added in version 1 only when the pin allows version 1", async () => {
        expect(await heal("newcomer", "label_set_id=test-set&label_set_version=0")).toMatchObject({
          status: 404,
          body: { error: MESSAGES.labelNotFound, errorCode: 404 },
        });
        expect(await heal("newcomer", "label_set_id=test-set&label_set_version=1")).toMatchObject({
          status: 200,
          body: { label: "newcomer" },
        });
        expect(await heal("newcomer", "label_set_id=test-set")).toMatchObject({
          status: 200,
          body: { label: "newcomer" },
        });
        expect(await heal("vitalik", "label_set_id=test-set&label_set_version=0")).toMatchObject({
          status: 200,
          body: { label: "vitalik" },
        });
      });

      it("keeps a label in the version that first added it", async () => {
        // "eth" was in both inputs; version 1 skipped it, so a version-0 pin still heals it.
        expect(await heal("eth", "label_set_id=test-set&label_set_version=0")).toMatchObject({
          status: 200,
          body: { label: "eth" },
        });
      });

      it("rejects a version above the highest with 400", async () => {
        expect(await heal("eth", "label_set_id=test-set&label_set_version=2")).toMatchObject({
          status: 400,
          body: { status: "error", error: MESSAGES.versionTooHigh, errorCode: 400 },
        });
      });

      it("rejects a label set id that is not the server's with 400 naming both", async () => {
        const res = await heal("eth", "label_set_id=other-set");
        expect(res.status).toBe(400);
        expect(res.body.error).toBe(MESSAGES.labelSetIdMismatch("test-set", "other-set"));
        expect(res.body.error).toContain("test-set");
        expect(res.body.error).toContain("other-set");
      });

      it("rejects a version without an id with 400", async () => {
        expect(await heal("eth", "label_set_version=0")).toMatchObject({
          status: 400,
          body: { error: MESSAGES.versionWithoutId, errorCode: 400 },
        });
      });

      it.each([
        ["a negative version", "label_set_id=test-set&label_set_version=-1"],
        ["a fractional version", "label_set_id=test-set&label_set_version=1.5"],
        ["a non-numeric version", "label_set_id=test-set&label_set_version=abc"],
        ["an empty version", "label_set_id=test-set&label_set_version="],
        ["an id with capitals", "label_set_id=Test-Set"],
        ["an id too long", `label_set_id=${"a".repeat(51)}`],
      ])("rejects %s with 400", async (_name, query) => {
        const res = await heal("eth", query);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ status: "error", errorCode: 400 });
        expect(res.body.error).toMatch(/label_set|label set id/);
      });

      it("checks query parameters before the labelhash is looked up", async () => {
        const res = await getJson(`${url}/v1/heal/${hashOf("never-ingested")}?label_set_version=0`);
        expect(res.status).toBe(400);
      });
    });

    it("counts the labels of all versions", async () => {
      const res = await getJson(`${url}/v1/labels/count`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: "success", count: V0_LABELS.length + V1_LABELS.length });
      expect(new Date(res.body.timestamp).toISOString()).toBe(res.body.timestamp);
    });

    it("reports its config", async () => {
      const res = await getJson(`${url}/v1/config`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        version: expect.any(String),
        labelSet: { labelSetId: "test-set", highestLabelSetVersion: 1 },
        recordsCount: V0_LABELS.length + V1_LABELS.length,
      });
    });

    describe("batch heal", () => {
      const post = (body: unknown, query = "") =>
        getJson(`${url}/v1/heal${query}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: typeof body === "string" ? body : JSON.stringify(body),
        });

      it("heals many labelhashes in one request, with null for unknown ones and lowercase keys", async () => {
        const upperEth = `0x${hashOf("eth").slice(2).toUpperCase()}`;
        const res = await post([hashOf("vitalik"), upperEth, hashOf("nul\0inside"), hashOf("unknown-one")]);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          status: "success",
          labels: {
            [hashOf("vitalik")]: "vitalik",
            [hashOf("eth")]: "eth",
            [hashOf("nul\0inside")]: "nul\0inside",
            [hashOf("unknown-one")]: null,
          },
        });
      });

      it("applies the pin to every entry", async () => {
        const res = await post([hashOf("newcomer"), hashOf("nick")], "?label_set_id=test-set&label_set_version=0");
        expect(res.body.labels).toEqual({ [hashOf("newcomer")]: null, [hashOf("nick")]: "nick" });
        expect((await post([hashOf("nick")], "?label_set_version=0")).status).toBe(400);
        expect((await post([hashOf("nick")], "?label_set_id=test-set&label_set_version=9")).body.error).toBe(
          MESSAGES.versionTooHigh,
        );
      });

      it("accepts exactly 1000 entries and rejects 1001 with 400", async () => {
        const many = Array.from({ length: 1000 }, (_, i) => hashOf(`n${i}`));
        const ok = await post(many);
        expect(ok.status).toBe(200);
        expect(Object.keys(ok.body.labels)).toHaveLength(1000);
        const tooMany = await post([...many, hashOf("one-more")]);
        expect(tooMany).toMatchObject({ status: 400, body: { status: "error", errorCode: 400 } });
        expect(tooMany.body.error).toMatch(/1000/);
      });

      it.each([
        ["not JSON", "[not json", /JSON array/],
        ["a JSON object", { labelhash: "0x" }, /JSON array/],
        ["a non-string entry", [hashOf("eth"), 42], /index 1/],
        [
          "an invalid labelhash entry",
          [hashOf("eth"), "0x12"],
          /Invalid labelhash - must be a valid hex string \(at index 1\)/,
        ],
      ])("rejects a body that is %s with 400", async (_name, body, message) => {
        const res = await post(body);
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ status: "error", errorCode: 400 });
        expect(res.body.error).toMatch(message);
      });

      it("rejects an oversized body with 413", async () => {
        const res = await post("[" + " ".repeat(300 * 1024) + "]");
        expect(res).toMatchObject({ status: 413, body: { status: "error", errorCode: 413 } });
        // The 413 says the size limit, not only the count limit the body may well be within.
        expect(res.body.error).toBe(
          "Request body too large: at most 262144 bytes (256 KiB) and 1000 labelhashes per request",
        );
      });
    });

    it("sends CORS headers on /v1 routes and answers preflight", async () => {
      for (const path of [
        `/v1/heal/${hashOf("eth")}`,
        `/v1/heal/${hashOf("eth")}?label_set_id=nope`,
        "/v1/labels/count",
        "/v1/config",
      ]) {
        const res = await fetch(`${url}${path}`, { headers: { origin: "https://example.org" } });
        expect(res.headers.get("access-control-allow-origin"), path).toBe("*");
      }
      const preflight = await fetch(`${url}/v1/heal`, {
        method: "OPTIONS",
        headers: { origin: "https://example.org", "access-control-request-method": "POST" },
      });
      expect(preflight.status).toBeLessThan(300);
      expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    });

    it("answers HEAD like GET without a body", async () => {
      const ok = await fetch(`${url}/v1/heal/${hashOf("eth")}`, { method: "HEAD" });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toBe("");
      expect((await fetch(`${url}/v1/heal/0x12`, { method: "HEAD" })).status).toBe(400);
      expect((await fetch(`${url}/health`, { method: "HEAD" })).status).toBe(200);
    });

    it("answers unknown routes and methods with a 404 JSON error", async () => {
      for (const [method, path] of [
        ["GET", "/nope"],
        ["GET", "/v2/heal/x"],
        ["DELETE", `/v1/heal/${hashOf("eth")}`],
        ["PUT", "/v1/labels/count"],
      ]) {
        const res = await getJson(`${url}${path}`, { method });
        expect(res, `${method} ${path}`).toMatchObject({
          status: 404,
          body: { status: "error", error: "Not found", errorCode: 404 },
        });
      }
    });

    it("serves a burst of 2,000 concurrent mixed requests without a 5xx", async () => {
      const paths = [
        `/v1/heal/${hashOf("eth")}`,
        `/v1/heal/${hashOf("missing")}`,
        "/v1/heal/0xnothex",
        `/v1/heal/${hashOf("eth")}?label_set_id=test-set&label_set_version=0`,
        `/v1/heal/${hashOf("eth")}?label_set_version=7`,
        "/v1/labels/count",
        "/v1/config",
        "/health",
        "/unknown",
      ];
      const requests = Array.from({ length: 2000 }, (_, i) =>
        i % 10 === 9
          ? fetch(`${url}/v1/heal`, { method: "POST", body: JSON.stringify([hashOf("eth"), hashOf(`x${i}`)]) })
          : fetch(`${url}${paths[i % paths.length]}`),
      );
      const statuses = await Promise.all(requests.map(async (r) => (await r).status));
      expect(statuses.filter((s) => s >= 500)).toEqual([]);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(900);
    });
  });
});
