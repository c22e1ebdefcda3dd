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
// and another request awaiting the same import resumes in that request's context: it then acts on behalf of the wrong
// request ("Cannot perform I/O on behalf of a different request", a queue event that cannot settle) or, should the
// first be cancelled, hangs (the runtime cancels it as hung). So the test worker imports them all here, before any
// request does; once per worker (later files find them loaded): every module of src/, the libraries uploaded as
// modules of their own (src/vendored.ts), the front ends the worker serves, the tools' interpreter, and the runtime's
// modules imported on first use.
const sources = import.meta.glob(["../src/**/*.ts", "!../src/**/*.d.ts"]);
await Promise.all(Object.values(sources).map((load) => load()));
const { routesFor } = await import("../src/routes");
const { vendored, staticFiles } = await import("../src/vendored");
const { quickJs } = await import("../src/services/tools/sandbox");
const built = (await import("../src/vendor/manifest.json")).default;
await Promise.all([
  routesFor(),
  ...Object.keys(built).map((name) => vendored(name as keyof typeof built)),
  ...(["widget", "console", "api-docs"] as const).map((front) => staticFiles(front)),
  quickJs(),
  // The runtime's own modules src/ imports on first use (the pool's module runner resolves these too).
  import("cloudflare:sockets"),
  import("node:events"),
  import("node:stream"),
]);
