import { db, publicClients } from "ponder:api";
import { Hono } from "hono";
import { createSubgraphApp } from "./subgraph";

const app = new Hono();

app.route("/subgraph", createSubgraphApp({ db, publicClients }));

export default app;
