// `{origin}/channels/{platform}/{inboxId}`: where messaging platforms send their events (CONTRACT
// section 17). No API key: each request is verified the platform's way (services/channels/inbound.ts).
// Outside /api and the OpenAPI document (it answers platforms, not API clients); docs/reference.md
// describes it.
import type { Context, Hono } from "hono";
import type { AppEnv } from "../env";
import { receive } from "../services/channels/inbound";

export function registerChannelWebhooks(app: Hono<AppEnv>) {
  const handle = (c: Context<AppEnv, "/channels/:platform/:inboxId">) =>
    receive(c.env, c.var.db, c.req.raw, c.req.param("platform"), c.req.param("inboxId"));
  app.get("/channels/:platform/:inboxId", handle);
  app.post("/channels/:platform/:inboxId", handle);
}
