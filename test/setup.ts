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

// The worker imports most of its modules on first use (docs/decisions.md, "Cold start"). Bundled, that costs no I/O;
// in the Workers test pool a module is fetched from the pool's module service by the first request that imports it,
// and another request awaiting the same import waits on that request's I/O: should the first be cancelled, every later
// one hangs (the runtime then cancels them as hung, and a whole file's queue events or routes fail). So the test
// worker imports them here, before any request does; once per worker (later files find them loaded).
const { routesFor } = await import("../src/routes");
await routesFor();
await Promise.all([
  import("../src/queues"),
  import("../src/services/channels/email-handler"),
  import("../src/services/conversation/search-terms"),
  import("../src/services/housekeeping"),
  import("../src/services/llm/local"),
  import("../src/services/sql/validate"),
  import("../src/routes/mcp-server/serve"),
  import("../src/services/mcp/sdk"),
  import("../src/services/parsing/pdf"),
  import("../src/services/parsing/docx"),
  import("../src/services/parsing/html"),
  import("../src/services/parsing/csv"),
]);
