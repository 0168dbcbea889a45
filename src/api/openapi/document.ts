import type { z } from "zod";
import { zodToJsonSchema } from "zod-to-json-schema";
import { publicConfigSchema } from "../config/public-config";
import { amIRealtimeQuery } from "../indexing-status/route";
import { nameSalesQuery } from "../name-sales/query";
import { nameTokensQuery } from "../name-tokens/query";
import { registrarActionsQuery } from "../registrar-actions/query";
import { nameReferencesQuery } from "../resolution/name-references";
import { primaryNameQuery, primaryNamesQuery, recordsQuery } from "../resolution/query";

type JsonSchema = Record<string, unknown>;

/** A query schema as OpenAPI query parameters: the strings a client sends, with the rules the route enforces. */
function queryParameters(schema: z.ZodTypeAny): JsonSchema[] {
  const json = zodToJsonSchema(schema, { target: "openApi3", pipeStrategy: "output", effectStrategy: "input" }) as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: "query",
    required: json.required?.includes(name) ?? false,
    schema: property,
  }));
}

const pathParameter = (name: string, description: string, pattern?: string): JsonSchema => ({
  name,
  in: "path",
  required: true,
  description,
  schema: { type: "string", ...(pattern ? { pattern } : {}) },
});

const json = (description: string, schema: JsonSchema = { type: "object" }) => ({
  description,
  content: { "application/json": { schema } },
});

const invalidInput = json("Invalid query input", {
  type: "object",
  required: ["message", "details"],
  properties: {
    message: { const: "Invalid Input" },
    details: {
      type: "array",
      items: { type: "object", properties: { field: { type: "string" }, message: { type: "string" } } },
    },
  },
});

/**
 * The OpenAPI 3.1 description of every REST route, with query parameters generated from the zod schemas the routes
 * validate with (so the document cannot drift from the validation).
 */
export function openApiDocument(options: { version: string; indexedChainIds: readonly number[] }): JsonSchema {
  return {
    openapi: "3.1.0",
    info: {
      title: "nameindex",
      version: options.version,
      description:
        "Multichain ENS-style name indexer: configuration, indexing status, registrar actions, name tokens, name sales, resolution.",
    },
    paths: {
      "/api/config": {
        get: {
          summary: "Public configuration and component versions",
          responses: {
            200: json("The configuration", zodToJsonSchema(publicConfigSchema, { target: "openApi3" }) as JsonSchema),
            503: json("The label service cannot be reached"),
          },
        },
      },
      "/api/indexing-status": {
        get: {
          summary: "Omnichain indexing snapshot and its realtime projection",
          responses: { 200: json("The status"), 503: json("No indexing status exists yet") },
        },
      },
      "/api/indexing-status/events": {
        get: {
          summary:
            "Events indexed since the indexer started, and when that was read: two readings give events per second",
          responses: {
            200: json("The counter", {
              type: "object",
              properties: {
                completedEvents: { type: "integer", minimum: 0 },
                measuredAt: { type: "integer", description: "Unix milliseconds" },
              },
              required: ["completedEvents", "measuredAt"],
            }),
            503: json("The indexer's counter cannot be read (an API replica whose INDEXER_URL does not answer)"),
          },
        },
      },
      "/amirealtime": {
        get: {
          summary: "Whether every chain is within maxWorstCaseDistance seconds of real time",
          parameters: queryParameters(amIRealtimeQuery),
          responses: { 200: json("Realtime"), 400: invalidInput, 503: json("Not realtime, or no status yet") },
        },
      },
      "/serving": {
        get: {
          summary:
            "Whether this process can serve the index (its database answers, the schema holds a finished backfill): what a load balancer probes",
          responses: {
            200: json("Serving", {
              type: "object",
              properties: { serving: { const: true }, ponderReady: { type: "boolean" } },
              required: ["serving", "ponderReady"],
            }),
            503: json("Not serving: DATABASE_UNAVAILABLE or BACKFILL_NOT_FINISHED, with the reason", {
              type: "object",
              properties: {
                serving: { const: false },
                code: { enum: ["DATABASE_UNAVAILABLE", "BACKFILL_NOT_FINISHED"] },
                reason: { type: "string" },
              },
              required: ["serving", "code", "reason"],
            }),
          },
        },
      },
      "/api/registrar-actions": {
        get: {
          summary: "Registrations and renewals, newest first",
          parameters: queryParameters(registrarActionsQuery),
          responses: { 200: json("A page of actions"), 400: invalidInput, 503: json("No indexing status exists yet") },
        },
      },
      "/api/registrar-actions/{parentNode}": {
        get: {
          summary: "Registrations and renewals of one subregistry's names",
          parameters: [
            pathParameter(
              "parentNode",
              "Namehash of the managed name (eth, base.eth, linea.eth)",
              "^0x[0-9a-fA-F]{64}$",
            ),
            ...queryParameters(registrarActionsQuery),
          ],
          responses: { 200: json("A page of actions"), 400: invalidInput, 503: json("No indexing status exists yet") },
        },
      },
      "/api/name-tokens": {
        get: {
          summary: "The NFTs that represent a registered name (exactly one of name or domainId)",
          parameters: queryParameters(nameTokensQuery),
          responses: {
            200: json("The name's tokens"),
            400: json("Invalid input"),
            404: json("name-tokens-not-indexed"),
            503: json("unsupported-indexing-status"),
          },
        },
      },
      "/api/name-sales": {
        get: {
          summary:
            "Seaport sales of name tokens, newest first (at most one of name or domainId; buyer, seller, time range)",
          parameters: queryParameters(nameSalesQuery),
          responses: { 200: json("A page of sales"), 400: invalidInput, 503: json("No indexing status exists yet") },
        },
      },
      "/api/resolve/records/{name}": {
        get: {
          summary: "A name's records, from the index when realtime, else onchain",
          parameters: [pathParameter("name", "An ENSIP-15 normalized name"), ...queryParameters(recordsQuery)],
          responses: { 200: json("The records"), 400: invalidInput, 503: json("Onchain resolution failed") },
        },
      },
      "/api/resolve/primary-name/{address}/{chainId}": {
        get: {
          summary: "An address's verified primary name on one chain",
          parameters: [
            pathParameter("address", "0x-prefixed 20-byte address", "^0x[0-9a-fA-F]{40}$"),
            pathParameter("chainId", `One of the indexed chains: ${options.indexedChainIds.join(", ")}`, "^[0-9]+$"),
            ...queryParameters(primaryNameQuery),
          ],
          responses: { 200: json("The name or null"), 400: invalidInput, 503: json("Onchain resolution failed") },
        },
      },
      "/api/resolve/primary-names/{address}": {
        get: {
          summary: "An address's verified primary names on several chains",
          parameters: [
            pathParameter("address", "0x-prefixed 20-byte address", "^0x[0-9a-fA-F]{40}$"),
            ...queryParameters(primaryNamesQuery(options.indexedChainIds)),
          ],
          responses: { 200: json("Names by chain id"), 400: invalidInput, 503: json("Onchain resolution failed") },
        },
      },
      "/api/resolve/name-references/{address}": {
        get: {
          summary: "The names whose current address record (an EVM coin type) is this address, from the index",
          parameters: [
            pathParameter("address", "0x-prefixed 20-byte address", "^0x[0-9a-fA-F]{40}$"),
            ...queryParameters(nameReferencesQuery),
          ],
          responses: {
            200: json("A page of references and the cursor of the next page"),
            400: invalidInput,
            503: json("The protocol-acceleration plugin is not indexed"),
          },
        },
      },
    },
  };
}
