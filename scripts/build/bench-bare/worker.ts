import { Hono } from "hono";

/** The bench's yardstick: a bare Hono JSON route on the same runtime, nothing else. */
const app = new Hono();
app.get("/", (c) => c.json({ status: "ok" }));

export default app;
