import http from "node:http";
import https from "node:https";
import type { Hex } from "viem";
import { LabelHealingError, TransientLabelSourceError } from "./errors";
import type { LabelSetPin, LabelSource } from "./sources";

export interface HttpLabelSourceOptions {
  url: string;
  labelSet: LabelSetPin;
  /** Per-request timeout; a timeout counts as a transient failure. */
  timeoutMs?: number;
}

/** The label service over HTTP: `GET /v1/heal/:labelhash` and the batch `POST /v1/heal` (≤ 1000 hashes). */
export class HttpLabelSource implements LabelSource {
  readonly description: string;
  readonly maxBatch = 1000;
  private readonly base: string;
  private readonly query: string;
  private readonly timeoutMs: number;
  // One kept-alive connection: heals come one at a time from the handlers, and node:http's round trip on a kept
  // connection costs about half of fetch's.
  private readonly agent: http.Agent;

  constructor(options: HttpLabelSourceOptions) {
    this.base = options.url.replace(/\/+$/, "");
    this.description = `label service at ${this.base}`;
    this.query = new URLSearchParams({
      label_set_id: options.labelSet.labelSetId,
      label_set_version: String(options.labelSet.labelSetVersion),
    }).toString();
    this.timeoutMs = options.timeoutMs ?? 10_000;
    const Agent = this.base.startsWith("https:") ? https.Agent : http.Agent;
    this.agent = new Agent({ keepAlive: true, maxSockets: 4 });
  }

  async lookup(labelhash: Hex): Promise<string | null> {
    const { status, body } = await this.request(`${this.base}/v1/heal/${labelhash}?${this.query}`, { method: "GET" });
    if (status === 200) {
      if (isObject(body) && body.status === "success" && typeof body.label === "string") return body.label;
      throw this.unexpected(status, body);
    }
    // A 404 is "not found" only when the label service says so; any other 404 means a wrong URL.
    if (status === 404 && isObject(body) && (body.errorCode === 404 || body.error === "Label not found")) return null;
    throw this.failure(status, body);
  }

  async lookupMany(labelhashes: Hex[]): Promise<Map<Hex, string | null>> {
    const { status, body } = await this.request(`${this.base}/v1/heal?${this.query}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(labelhashes),
    });
    if (status !== 200) throw this.failure(status, body);
    if (!isObject(body) || body.status !== "success" || !isObject(body.labels)) throw this.unexpected(status, body);
    const labels = body.labels as Record<string, unknown>;
    const byLowercase = new Map(Object.entries(labels).map(([k, v]) => [k.toLowerCase(), v]));
    const out = new Map<Hex, string | null>();
    for (const hash of labelhashes) {
      const value = byLowercase.get(hash.toLowerCase());
      if (value !== null && value !== undefined && typeof value !== "string") throw this.unexpected(status, body);
      out.set(hash, (value as string | null | undefined) ?? null);
    }
    return out;
  }

  private request(url: string, init: { method: string; headers?: Record<string, string>; body?: string }) {
    const client = url.startsWith("https:") ? https : http;
    return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      const req = client.request(url, { method: init.method, headers: init.headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", (error) =>
          reject(new TransientLabelSourceError(`${this.description}: ${error.message}`, { cause: error })),
        );
        res.on("end", () => {
          let body: unknown = null;
          try {
            body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
          } catch {
            // A body that is not JSON is judged with the status.
          }
          resolve({ status: res.statusCode ?? 0, body });
        });
      });
      req.setTimeout(this.timeoutMs, () => req.destroy(new TimeoutError(this.timeoutMs)));
      req.on("error", (error) => {
        const reason = error instanceof TimeoutError ? error.message : describe(error);
        reject(new TransientLabelSourceError(`${this.description}: ${reason}`, { cause: error }));
      });
      req.end(init.body);
    });
  }

  private failure(status: number, body: unknown): Error {
    const detail = isObject(body) && typeof body.error === "string" ? `: ${body.error}` : "";
    if (status >= 500) return new TransientLabelSourceError(`${this.description} answered ${status}${detail}`);
    if (status === 404) return this.unexpected(status, body);
    return new LabelHealingError(
      `${this.description} rejected the request with ${status}${detail}. Check LABELS_SERVICE_URL and that ` +
        `the service serves the pinned label set (${this.query.replace("&", ", ")}).`,
    );
  }

  private unexpected(status: number, body: unknown): Error {
    return new LabelHealingError(
      `${this.description} answered ${status} with a body that is not the label service's (${JSON.stringify(body)?.slice(0, 200)}); is LABELS_SERVICE_URL right?`,
    );
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

class TimeoutError extends Error {
  constructor(ms: number) {
    super(`timed out after ${ms} ms`);
  }
}

function describe(error: unknown): string {
  const e = error as { code?: string; message?: string };
  return e.code && !e.message?.includes(e.code) ? `${e.code} (${e.message})` : (e.message ?? String(error));
}
