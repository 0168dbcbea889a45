import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { seededRandom } from "../../harness/seeded-random";
import { ingestLabels } from "../../labels-service/src/index";
import {
  DEFAULT_RETRY,
  HttpLabelSource,
  LabelHealer,
  LabelHealingError,
  SqliteLabelSource,
  TransientLabelSourceError,
} from "../../src/lib/healing";
import type { LabelSource } from "../../src/lib/healing/sources";
import { labelhashOf } from "../../src/lib/labels";

const VITALIK = labelhashOf("vitalik");
const UNKNOWN = labelhashOf("no-such-label-anywhere");
const quiet = { warn: () => {}, sleep: async () => {} };

/** A source answering from a map, failing transiently `failures` times first. */
function fakeSource(labels: Record<string, string>, failures = 0): LabelSource & { calls: number; batches: number } {
  const source = {
    description: "fake label source",
    calls: 0,
    batches: 0,
    maxBatch: 2,
    async lookup(hash: Hex) {
      source.calls++;
      if (failures > 0) {
        failures--;
        throw new TransientLabelSourceError("fake label source: ECONNREFUSED");
      }
      return labels[hash] ?? null;
    },
    async lookupMany(hashes: Hex[]) {
      source.batches++;
      return new Map(hashes.map((h) => [h, labels[h] ?? null] as const));
    },
  };
  return source;
}

/**
 * A label service that restarts as the full-size flapping test's front does: a request that arrives while another is
 * being answered takes it down, every request in flight is cut (ECONNRESET), and for `downMs` connections are refused.
 * On its own clock (setTimeout, so fake timers drive it).
 */
function restartingService(labels: Record<string, string>, answerMs = 20, downMs = 3_000) {
  let downUntil = Number.NEGATIVE_INFINITY;
  const inFlight = new Set<(error: Error) => void>();
  const source: LabelSource & { restarts: number; requests: number } = {
    description: "restarting label service",
    restarts: 0,
    requests: 0,
    maxBatch: 1000,
    lookup: async (hash: Hex) => (await source.lookupMany!([hash])).get(hash) ?? null,
    lookupMany(hashes: Hex[]) {
      source.requests++;
      if (Date.now() < downUntil) return Promise.reject(new TransientLabelSourceError("ECONNREFUSED"));
      if (inFlight.size > 0) {
        source.restarts++;
        downUntil = Date.now() + downMs;
        for (const cut of inFlight) cut(new TransientLabelSourceError("ECONNRESET"));
        inFlight.clear();
        return Promise.reject(new TransientLabelSourceError("ECONNRESET"));
      }
      return new Promise((resolve, reject) => {
        const cut = (error: Error) => {
          clearTimeout(timer);
          reject(error);
        };
        const timer = setTimeout(() => {
          inFlight.delete(cut);
          resolve(new Map(hashes.map((h) => [h, labels[h] ?? null] as const)));
        }, answerMs);
        inFlight.add(cut);
      });
    },
  };
  return source;
}

describe("LabelHealer", () => {
  it("returns the label when found and null when not, and caches both", async () => {
    const source = fakeSource({ [VITALIK]: "vitalik" });
    const healer = new LabelHealer({ source, ...quiet });
    expect(await healer.heal(VITALIK)).toBe("vitalik");
    expect(await healer.heal(VITALIK.toUpperCase().replace("0X", "0x") as Hex)).toBe("vitalik");
    expect(await healer.heal(UNKNOWN)).toBeNull();
    expect(await healer.heal(UNKNOWN)).toBeNull();
    expect(source.calls).toBe(2);
    expect(healer.metrics()).toMatchObject({
      calls: 4,
      cacheHits: 2,
      sourceRequests: 2,
      healed: 1,
      notFound: 1,
      retries: 0,
    });
    expect(healer.metrics().totalMs).toBeGreaterThanOrEqual(0);
  });

  it("treats a label whose hash differs from the asked one as not found, and says so", async () => {
    const warnings: string[] = [];
    const healer = new LabelHealer({
      source: fakeSource({ [VITALIK]: "vitalik2" }),
      sleep: async () => {},
      warn: (m) => warnings.push(m),
    });
    expect(await healer.heal(VITALIK)).toBeNull();
    expect(healer.metrics().mismatches).toBe(1);
    expect(warnings[0]).toContain("vitalik2");
  });

  it("retries transient failures with exponential backoff, each wait 50–100% of its step", async () => {
    for (const [random, expected] of [
      [0, [100, 200, 250]],
      [0.999, [50, 100, 125]],
    ] as const) {
      const delays: number[] = [];
      const healer = new LabelHealer({
        source: fakeSource({ [VITALIK]: "vitalik" }, 3),
        warn: () => {},
        sleep: async (ms) => void delays.push(ms),
        random: () => random,
        retry: { initialDelayMs: 100, maxDelayMs: 250, totalMs: 60_000 },
      });
      expect(await healer.heal(VITALIK)).toBe("vitalik");
      expect(delays).toEqual(expected);
      expect(healer.metrics().retries).toBe(3);
    }
  });

  it("stops with a loud error once the retry budget is spent", async () => {
    const healer = new LabelHealer({
      source: fakeSource({}, Number.POSITIVE_INFINITY),
      warn: () => {},
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      retry: { initialDelayMs: 10, maxDelayMs: 20, totalMs: 100 },
    });
    const error = await healer.heal(VITALIK).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LabelHealingError);
    expect((error as Error).message).toMatch(/^fake label source unreachable: \d+ attempts/);
  });

  it("spends the whole retry budget: the last wait is cut to end on it", async () => {
    let now = 0;
    const delays: number[] = [];
    const realNow = Date.now;
    Date.now = () => now;
    try {
      const healer = new LabelHealer({
        source: fakeSource({}, Number.POSITIVE_INFINITY),
        warn: () => {},
        sleep: async (ms) => {
          delays.push(ms);
          now += ms;
        },
        random: () => 0,
        retry: { initialDelayMs: 100, maxDelayMs: 400, totalMs: 1_000 },
      });
      await expect(healer.heal(VITALIK)).rejects.toThrow(/unreachable: 5 attempts over 1 s/);
    } finally {
      Date.now = realNow;
    }
    expect(delays).toEqual([100, 200, 400, 300]);
  });

  it("spreads the retries of requests a restart cut together, so they do not meet the next restart together", async () => {
    // The full-size labels-flapping test, at load: three batches cut by one restart retried at the same instants (250,
    // 500, 1000 ms, … then every 10 s) for 120 s; each time the second of them took the service down again and cut
    // the first, though the service was up 7 s of every 10. The default policy, several seeds: each batch gets through.
    vi.useFakeTimers();
    try {
      for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
        const hashes = ["a", "b", "c"].map((l) => labelhashOf(l));
        const source = restartingService(Object.fromEntries(hashes.map((h, i) => [h, "abc"[i]!])));
        const healer = new LabelHealer({ source, warn: () => {}, random: seededRandom(seed) });
        const batches = Promise.allSettled(hashes.map((h) => healer.healMany([h])));
        await vi.advanceTimersByTimeAsync(DEFAULT_RETRY.totalMs + 15_000);
        const outcome = (await batches).map((r) => (r.status === "fulfilled" ? [...r.value.values()][0] : r.reason));
        expect(outcome, `seed ${seed}, ${source.restarts} restarts`).toEqual(["a", "b", "c"]);
        expect(source.restarts, `seed ${seed}`).toBeGreaterThan(0);
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it("does not retry errors that are not transient", async () => {
    const source: LabelSource = {
      description: "bad source",
      lookup: async () => {
        throw new LabelHealingError("rejected");
      },
    };
    const healer = new LabelHealer({ source, ...quiet });
    await expect(healer.heal(VITALIK)).rejects.toThrow("rejected");
    expect(healer.metrics().retries).toBe(0);
  });

  it("shares one lookup between concurrent heals of the same hash", async () => {
    const source = fakeSource({ [VITALIK]: "vitalik" });
    const healer = new LabelHealer({ source, ...quiet });
    expect(await Promise.all([healer.heal(VITALIK), healer.heal(VITALIK)])).toEqual(["vitalik", "vitalik"]);
    expect(source.calls).toBe(1);
  });

  it("heals many with the batch lookup, in chunks, and fills the cache", async () => {
    const eth = labelhashOf("eth");
    const source = fakeSource({ [VITALIK]: "vitalik", [eth]: "eth" });
    const healer = new LabelHealer({ source, ...quiet });
    const out = await healer.healMany([VITALIK, eth, UNKNOWN, VITALIK]);
    expect(out.get(VITALIK)).toBe("vitalik");
    expect(out.get(eth)).toBe("eth");
    expect(out.get(UNKNOWN)).toBeNull();
    expect(source.batches).toBe(2); // maxBatch 2: three distinct hashes
    expect(await healer.heal(eth)).toBe("eth");
    expect(source.calls).toBe(0);
  });

  it("a heal of a hash in a batch being fetched waits for the batch instead of asking again", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const source = fakeSource({ [VITALIK]: "vitalik" });
    const slowBatch = source.lookupMany!.bind(source);
    source.lookupMany = async (hashes: Hex[]) => {
      await gate;
      return slowBatch(hashes);
    };
    const healer = new LabelHealer({ source, ...quiet });
    const batch = healer.healMany([VITALIK]);
    const single = healer.heal(VITALIK);
    release();
    expect(await single).toBe("vitalik");
    await batch;
    expect(source.calls).toBe(0);
    expect(healer.metrics().batchMs).toBeGreaterThan(0);
  });

  it("keeps the cache bounded", async () => {
    const source = fakeSource({});
    const healer = new LabelHealer({ source, cacheSize: 2, ...quiet });
    for (const l of ["a", "b", "c", "a"]) await healer.heal(labelhashOf(l));
    expect(source.calls).toBe(4); // "a" was evicted by "c"
  });
});

describe("HttpLabelSource", () => {
  let server: Server;
  let url: string;
  const requests: string[] = [];
  let mode: "ok" | "down" | "slow" | "foreign" = "ok";

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (mode === "down") return send(503, { status: "error", error: "not ready", errorCode: 503 });
      if (mode === "slow") return void setTimeout(() => send(200, {}), 500);
      if (mode === "foreign") return send(404, { message: "Not Found" });
      const u = new URL(req.url!, "http://x");
      if (u.searchParams.get("label_set_id") !== "demo")
        return send(400, { status: "error", error: "Label set ID mismatch", errorCode: 400 });
      if (req.method === "POST") {
        let body = "";
        req.on("data", (c) => (body += c));
        req.on("end", () => {
          const hashes = JSON.parse(body) as string[];
          send(200, {
            status: "success",
            labels: Object.fromEntries(hashes.map((h) => [h, h === VITALIK ? "vitalik" : null])),
          });
        });
        return;
      }
      const hash = u.pathname.split("/").pop();
      if (hash === VITALIK) return send(200, { status: "success", label: "vitalik" });
      return send(404, { status: "error", error: "Label not found", errorCode: 404 });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const address = server.address();
    url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const source = (labelSetId = "demo", timeoutMs = 2000) =>
    new HttpLabelSource({ url, labelSet: { labelSetId, labelSetVersion: 0 }, timeoutMs });

  it("heals over GET with the label set pinned, 404 meaning not found", async () => {
    mode = "ok";
    expect(await source().lookup(VITALIK)).toBe("vitalik");
    expect(await source().lookup(UNKNOWN)).toBeNull();
    expect(requests.at(-1)).toBe(`GET /v1/heal/${UNKNOWN}?label_set_id=demo&label_set_version=0`);
  });

  it("uses the batch endpoint", async () => {
    mode = "ok";
    const answers = await source().lookupMany([VITALIK, UNKNOWN]);
    expect(answers.get(VITALIK)).toBe("vitalik");
    expect(answers.get(UNKNOWN)).toBeNull();
    expect(requests.at(-1)).toBe("POST /v1/heal?label_set_id=demo&label_set_version=0");
  });

  it("reports 503, timeouts and refused connections as transient", async () => {
    mode = "down";
    await expect(source().lookup(VITALIK)).rejects.toBeInstanceOf(TransientLabelSourceError);
    mode = "slow";
    await expect(source("demo", 100).lookup(VITALIK)).rejects.toThrow(/timed out after 100 ms/);
    const closed = new HttpLabelSource({
      url: "http://127.0.0.1:9/",
      labelSet: { labelSetId: "demo", labelSetVersion: 0 },
    });
    await expect(closed.lookup(VITALIK)).rejects.toBeInstanceOf(TransientLabelSourceError);
  });

  it("stops on a rejected request or a 404 that is not the label service's", async () => {
    mode = "ok";
    const rejected = await source("subgraph")
      .lookup(VITALIK)
      .catch((e: unknown) => e);
    expect(rejected).toBeInstanceOf(LabelHealingError);
    expect((rejected as Error).message).toContain("rejected the request with 400: Label set ID mismatch");
    mode = "foreign";
    await expect(source().lookup(VITALIK)).rejects.toThrow(/not the label service's/);
  });

  it("with the healer: a service that stays down stops indexing with the service's URL in the message", async () => {
    mode = "down";
    const healer = new LabelHealer({
      source: source(),
      warn: () => {},
      retry: { initialDelayMs: 5, maxDelayMs: 10, totalMs: 50 },
    });
    await expect(healer.heal(VITALIK)).rejects.toThrow(`label service at ${url.replace(/\/$/, "")} unreachable`);
  });
});

describe("SqliteLabelSource", () => {
  let dir: string;
  let dbPath: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "nameindex-heal-"));
    dbPath = join(dir, "labels.sqlite");
    await ingestLabels({ dbPath, labels: ["vitalik", "nul\0byte"], labelSetId: "demo" });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads the label database directly, pinned to the label set", async () => {
    const source = new SqliteLabelSource(dbPath, { labelSetId: "demo", labelSetVersion: 0 });
    expect(await source.lookup(VITALIK)).toBe("vitalik");
    expect(await source.lookup(labelhashOf("nul\0byte"))).toBe("nul\0byte");
    expect(await source.lookup(UNKNOWN)).toBeNull();
  });

  it("stops on a label set the database does not hold", async () => {
    const source = new SqliteLabelSource(dbPath, { labelSetId: "subgraph", labelSetVersion: 0 });
    await expect(source.lookup(VITALIK)).rejects.toThrow(/Check LABELS_DB/);
    const newer = new SqliteLabelSource(dbPath, { labelSetId: "demo", labelSetVersion: 5 });
    await expect(newer.lookup(VITALIK)).rejects.toBeInstanceOf(LabelHealingError);
  });

  it("stops when the file cannot be opened", async () => {
    const source = new SqliteLabelSource(join(dir, "missing.sqlite"), { labelSetId: "demo", labelSetVersion: 0 });
    await expect(source.lookup(VITALIK)).rejects.toThrow(/Cannot open the label database/);
  });
});
