import http from "node:http";

/*
 * The HTTP server under the project's JSON-RPC stand-ins: the hosted-provider imitation and the prehistory layer
 * (harness/hosted-rpc, harness/mainnet-chains) and the reliability tests' fault proxy. Each binds 127.0.0.1 on a port the OS picks, reads a
 * request's body whole before its handler runs, and on close drops the connections a client keeps alive, so a test's
 * teardown never waits for them.
 */

/** Answers one request whose body has been read whole. */
export type LoopbackHandler = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => Promise<void>;

export interface LoopbackServerOptions {
  /** How long an idle kept-alive connection stays open (Node's default is 5 s). */
  keepAliveTimeoutMs?: number;
  /** What a handler's rejection turns into; by default the connection is dropped, as a crashed server's would be. */
  onError?: (error: unknown, req: http.IncomingMessage, res: http.ServerResponse) => void;
}

export interface LoopbackServer {
  url: string;
  close(): Promise<void>;
}

export async function startLoopbackServer(
  handle: LoopbackHandler,
  options: LoopbackServerOptions = {},
): Promise<LoopbackServer> {
  const onError = options.onError ?? ((_error, req) => req.socket.destroy());
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      handle(req, res, Buffer.concat(chunks)).catch((error: unknown) => onError(error, req, res));
    });
    // A client that resets its connection must not crash the process that serves it.
    req.on("error", () => {});
    res.on("error", () => {});
  });
  server.keepAliveTimeout = options.keepAliveTimeoutMs ?? 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
