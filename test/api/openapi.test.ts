import { describe, expect, it } from "vitest";
import { openApiDocument } from "../../src/api/openapi/document";
import { DEFAULT_LIMIT, MAX_LIMIT } from "../../src/api/shared/paging";

type Parameter = { name: string; in: string; required: boolean; schema: Record<string, unknown> };
const doc = openApiDocument({ version: "9.9.9", indexedChainIds: [1, 8453, 59144] }) as {
  openapi: string;
  info: { version: string };
  paths: Record<string, { get: { parameters?: Parameter[]; responses: Record<string, unknown> } }>;
};
const params = (path: string) => doc.paths[path].get.parameters ?? [];

describe("/openapi.json document", () => {
  it("is OpenAPI 3.1 and describes every REST route", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.version).toBe("9.9.9");
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        "/amirealtime",
        "/api/config",
        "/api/indexing-status",
        "/api/indexing-status/events",
        "/api/name-sales",
        "/api/name-tokens",
        "/api/registrar-actions",
        "/api/registrar-actions/{parentNode}",
        "/api/resolve/primary-name/{address}/{chainId}",
        "/api/resolve/primary-names/{address}",
        "/api/resolve/records/{name}",
        "/api/resolve/name-references/{address}",
        "/serving",
      ].sort(),
    );
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(Object.keys(item.get.responses), path).toContain("200");
      for (const name of path.match(/\{(\w+)\}/g) ?? []) {
        expect(
          params(path).some((p) => p.in === "path" && `{${p.name}}` === name),
          `${path} ${name}`,
        ).toBe(true);
      }
    }
  });

  it("takes its query parameters from the zod schemas the routes validate with", () => {
    const limit = params("/api/registrar-actions").find((p) => p.name === "limit")!;
    expect(limit.schema).toMatchObject({ type: "integer", maximum: MAX_LIMIT, default: DEFAULT_LIMIT });
    expect(params("/api/registrar-actions").map((p) => p.name)).toEqual([
      "limit",
      "page",
      "withReferral",
      "decodedReferrer",
      "beginTimestamp",
      "endTimestamp",
    ]);
    expect(params("/amirealtime")).toEqual([
      {
        name: "maxWorstCaseDistance",
        in: "query",
        required: false,
        schema: expect.objectContaining({ default: 60, minimum: 0 }),
      },
    ]);
    expect(params("/api/name-tokens").map((p) => p.name)).toEqual(["name", "domainId"]);
    expect(params("/api/name-sales").map((p) => p.name)).toEqual([
      "limit",
      "page",
      "name",
      "domainId",
      "buyer",
      "seller",
      "beginTimestamp",
      "endTimestamp",
    ]);
    expect(params("/api/resolve/name-references/{address}").map((p) => `${p.in}:${p.name}`)).toEqual([
      "path:address",
      "query:coinType",
      "query:limit",
      "query:cursor",
    ]);
    expect(params("/api/resolve/records/{name}").map((p) => `${p.in}:${p.name}`)).toEqual([
      "path:name",
      "query:addresses",
      "query:texts",
      "query:name",
      "query:contenthash",
      "query:pubkey",
      "query:abi",
      "query:interfaces",
      "query:dnszonehash",
      "query:version",
      "query:accelerate",
      "query:trace",
    ]);
  });
});
