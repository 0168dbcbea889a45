import { Hono } from "hono";

const app = new Hono();

export default app;
