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

// The worker imports most of its modules on first use (docs/decisions.md, "Cold start"), each once per isolate
// (src/lib/lazy.ts). Bundled, that costs no I/O; in the Workers test pool every `import()` asks the pool's module
// service, and a second request importing the same module at the same time waits on the first one's I/O and resumes in
// that request's context: it then acts on behalf of the wrong request ("Cannot perform I/O on behalf of a different
// request", a queue event that cannot settle) or, should the first be cancelled, hangs (docs/decisions.md, "In the test
// pool"). So the test worker evaluates every module of src/ and loads every lazy one before any request, once per
// worker (later files find them loaded); then no request or queue event calls `import()` at all.
const sources = import.meta.glob(["../src/**/*.ts", "!../src/**/*.d.ts"]);
await Promise.all(Object.values(sources).map((load) => load()));
await (await import("../src/lib/lazy")).loadEveryLazy();
