/** A small JSON-RPC client that counts calls (the operator's bill) and sends many calls in one batch request. */
export class CountingRpc {
  calls = 0;
  constructor(readonly url: string) {}

  async call<T = unknown>(method: string, params: unknown[]): Promise<T> {
    const [result] = await this.batch<T>([{ method, params }]);
    return result as T;
  }

  async batch<T = unknown>(requests: { method: string; params: unknown[] }[]): Promise<T[]> {
    if (requests.length === 0) return [];
    this.calls += requests.length;
    const body = requests.map((r, id) => ({ jsonrpc: "2.0", id, method: r.method, params: r.params }));
    const res = await fetch(this.url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`RPC ${this.url} answered HTTP ${res.status}`);
    const answers = (await res.json()) as { id: number; result?: T; error?: { message: string } }[];
    const byId = new Map(answers.map((a) => [a.id, a]));
    return requests.map((r, id) => {
      const answer = byId.get(id);
      if (!answer || answer.error) throw new Error(`RPC ${r.method}: ${answer?.error?.message ?? "no answer"}`);
      return answer.result as T;
    });
  }
}

/** One client per chain, sharing one count. */
export class RpcPool {
  private readonly clients = new Map<number, CountingRpc>();
  constructor(private readonly urls: Map<number, string>) {}

  for(chainId: number): CountingRpc {
    let client = this.clients.get(chainId);
    if (!client) {
      const url = this.urls.get(chainId);
      if (!url) throw new Error(`no RPC URL for chain ${chainId}: set RPC_URL_${chainId}`);
      client = new CountingRpc(url);
      this.clients.set(chainId, client);
    }
    return client;
  }

  get calls(): number {
    return [...this.clients.values()].reduce((sum, c) => sum + c.calls, 0);
  }
}
