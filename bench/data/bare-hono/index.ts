// The floor for `npm run bench -- startup`: a bare Hono worker, built by the same wrangler as ours.
import { Hono } from "hono";

const app = new Hono();
app.get("/", (c) => c.text("ok"));

export default app;
