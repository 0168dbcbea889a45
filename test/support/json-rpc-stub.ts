import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface JsonRpcRequest {
  id: number;
  method: string;
  params: unknown[];
}

export type JsonRpcAnswer = { result: unknown } | { error: { code: number; message: string } };

/**
 * A loopback JSON-RPC server (one request per POST) that answers each request with `answer(request, headers)`.
 */
export async function startJsonRpcStub(
  answer: (request: JsonRpcRequest, headers: IncomingHttpHeaders) => JsonRpcAnswer,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const request = JSON.parse(body) as JsonRpcRequest;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: request.id, ...answer(request, req.headers) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
