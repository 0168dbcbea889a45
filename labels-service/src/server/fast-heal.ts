import type { IncomingMessage, ServerResponse } from "node:http";
import { LabelServiceError, MESSAGES } from "../errors.js";
import type { LabelStore } from "../store/label-store.js";
import { healOne, NOT_FOUND_BODY } from "./heal.js";

const PREFIX = "/v1/heal/";
const PLAIN_HEAL_URL_LENGTH = PREFIX.length + 66;

type Listener = (req: IncomingMessage, res: ServerResponse) => unknown;

/**
 * The indexer's hot request, GET /v1/heal/0x<64 hex> without query parameters, answered straight from
 * node:http: building fetch Request/Response objects for it costs more CPU than the lookup itself.
 * Same logic (healOne) and same headers as the Hono route; every other request goes to `fallback`.
 */
export function withFastHeal(getStore: () => LabelStore | null, fallback: Listener): Listener {
  return (req, res) => {
    const url = req.url;
    if (req.method !== "GET" || url === undefined || url.length !== PLAIN_HEAL_URL_LENGTH || !url.startsWith(PREFIX)) {
      return fallback(req, res);
    }
    let status = 200;
    let body: string;
    try {
      const label = healOne(getStore, url.slice(PREFIX.length), {});
      if (label === null) status = 404;
      body = JSON.stringify(label === null ? NOT_FOUND_BODY : { status: "success", label });
    } catch (error) {
      status = error instanceof LabelServiceError ? error.status : 500;
      if (status === 500) console.error("labels-service: unexpected error", error);
      const message = error instanceof LabelServiceError ? error.message : MESSAGES.internal;
      body = JSON.stringify({ status: "error", error: message, errorCode: status });
    }
    res.writeHead(status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(body),
      "access-control-allow-origin": "*",
    });
    res.end(body);
  };
}
