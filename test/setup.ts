import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Runs before each test file; applying is idempotent (tracked in d1_migrations).
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
// Every organization shard (wrangler.toml's CONVERSATIONS_n), with its own migrations.
for (const shard of [env.CONVERSATIONS_1, env.CONVERSATIONS_2])
  await applyD1Migrations(shard, env.TEST_SHARD_MIGRATIONS);

// The conversation object's body is imported by its first call (durable-objects/conversation-entry.ts). The test
// runner loads modules over a connection only its own context may use, so a dynamic import made first inside a
// Durable Object never settles here (a known limit of the Workers test pool: cloudflare/workers-sdk#5387).
// Loaded now, the object's import finds it in the runner's cache; a deployed worker has it in its bundle.
await import("../durable-objects/conversation");
