import { Hono } from "hono";
import { getConfig } from "../../config";
import { fetchLabelServiceVersion } from "./label-service-version";
import { buildPublicConfig } from "./public-config";

/** GET /api/config: what this indexer indexes and with which versions. Never includes RPC URLs or credentials. */
export function configRoutes(): Hono {
  const app = new Hono();
  app.get("/", async (c) => {
    const config = getConfig();
    let labels;
    try {
      labels = await fetchLabelServiceVersion(config.labelsServiceUrl);
    } catch (error) {
      return c.json({ message: `Label service unavailable: ${(error as Error).message}` }, 503);
    }
    const publicApiUrl = config.publicApiUrl ?? new URL(c.req.url).origin;
    return c.json(buildPublicConfig(config, labels, publicApiUrl));
  });
  return app;
}
