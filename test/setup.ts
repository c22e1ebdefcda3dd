import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Runs before each test file; applying is idempotent (tracked in d1_migrations).
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
// Every organization shard (wrangler.toml's CONVERSATIONS_n), with its own migrations.
for (const shard of [env.CONVERSATIONS_1, env.CONVERSATIONS_2])
  await applyD1Migrations(shard, env.TEST_SHARD_MIGRATIONS);

// The conversation object's body is imported by the object (durable-objects/conversation-entry.ts), which the Workers
// test pool cannot serve inside a Durable Object: evaluated here, no object imports it.
await import("../durable-objects/conversation");
