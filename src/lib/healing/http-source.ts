import type { Hex } from "viem";
import { LabelHealingError, TransientLabelSourceError } from "./errors";
import type { LabelSetPin, LabelSource } from "./sources";

export interface HttpLabelSourceOptions {
  url: string;
  labelSet: LabelSetPin;
  /** Per-request timeout; a timeout counts as a transient failure. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** The label service over HTTP: `GET /v1/heal/:labelhash` and the batch `POST /v1/heal` (≤ 1000 hashes). */
export class HttpLabelSource implements LabelSource {
  readonly description: string;
  readonly maxBatch = 1000;
  private readonly base: string;
  private readonly query: string;
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;

  constructor(options: HttpLabelSourceOptions) {
    this.base = options.url.replace(/\/+$/, "");
    this.description = `label service at ${this.base}`;
    this.query = new URLSearchParams({
      label_set_id: options.labelSet.labelSetId,
      label_set_version: String(options.labelSet.labelSetVersion),
    }).toString();
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.fetchImpl = options.fetch ?? fetch;
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

  private async request(url: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
    let response: Response;
    try {
      response = await this.fetchImpl(url, { ...init, signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (error) {
      const reason = (error as Error)?.name === "TimeoutError" ? `timed out after ${this.timeoutMs} ms` : describe(error);
      throw new TransientLabelSourceError(`${this.description}: ${reason}`, { cause: error });
    }
    let body: unknown = null;
    try {
      body = await response.json();
    } catch {
      // A body that is not JSON is judged with the status below.
    }
    return { status: response.status, body };
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

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  if (cause?.code) return `${cause.code}${cause.message ? ` (${cause.message})` : ""}`;
  return (error as Error)?.message ?? String(error);
}
