import { Agent, request as httpRequest } from "node:http";
import { seededRandom } from "../../../harness/seeded-random";

/*
 * Seeded hostile input for the fuzz tests: odd values, and requests built from them per route. Values are URL-ready
 * fragments (already percent-encoded where they must be), because the point is to send exactly these bytes: `fetch`
 * would normalize `../` and refuse lone surrogates, so requests go out through node:http with the path as given.
 */

export class Fuzz {
  readonly random: () => number;
  constructor(seed: number) {
    this.random = seededRandom(seed);
  }
  int(max: number): number {
    return Math.floor(this.random() * max);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  hex(digits: number, upper = false): string {
    let s = "";
    for (let i = 0; i < digits; i++) s += "0123456789abcdef"[this.int(16)];
    return upper ? s.toUpperCase() : s;
  }
  /** A well-formed 32-byte hash (lowercase), for requests that should pass validation. */
  hash(): string {
    return `0x${this.hex(64)}`;
  }
  address(): string {
    return `0x${this.hex(40)}`;
  }

  /** Hex that is wrong in one way or another (or, rarely, right in an unusual case). */
  oddHex(): { value: string; valid32: boolean; valid20: boolean } {
    const h = (n: number) => this.hex(n);
    const choices: [string, boolean, boolean][] = [
      [`0x${h(63)}`, false, false],
      [`0x${h(65)}`, false, false],
      [`0x${h(64)}`, true, false],
      [`0x${h(64).toUpperCase()}`, true, false],
      [`0X${h(64)}`, false, false],
      [h(64), false, false],
      [`0x${h(40)}`, false, true],
      [`0x${h(39)}`, false, false],
      [`0x${h(62)}zz`, false, false],
      [`0x`, false, false],
      [`0x${"0".repeat(64)}`, true, false],
      [`0x${"f".repeat(64)}`, true, false],
      [`0x${h(64)}%00`, false, false],
      [`%30x${h(64)}`, true, false], // "0x…" with its 0 percent-encoded: valid once decoded
      [`0x${h(32)}%20${h(31)}`, false, false],
      [`-0x${h(64)}`, false, false],
      [`0x${h(20000)}`, false, false],
      [`0x${h(64)}${h(64)}`, false, false],
      [`${"%F0%9F%98%80"}${h(60)}`, false, false],
    ];
    const [value, valid32, valid20] = this.pick(choices);
    return { value, valid32, valid20 };
  }

  /** Numbers clients should never send (and a few they may). `integer` says whether it is a plain safe integer ≥ 0. */
  oddNumber(): { value: string; nonNegativeSafeInt: boolean } {
    const choices: [string, boolean][] = [
      ["0", true],
      ["1", true],
      ["100", true],
      ["101", true],
      ["-1", false],
      ["-0", false],
      ["1.5", false],
      ["1e309", false],
      ["-1e309", false],
      ["1e21", false],
      ["9007199254740993", false],
      ["99999999999999999999999999999999999999", false],
      ["NaN", false],
      ["Infinity", false],
      ["0x10", false],
      ["1_000", false],
      ["+1", false],
      ["%201", false],
      ["1%00", false],
      ["", true], // empty means "not given" on these routes
      ["%D9%A3", false], // an Arabic-Indic digit
      ["abc", false],
      [`1${"0".repeat(5000)}`, false],
      ["true", false],
      ["[1]", false],
      ["%7B%22a%22%3A1%7D", false],
    ];
    const [value, nonNegativeSafeInt] = this.pick(choices);
    return { value, nonNegativeSafeInt };
  }

  /** Unicode, control and traversal strings, URL-ready. `plain` when it decodes to printable lowercase ASCII. */
  oddText(): string {
    const choices = [
      () => encodeURIComponent("עברית.eth"), // RTL
      () => encodeURIComponent("\u202Egnp.exe"), // RTL override
      () => encodeURIComponent("😀😀😀.eth"),
      () => encodeURIComponent("👨‍👩‍👧‍👦.eth"),
      () => "%00",
      () => "a%00b.eth",
      () => "%ED%A0%80", // a lone high surrogate, UTF-8-encoded (invalid UTF-8)
      () => "%ED%B0%80.eth", // a lone low surrogate
      () => "%C0%AF", // overlong "/"
      () => "%FF%FE",
      () => "%",
      () => "%zz",
      () => "%2",
      () => "..%2F..%2F..%2Fetc%2Fpasswd",
      () => "%2e%2e%2f%2e%2e%2f",
      () => "....%2F%2F",
      () => encodeURIComponent("Vitalik.ETH"),
      () => encodeURIComponent("a..eth"),
      () => encodeURIComponent(".eth"),
      () => encodeURIComponent(" "),
      () => encodeURIComponent("<script>alert(1)</script>"),
      () => encodeURIComponent("' OR 1=1 --"),
      () => encodeURIComponent('"; drop table domain; --'),
      () => encodeURIComponent("${jndi:ldap://x}"),
      () => encodeURIComponent("x".repeat(300) + ".eth"),
      () => encodeURIComponent("ß.eth"),
      () => encodeURIComponent("İ.eth"),
      () => encodeURIComponent("a\u0300.eth"),
      () => encodeURIComponent("\u200B.eth"),
      () => encodeURIComponent("[" + this.hex(64) + "].eth"),
      () => encodeURIComponent("alice.eth"),
      () => encodeURIComponent("vitalik.eth"),
      () => "",
    ];
    return this.pick(choices)();
  }

  /** A query string of `bytes` characters made of many repeated or junk parameters. */
  longQuery(bytes: number, names: readonly string[]): string {
    const parts: string[] = [];
    let length = 0;
    while (length < bytes) {
      const part = `${this.pick(names)}=${this.pick(["", "1", this.hex(8), "%00", "x".repeat(1000)])}`;
      parts.push(part);
      length += part.length + 1;
    }
    return parts.join("&");
  }

  /** Extra junk to append to a query string: repeated params, empty values, array syntax, nothing. */
  junkParams(names: readonly string[]): string {
    return this.pick([
      "",
      "",
      `&${this.pick(names)}=&${this.pick(names)}=`,
      `&${this.pick(names)}=1&${this.pick(names)}=2&${this.pick(names)}=3`,
      `&${this.pick(names)}[]=1&${this.pick(names)}[0]=2`,
      `&${this.pick(names)}`,
      `&=&&&=x`,
      `&__proto__=1&constructor=x`,
      `&${this.oddText()}=${this.oddText()}`,
    ]);
  }
}

export interface FuzzRequest {
  /** The route family, for the histogram. */
  route: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The input is invalid for a documented reason: the answer must be exactly this status (usually 400). */
  expectStatus?: number;
  /** A short description of what was sent, kept for failure messages. */
  what: string;
}

export interface FuzzResponse {
  status: number;
  body: string;
  contentType: string;
  ms: number;
}

/**
 * Sends one request exactly as built (raw path bytes, any method, any body); a socket error rejects. A reset of a
 * reused keep-alive socket before any answer is the race Node's documentation describes for `request.reusedSocket`
 * (the server closed the idle socket as the request went out): that request is sent once more, on a new socket.
 */
export async function send(base: string, req: FuzzRequest, agent: Agent, timeoutMs = 30_000): Promise<FuzzResponse> {
  try {
    return await sendOnce(base, req, agent, timeoutMs);
  } catch (error) {
    if (!(error as { reusedSocketReset?: boolean }).reusedSocketReset) throw error;
    return sendOnce(base, req, agent, timeoutMs);
  }
}

function sendOnce(base: string, req: FuzzRequest, agent: Agent, timeoutMs: number): Promise<FuzzResponse> {
  const url = new URL(base);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body !== undefined) headers["content-length"] = Buffer.byteLength(req.body);
    const r = httpRequest(
      { host: url.hostname, port: url.port, method: req.method, path: req.path, headers, agent, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString("utf8"),
            contentType: String(res.headers["content-type"] ?? ""),
            ms: performance.now() - started,
          }),
        );
        res.on("error", reject);
      },
    );
    r.on("timeout", () => r.destroy(new Error(`timed out after ${timeoutMs} ms`)));
    r.on("error", (error: NodeJS.ErrnoException) => {
      if (r.reusedSocket && error.code === "ECONNRESET") Object.assign(error, { reusedSocketReset: true });
      reject(error);
    });
    if (req.body !== undefined) r.write(req.body);
    r.end();
  });
}

/**
 * A keep-alive agent that drops an idle socket after 4 s, before the servers' 5 s keep-alive timeout (Node's default,
 * also Ponder's): reusing a socket the server is closing at that moment is a client-side race (ECONNRESET), not a
 * server failure. (undici, which the indexer's healer uses, does the same by default.)
 */
export function keepAliveAgent(maxSockets: number): Agent {
  return new Agent({ keepAlive: true, maxSockets, timeout: 4_000 });
}

/** Runs `requests` with at most `concurrency` in flight; returns each response (or the socket error) in order. */
export async function sendAll(
  base: string,
  requests: readonly FuzzRequest[],
  concurrency: number,
): Promise<(FuzzResponse | Error)[]> {
  const agent = keepAliveAgent(concurrency);
  const results: (FuzzResponse | Error)[] = new Array(requests.length);
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const i = next++;
      results[i] = await send(base, requests[i], agent).catch((e: Error) => e);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  return results;
}

/** Text that betrays an internal failure leaking to the client. */
const LEAK =
  /\n\s+at |node_modules|\/work\/|\.ts:\d+|TypeError|ReferenceError|SyntaxError: Unexpected|ECONNREFUSED|stack/;

/** Why a 4xx answer is not a clean client error (JSON, a message, no stack trace), or undefined when it is. */
export function badErrorBody(
  res: FuzzResponse,
  message: (body: Record<string, unknown>) => unknown,
): string | undefined {
  if (!res.contentType.includes("application/json")) return `content-type ${res.contentType || "(none)"}`;
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return `body is not JSON: ${res.body.slice(0, 120)}`;
  }
  if (body === null || typeof body !== "object") return `body is not an object: ${res.body.slice(0, 120)}`;
  const text = message(body as Record<string, unknown>);
  if (typeof text !== "string" || text.length === 0) return `no error message in ${res.body.slice(0, 200)}`;
  if (LEAK.test(res.body)) return `leaks internals: ${res.body.slice(0, 300)}`;
  return undefined;
}

/** Per-route status counts, e.g. `/api/name-tokens 200×31 400×410 404×12`. */
export class Histogram {
  private counts = new Map<string, Map<string, number>>();
  add(route: string, status: number | string): void {
    const byStatus = this.counts.get(route) ?? new Map<string, number>();
    byStatus.set(String(status), (byStatus.get(String(status)) ?? 0) + 1);
    this.counts.set(route, byStatus);
  }
  lines(): string[] {
    return [...this.counts.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([route, s]) =>
          `${route} ${[...s.entries()]
            .sort()
            .map(([k, v]) => `${k}×${v}`)
            .join(" ")}`,
      );
  }
}

/** Content types a client may wrongly send with a body. */
export const ODD_CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-16",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/graphql",
  "application/octet-stream",
  "",
];

/** JSON bodies of the wrong shape or type, and a few that are not JSON at all. */
export function oddBody(f: Fuzz, hugeBytes: number): string {
  return f.pick([
    () => "",
    () => "null",
    () => "123",
    () => '"0x' + f.hex(64) + '"',
    () => "{}",
    () => '{"a":',
    () => "[" + "[".repeat(5000) + "]".repeat(5000) + "]",
    () => JSON.stringify([1, 2, 3]),
    () => JSON.stringify([null]),
    () => JSON.stringify([{ labelhash: f.hash() }]),
    () => JSON.stringify(Array.from({ length: 1001 }, () => f.hash())),
    () => JSON.stringify(Array.from({ length: 50 }, () => f.oddHex().value)),
    () => JSON.stringify({ __proto__: { polluted: true }, constructor: { prototype: { x: 1 } } }),
    () => "\u0000\u0001\u0002",
    () => "\uFEFF[]",
    () => JSON.stringify(["x".repeat(hugeBytes)]),
    () => "[" + '"0x' + f.hex(64) + '",'.repeat(1) + "]",
  ])();
}

/** decodeURIComponent that gives up (undefined) where a server would keep the raw text. */
export function tryDecode(fragment: string): string | undefined {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return undefined;
  }
}
