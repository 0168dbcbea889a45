import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { createLabelsApp } from "./app.js";
import { withFastHeal } from "./fast-heal.js";
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
  const getStore = () => handle.get();
  const app = createLabelsApp(getStore);
  const host = options.host ?? DEFAULT_HOST;
  const server = createServer(withFastHeal(getStore, getRequestListener(app.fetch)));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    // A deep accept queue: an indexer healing a batch of names may open hundreds of connections at once.
    server.listen({ port: options.port ?? DEFAULT_PORT, host, backlog: 4096 }, () => {
      server.off("error", reject);
      resolve();
    });
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
