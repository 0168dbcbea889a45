import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { subgraphPostFastPath } from "../../src/api/server/node-fast-path";
import { createSubgraphServer, QueryCache } from "../../src/api/subgraph";
import { nodeFastPathOf, withNodeFastPath } from "../../src/runtime/ponder-hooks";
import { type Harness, startHarness } from "./harness";

/*
 * /subgraph's POSTs are answered on Node.js's own request objects before Ponder's Hono app (src/api/server/node-fast-path.ts,
 * run by the patched Ponder server). Served the way that server serves it (the fast path first, the Hono app for
 * everything else), a client must not be able to tell the two apart: same status, body and headers for every kind of
 * POST, the documented 400/413 for bodies that are not GraphQL, no crash when a client leaves mid-body, and Ponder's
 * HTTP metrics still told about every answer.
 */

let h: Harness;
let hono: Hono;
let server: Server;
let url: string;
const recorded: { status: number; requestBytes: number; responseBytes: number }[] = [];

beforeAll(async () => {
  h = await startHarness(60);
  // A cache whose head never moves: the second ask of a query is a hit.
  const subgraph = createSubgraphServer({
    ...h.options,
    cache: new QueryCache({ maxBytes: 1 << 20, head: async () => "head" }),
  });
  hono = new Hono();
  hono.route("/subgraph", subgraph.app);
  const app = withNodeFastPath(
    hono,
    subgraphPostFastPath("/subgraph", subgraph, (status, requestBytes, responseBytes) =>
      recorded.push({ status, requestBytes, responseBytes }),
    ),
  );
  // As Ponder's patched server does (server/index.js): the fast path first, the Hono app when it declines.
  const fastPath = nodeFastPathOf(app)!;
  const honoListener = getRequestListener(app.fetch);
  server = createServer((req, res) => {
    if (!fastPath(req, res)) void honoListener(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  expect(h.internalErrors.map(String)).toEqual([]);
  await new Promise((resolve) => server.close(resolve));
  await h.close();
});

const QUERY =
  "query A { domains(first: 1) { id } } query B($n: String) { domains(where: { name: $n }) { name labelName } }";

async function postOver(path: string, body: string, contentType = "application/json") {
  const before = recorded.length;
  const res = await fetch(`${url}${path}`, { method: "POST", headers: { "content-type": contentType }, body });
  const text = await res.text();
  return { res, text, fastPath: recorded.length > before };
}

describe("POST /subgraph on the Node.js fast path", () => {
  it("answers exactly as the Hono route does, for every kind of POST", async () => {
    const bodies: [string, string][] = [
      [JSON.stringify({ query: QUERY, variables: { n: "eth" }, operationName: "B" }), "application/json"],
      [JSON.stringify({ query: "{ domains(first: 2, orderBy: name) { name } }" }), "application/json; charset=utf-8"],
      ["{ domains(first: 1, orderBy: name) { name } }", "application/graphql"],
      [JSON.stringify({ query: "{ nope }" }), "application/json"], // a GraphQL error: 200
      [JSON.stringify({ query: "" }), "application/json"], // no query: 400
      ["{not json", "application/json"], // 400
      ["[1, 2]", "application/json"], // 400
      [JSON.stringify({ query: "{ domains { id } }", variables: "not json" }), "application/json"], // 400
    ];
    for (const [body, contentType] of bodies) {
      for (const path of ["/subgraph", "/subgraph/"]) {
        const fast = await postOver(path, body, contentType);
        const viaHono = await hono.request(path, { method: "POST", headers: { "content-type": contentType }, body });
        const expected = await viaHono.text();
        expect({ path, body, fastPath: fast.fastPath, status: fast.res.status }).toEqual({
          path,
          body,
          fastPath: true,
          status: viaHono.status,
        });
        expect(JSON.parse(fast.text)).toEqual(JSON.parse(expected));
        expect(fast.res.headers.get("content-type")).toBe("application/json; charset=utf-8");
        expect(fast.res.headers.get("access-control-allow-origin")).toBe("*");
        expect(Number(fast.res.headers.get("content-length"))).toBe(Buffer.byteLength(fast.text));
      }
    }
    const first = await postOver(
      "/subgraph",
      JSON.stringify({ query: QUERY, variables: { n: "eth" }, operationName: "B" }),
    );
    expect(JSON.parse(first.text)).toEqual({ data: { domains: [{ name: "eth", labelName: "eth" }] } });
    expect(first.res.headers.get("x-subgraph-cache")).toBe("hit"); // asked above already
  });

  it("sends a cached answer's UTF-8 bytes whole, on the fast path and on the Hono route", async () => {
    // The cache keeps an answer as the bytes it sends: a name outside ASCII checks that count and those bytes.
    const id = h.rows.domain![7]!.id as string;
    const name = "ünïcødé-🙂.eth";
    await h.t.pool.query(`update "${h.t.schemaName}"."domain" set "name" = $1 where "id" = $2`, [name, id]);
    const body = JSON.stringify({ query: "query U($id: ID!) { domain(id: $id) { id name } }", variables: { id } });
    const miss = await postOver("/subgraph", body);
    const hit = await postOver("/subgraph", body);
    expect([miss.res.headers.get("x-subgraph-cache"), hit.res.headers.get("x-subgraph-cache")]).toEqual([
      "miss",
      "hit",
    ]);
    expect(JSON.parse(hit.text)).toEqual({ data: { domain: { id, name } } });
    expect(hit.text).toBe(miss.text);
    expect(Number(hit.res.headers.get("content-length"))).toBe(Buffer.byteLength(hit.text));
    const viaHono = await hono.request("/subgraph", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    expect(viaHono.headers.get("x-subgraph-cache")).toBe("hit");
    expect(await viaHono.text()).toBe(hit.text);
  });

  it("leaves GETs, preflights and POSTs with a query string to the Hono route", async () => {
    const q = encodeURIComponent("{ domains(first: 1, orderBy: name) { name } }");
    const before = recorded.length;
    const get = await fetch(`${url}/subgraph?query=${q}`);
    expect(get.status).toBe(200);
    const preflight = await fetch(`${url}/subgraph`, {
      method: "OPTIONS",
      headers: {
        origin: "https://app.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    const withQueryString = await fetch(`${url}/subgraph?x=1`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ domains(first: 1, orderBy: name) { name } }" }),
    });
    expect(await withQueryString.json()).toEqual(await get.json());
    expect(recorded.length).toBe(before);
  });

  it("tells the metrics recorder the status and sizes of each answer", async () => {
    const body = JSON.stringify({ query: "{ domains(first: 3, orderBy: name) { name } }" });
    const { text } = await postOver("/subgraph", body);
    expect(recorded.at(-1)).toEqual({
      status: 200,
      requestBytes: Buffer.byteLength(body),
      responseBytes: Buffer.byteLength(text),
    });
    await postOver("/subgraph", "{not json");
    expect(recorded.at(-1)?.status).toBe(400);
  });

  it("answers a body over the limit with 413: read and dropped when small enough, so the connection goes on", async () => {
    const small = JSON.stringify({ query: "{ domains(first: 1, orderBy: name) { name } }" });
    const next = `POST /subgraph HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${small.length}\r\n\r\n${small}`;
    const huge = JSON.stringify({ query: "{ domains { id } }", padding: "x".repeat(1 << 20) });
    const declared = `POST /subgraph HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${huge.length}\r\n\r\n${huge}`;
    // Chunked, no Content-Length: found out while reading.
    const chunked =
      "POST /subgraph HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" +
      [0, 1, 2, 3].map(() => `${(100 * 1024).toString(16)}\r\n${"x".repeat(100 * 1024)}\r\n`).join("") +
      "0\r\n\r\n";
    for (const oversized of [declared, chunked]) {
      // Both requests written at once: the client is still sending the first body when its 413 is ready.
      const answers = await rawExchange(oversized + next, 2);
      expect(answers).toHaveLength(2);
      expect(answers[0]).toMatch(/^HTTP\/1\.1 413/);
      expect(answers[0]).toMatch(/larger than/);
      expect(answers[1]).toMatch(/^HTTP\/1\.1 200/);
      expect(answers[1]).toContain('"domains"');
    }
  });

  it("answers 413 and closes at once when the declared body is too large to be worth reading", async () => {
    const answers = await rawExchange(
      `POST /subgraph HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${100 << 20}\r\n\r\n{"query":`,
      1,
    );
    expect(answers[0]).toMatch(/^HTTP\/1\.1 413/);
    expect(answers[0]?.toLowerCase()).toContain("connection: close");
  });

  it("survives a client that leaves in the middle of its body, and answers the next one", async () => {
    await new Promise<void>((resolve, reject) => {
      const socket = connect((server.address() as AddressInfo).port, "127.0.0.1", () => {
        socket.write(
          'POST /subgraph HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"query":',
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 50);
      });
      socket.on("error", reject);
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const next = await postOver(
      "/subgraph",
      JSON.stringify({ query: "{ domains(first: 1, orderBy: name) { name } }" }),
    );
    expect(next.res.status).toBe(200);
  });
});

/**
 * Writes raw bytes on a new connection and returns the first `count` HTTP responses the server sent back (each
 * split at its Content-Length), closing the connection then, or when the server closes it.
 */
function rawExchange(request: string, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const answers: string[] = [];
    const socket = connect((server.address() as AddressInfo).port, "127.0.0.1", () => socket.write(request));
    const done = () => {
      socket.destroy();
      resolve(answers);
    };
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      for (;;) {
        const headEnd = received.indexOf("\r\n\r\n");
        if (headEnd < 0) return;
        const head = received.subarray(0, headEnd).toString("latin1");
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (received.length < headEnd + 4 + length) return;
        answers.push(received.subarray(0, headEnd + 4 + length).toString("utf8"));
        received = received.subarray(headEnd + 4 + length);
        if (answers.length === count) return done();
      }
    });
    socket.on("close", () => resolve(answers));
    socket.on("error", (error: NodeJS.ErrnoException) =>
      error.code === "ECONNRESET" || error.code === "EPIPE" ? undefined : reject(error),
    );
    setTimeout(done, 10_000).unref();
  });
}
