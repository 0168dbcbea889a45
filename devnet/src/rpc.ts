/** A minimal JSON-RPC client over fetch, with batches: sending 200 transactions is one HTTP request. */
export class Rpc {
  private nextId = 1;
  constructor(readonly url: string) {}

  async call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    const [result] = await this.batch<T>([{ method, params }]);
    return result;
  }

  async batch<T = unknown>(calls: { method: string; params: unknown[] }[]): Promise<T[]> {
    if (calls.length === 0) return [];
    const body = calls.map((c) => ({ jsonrpc: "2.0", id: this.nextId++, method: c.method, params: c.params }));
    const res = await fetch(this.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${this.url}: HTTP ${res.status} ${await res.text()}`);
    const replies = (await res.json()) as { id: number; result?: T; error?: { message: string; data?: unknown } }[];
    const byId = new Map(replies.map((r) => [r.id, r]));
    return body.map((b, i) => {
      const reply = byId.get(b.id);
      if (!reply) throw new Error(`${calls[i].method}: no reply`);
      if (reply.error) {
        throw new Error(
          `${calls[i].method} failed: ${reply.error.message}${reply.error.data ? ` (${JSON.stringify(reply.error.data)})` : ""}`,
        );
      }
      return reply.result as T;
    });
  }
}
