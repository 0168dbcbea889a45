import http from "node:http";
import { seededRandom } from "../../../harness/seeded-random";
import { type LabelsServer, startLabelsServer } from "../../../labels-service/src/index";
import { findFreePort } from "../../../scripts/lib/ports";

/*
 * The label service as the indexer sees it, on one fixed port, with a real label service behind it that can be
 * stopped and restarted. The front can go down (connections refused, in-flight requests cut), answer 503 "not ready"
 * or 500 on a share of requests, and return wrong labels for chosen labelhashes.
 */

export interface LabelFaultMix {
  /** Share of heal requests answered 503 (the service's "not ready"). */
  unavailable?: number;
  /** Share of heal requests answered 500. */
  error?: number;
  /** Labelhashes whose label comes back wrong (the label with "-wrong" appended). */
  corrupt?: (labelhash: string) => boolean;
}

export interface LabelServiceFront {
  url: string;
  /** Called with the running count before each heal request is answered; may take the front down (flap). */
  onHeal: ((count: number) => void) | undefined;
  counts(): { healRequests: number; unavailable: number; error: number; corrupted: number; flaps: number };
  /** Labelhash → true label of every label answered wrong. */
  corrupted: Map<string, string>;
  setFaults(mix: LabelFaultMix): void;
  /** Stops the service: the listener closes, open connections are cut; the real service behind restarts too. */
  down(): Promise<void>;
  /** Starts it again on the same port. */
  up(): Promise<void>;
  /** down(), wait `ms`, up(): one flap. */
  flap(ms: number): Promise<void>;
  isUp(): boolean;
  close(): Promise<void>;
}

export async function startLabelServiceFront(options: {
  dbPath: string;
  seed: number;
  port?: number;
}): Promise<LabelServiceFront> {
  const random = seededRandom(options.seed);
  let backend: LabelsServer | undefined = await startLabelsServer({
    dbPath: options.dbPath,
    port: 0,
    host: "127.0.0.1",
  });
  const backendPort = Number(new URL(backend.url).port);
  let mix: LabelFaultMix = {};
  const counts = { healRequests: 0, unavailable: 0, error: 0, corrupted: 0, flaps: 0 };
  const corrupted = new Map<string, string>();
  const wrong = (hash: string, label: unknown) => {
    if (typeof label !== "string" || !mix.corrupt?.(hash.toLowerCase())) return label;
    counts.corrupted += 1;
    corrupted.set(hash.toLowerCase(), label);
    return `${label}-wrong`;
  };
  let listening = false;

  const forward = async (req: http.IncomingMessage, body: Buffer) => {
    const res = await fetch(`${backend!.url}${req.url}`, {
      method: req.method,
      headers: { "content-type": req.headers["content-type"] ?? "application/json" },
      body: req.method === "GET" || req.method === "HEAD" ? undefined : new Uint8Array(body),
    });
    return { status: res.status, text: await res.text() };
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => {
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(typeof payload === "string" ? payload : JSON.stringify(payload));
    };
    const isHeal = req.url?.startsWith("/v1/heal") ?? false;
    if (isHeal) {
      counts.healRequests += 1;
      front.onHeal?.(counts.healRequests);
      if (!listening) {
        // The hook took the service down: this request dies with it.
        req.socket.destroy();
        return;
      }
      const r = random();
      if (r < (mix.unavailable ?? 0)) {
        counts.unavailable += 1;
        return send(503, { status: "error", error: "Label database is not ready: loading", errorCode: 503 });
      }
      if (r < (mix.unavailable ?? 0) + (mix.error ?? 0)) {
        counts.error += 1;
        return send(500, { status: "error", error: "Internal server error", errorCode: 500 });
      }
    }
    if (!backend) {
      req.socket.destroy();
      return;
    }
    const answer = await forward(req, body);
    if (!isHeal || answer.status !== 200 || !mix.corrupt) return send(answer.status, answer.text);
    const parsed = JSON.parse(answer.text) as { label?: unknown; labels?: Record<string, unknown> };
    if (req.method === "GET") {
      const hash = req.url!.split("?")[0]!.split("/").at(-1)!;
      parsed.label = wrong(hash, parsed.label);
    } else if (parsed.labels) {
      for (const [hash, label] of Object.entries(parsed.labels)) parsed.labels[hash] = wrong(hash, label);
    }
    send(200, parsed);
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => void handle(req, res, Buffer.concat(chunks)).catch(() => req.socket.destroy()));
    req.on("error", () => {});
    res.on("error", () => {});
  });
  const port = options.port ?? (await findFreePort());
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        listening = true;
        resolve();
      });
    });
  await listen();

  const front: LabelServiceFront = {
    url: `http://127.0.0.1:${port}`,
    onHeal: undefined,
    counts: () => ({ ...counts }),
    corrupted,
    setFaults(next) {
      mix = next;
    },
    async down() {
      if (!listening) return;
      listening = false;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await backend?.close();
      backend = undefined;
    },
    async up() {
      if (listening) return;
      backend = await startLabelsServer({ dbPath: options.dbPath, port: backendPort, host: "127.0.0.1" });
      await listen();
    },
    async flap(ms) {
      counts.flaps += 1;
      await front.down();
      await new Promise((r) => setTimeout(r, ms));
      await front.up();
    },
    isUp: () => listening,
    async close() {
      await front.down();
    },
  };
  return front;
}
