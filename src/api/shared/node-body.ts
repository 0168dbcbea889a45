import { IncomingMessage } from "node:http";
import type { Context } from "hono";

/*
 * Request bodies read straight from Node.js's stream (Ponder's server is @hono/node-server), with a size limit checked
 * while the body arrives, not after buffering it. Shared by the GraphQL endpoints (/subgraph, /api/omnigraph).
 */

/** The Node.js request under @hono/node-server (Ponder's server), while its body is still unread. */
export function unreadNodeRequest(c: Context): IncomingMessage | undefined {
  const incoming = (c.env as { incoming?: unknown } | undefined)?.incoming;
  return incoming instanceof IncomingMessage && !incoming.readableDidRead && !incoming.complete ? incoming : undefined;
}

/**
 * Reads a Node.js request body as text, or undefined once it passes `maxBytes` (the rest is left unread). Reading
 * the stream directly spares @hono/node-server building a WHATWG Request (abort signal, web stream) per request.
 */
export function readNodeBody(incoming: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  if (Number(incoming.headers["content-length"]) > maxBytes) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      incoming.off("data", onData);
      incoming.off("end", onEnd);
      incoming.off("error", onError);
      incoming.off("close", onClose);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        incoming.pause();
        resolve(undefined);
      } else {
        chunks.push(chunk);
      }
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks, size).toString("utf8"));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onClose = () => {
      cleanup();
      reject(new Error("the client closed the connection before sending the whole body"));
    };
    incoming.on("data", onData);
    incoming.on("end", onEnd);
    incoming.on("error", onError);
    incoming.on("close", onClose);
  });
}

/**
 * After a body was refused as too large: reads the rest and throws it away, up to `discardLimit` bytes (then the
 * connection is destroyed). A client still writing its body then reads the 413 instead of a reset (closing at once
 * makes its next write fail with EPIPE before it sees the answer). Returns whether the connection stays usable
 * (false: the body announced is over the discard limit, so the answer should say `connection: close`).
 */
export function discardNodeBody(req: IncomingMessage, discardLimit: number): boolean {
  if (Number(req.headers["content-length"] ?? 0) > discardLimit) return false;
  let discarded = 0;
  req.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > discardLimit) req.socket.destroy();
  });
  req.resume();
  return true;
}
