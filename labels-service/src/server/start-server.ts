import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { serve } from "@hono/node-server";
import { createLabelsApp } from "./app.js";
import { StoreHandle } from "./store-handle.js";

export const DEFAULT_PORT = 3223;
export const DEFAULT_HOST = "127.0.0.1";

export interface StartLabelsServerOptions {
  dbPath: string;
  /** 0 picks a free port. Default 3223. */
  port?: number;
  /** Default 127.0.0.1: the service has no authentication, so it is not exposed unless asked. */
  host?: string;
}

export interface LabelsServer {
  url: string;
  close(): Promise<void>;
}

/** Starts the HTTP service. It answers /health at once and 503 on heal/count until the database is ready. */
export async function startLabelsServer(options: StartLabelsServerOptions): Promise<LabelsServer> {
  const handle = new StoreHandle(options.dbPath);
  const app = createLabelsApp(() => handle.get());
  const host = options.host ?? DEFAULT_HOST;
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: options.port ?? DEFAULT_PORT, hostname: host }) as Server;
    s.once("listening", () => resolve(s));
    s.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          handle.close();
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}
