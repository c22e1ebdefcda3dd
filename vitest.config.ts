import { readFile } from "node:fs/promises";
import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { buildAssets } from "./scripts/build-assets.mjs";

/** Need a database without users: the first administrator's bootstrap. */
const BOOTSTRAP_TESTS = ["test/services/bootstrap.test.ts", "test/services/bootstrap-sign-up.test.ts"];
/**
 * Run the housekeeping cron with its clock 91 days on, which would expire other files' rows in a shared database, and
 * move organizations between shards with the cron's clock minutes on.
 */
const FUTURE_CLOCK_TESTS = [
  "test/services/search-terms.test.ts",
  "test/services/shards.test.ts",
  "test/services/data-plane-move.test.ts",
];
/**
 * Move every organization's settled chatbot records to R2 and assert on all of D1; the backfill test compares D1's
 * records of months ago, which a move beside it (any housekeeping run) would take.
 */
const RECORD_MOVE_TESTS = [
  "test/routes/chatbot-records/moved-records.test.ts",
  "test/routes/tool-execution-records/moved-records.test.ts",
  "test/routes/statistics/backfill.test.ts",
];
/**
 * Not run with every organization in two parts (the "two-parts" project): they seed or read a conversation's rows in
 * the organization's own shard directly, as one part keeps them, or add parts themselves, or are of an organization
 * from before the shards (whose data plane, `DB`, has no parts).
 */
const ONE_PART_TESTS = [
  "test/durable-objects/conversation-store-before-shards.test.ts",
  "test/services/contact-copies.test.ts",
  "test/services/data-parts.test.ts",
  "test/services/data-plane.test.ts",
  "test/services/part-attachments.test.ts",
  "test/services/parts-merge.test.ts",
  "test/services/parts-sums.test.ts",
];
/**
 * Not run again in "two-parts": scenarios of a model or tool that fails, hangs or times out. Their conversations are
 * written and read through the API as every other file's, which two-parts runs; what they check is the provider's or
 * tool's fault and how the reply ends, the same with one part or two, and most of their time is the timeouts they
 * wait out (docs/decisions.md, "One organization over several parts").
 */
const FAULT_SCENARIOS = [
  "test/routes/completions/model-faults.test.ts",
  "test/routes/completions/fallback-model.test.ts",
  "test/routes/completions/fallback-model-agent.test.ts",
  "test/scenarios/tool-faults.test.ts",
];
/**
 * Compare the time in the ids the server makes with the clock: in a shared worker another file's ids made in the
 * future leave `uuidv7()`'s never-backwards clock ahead (src/lib/ids.ts).
 */
const ID_CLOCK_TESTS = ["test/services/part-added-while-written.test.ts"];
/**
 * Leave a request the runtime cancels as hung (a PostgreSQL connection to an unreachable address, checked in the
 * background): in a shared worker, three of five full runs had another file's queue event or request cancelled with
 * it (docs/decisions.md, "Cold start", "In the test pool").
 */
const HUNG_REQUEST_TESTS = ["test/routes/sql-databases/sql-databases.test.ts"];
/**
 * Not run again in the "two-parts" project: tests of what an organization owns as a whole, which create no
 * conversation, so every statement they make is the same with one part or two (docs/decisions.md, "One organization
 * over several parts"). test/support/no-conversation-guard.ts fails a file of these folders that creates one.
 */
const NO_CONVERSATION_FOLDERS = [
  "test/routes/auth/",
  "test/routes/batch-qas/",
  "test/routes/chat-completions/",
  "test/routes/chatbots/",
  "test/routes/groups/",
  "test/routes/knowledge-bases/",
  "test/routes/members/",
  "test/routes/models/",
  "test/routes/organizations/",
  "test/routes/sessions/",
  "test/routes/skills/",
  "test/routes/text-nodes/",
  "test/routes/web-chats/",
  "test/services/embeddings/",
  "test/services/llm/",
  "test/services/retrieval/",
  "test/services/tools/",
];
/** Each in a worker of its own (the "own-database" project). */
const OWN_WORKER_TESTS = [
  ...BOOTSTRAP_TESTS,
  ...FUTURE_CLOCK_TESTS,
  ...RECORD_MOVE_TESTS,
  ...ID_CLOCK_TESTS,
  ...HUNG_REQUEST_TESTS,
];
/** Tests in Node against `wrangler dev` (real Chromium, the README's commands), run by vitest.node.config.mjs. */
const NODE_TESTS = ["test/browser/**", "test/node/**"];
/** Bootstrap key of the test runs (test/services/bootstrap.test.ts). */
export const BOOTSTRAP_TEST_KEY = "ak_TestBootstrapKey0000000000000000000000000";

/**
 * wrangler.toml's queue consumers, each batch delivered as soon as a message waits (`max_batch_timeout` 0). Miniflare
 * honours a batch's timeout for real and sends a queue's next batch only after the one before, so each step of a file's
 * ingestion (and of a scoring, a dead letter) waited up to a second: 126 s of the knowledge files' time, 52 s without
 * (docs/decisions.md, "The test run in two stages"). Batch sizes and retries stay wrangler.toml's.
 */
function queuesAtOnce() {
  const consumers =
    unstable_getMiniflareWorkerOptions(path.join(import.meta.dirname, "wrangler.toml")).workerOptions.queueConsumers ??
    {};
  const entries = Array.isArray(consumers) ? consumers.map((queue) => [queue, {}] as const) : Object.entries(consumers);
  return Object.fromEntries(entries.map(([queue, options]) => [queue, { ...options, maxBatchTimeout: 0 }]));
}

/** `host:port` of a postgresql:// URL ("" for none). */
const postgresHost = (url: string) => (url ? new URL(url.replace(/^postgresql:/, "http:")).host : "");

/** The test Hyperdrive binding (wrangler.toml `[[hyperdrive]]` in a deployment): workerd's local Hyperdrive in front of
 * the test cluster. */
const TEST_HYPERDRIVE = "TEST_HYPERDRIVE";

/** What the shared workers do not run. */
const sharedExclude = [...configDefaults.exclude, ...OWN_WORKER_TESTS, ...NODE_TESTS];

/**
 * The MCP SDK ships source maps naming sources it does not ship, and Vite warns of each of its files (twenty lines a
 * run that say nothing of our code): its modules are loaded without the map comment. Other packages' maps still load.
 */
const withoutMissingSourceMaps = {
  name: "mcp-sdk-without-source-maps",
  enforce: "pre" as const,
  async load(id: string) {
    if (!id.includes("/node_modules/@modelcontextprotocol/sdk/") || !id.endsWith(".js")) return null;
    return (await readFile(id, "utf8")).replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n");
  },
};

export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  // The organization shards' own (CONVERSATIONS_n in wrangler.toml; test/setup.ts applies them to each).
  const shardMigrations = await readD1Migrations(path.join(import.meta.dirname, "migrations-shards"));
  // The worker's static files (the widget's script, the console), built into modules of src/vendor as
  // wrangler.toml's `[build]` does (scripts/build-assets.mjs): before any test.
  // Unless `npm test` (scripts/test.mjs) built them once for the runs it starts at once.
  if (!process.env.TEST_ASSETS_BUILT) await buildAssets({ quiet: true });
  return {
    plugins: [
      // A function, so values provided by the global setup (the local upstream's URL) become bindings.
      cloudflareTest(({ inject }) => ({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          // E-mail replies go through test/support/email-outbox.mjs, which keeps them for the tests
          // (TEST_EMAIL_OUTBOX.sent(to)) and hands them to Miniflare's own send_email binding.
          email: { send_email: [] },
          queueConsumers: queuesAtOnce(),
          serviceBindings: {
            EMAIL: { name: "email-outbox", entrypoint: "Outbox" },
            TEST_EMAIL_OUTBOX: { name: "email-outbox", entrypoint: "Outbox" },
          },
          workers: [
            {
              name: "email-outbox",
              modules: true,
              scriptPath: path.join(import.meta.dirname, "test/support/email-outbox.mjs"),
              compatibilityDate: "2026-11-01",
              email: {
                send_email: [
                  { name: "REAL" },
                  { name: "REFUSING", allowed_destination_addresses: ["nobody@example.invalid"] },
                ],
              },
            },
          ],
          // Only with a cluster: Miniflare refuses a binding without a valid connection string.
          // Our TCP-socket driver reaches it through the binding's host, as on Cloudflare.
          hyperdrives: {
            ...(inject<string>("postgresUrl")
              ? { [TEST_HYPERDRIVE]: `${inject<string>("postgresUrl")}?sslmode=disable` }
              : {}),
            // A MySQL configuration, which a postgresql database cannot use (never connected to).
            TEST_HYPERDRIVE_MYSQL: "mysql://user:password@127.0.0.1:1/shop?sslmode=disabled",
          },
          bindings: {
            TEST_MIGRATIONS: migrations,
            TEST_SHARD_MIGRATIONS: shardMigrations,
            ENCRYPTION_KEY: "test-encryption-key",
            // wrangler.toml keeps registration closed; the tests register users (as `npm run dev` lets a developer).
            REGISTRATION_ENABLED: "true",
            // A statement naming the other plane's tables fails (src/db/planes.ts): `DB` still holds the data plane's
            // tables for organizations from before the shards, so a statement sent there by mistake would otherwise
            // read or write them silently. `PLANE_GUARD=report npx vitest run` logs such statements ("[plane]").
            PLANE_GUARD: process.env.PLANE_GUARD ?? "both",
            // `READ_ANSWERS=report npx vitest run ...` logs each answer of the harness that differs from the OpenAPI
            // document ("[answer]"), `fail` fails its test; off by default (test/support/answers.ts).
            TEST_READ_ANSWERS: process.env.READ_ANSWERS ?? "",
            TEST_NO_CONVERSATION_FOLDERS: JSON.stringify(NO_CONVERSATION_FOLDERS),
            // Whatever a developer's .dev.vars configures, the tests start from the embedded defaults.
            PLANS: "",
            DEFAULT_PLAN: "",
            // The in-test MCP server (test/support/mcp-server.mjs) is on loopback too; on 127.0.0.1:19
            // (chargen) nothing listens: outbound errors name a refused connection (delivery-errors.test.ts).
            OUTBOUND_ALLOWED_HOSTS: [
              new URL(inject<string>("mcpServerUrl")).host,
              "127.0.0.1:19",
              ...Object.values(inject<Record<string, string>>("platformUrls")).map((u) => new URL(u).host),
            ].join(","),
            // The messaging platforms' stand-ins (test/support/platforms): LINE_API_ORIGIN, TELEGRAM_API_ORIGIN, ...
            ...inject<Record<string, string>>("platformSettings"),
            TEST_PLATFORM_URLS: JSON.stringify(inject<Record<string, string>>("platformUrls")),
            BOOTSTRAP_API_KEY: BOOTSTRAP_TEST_KEY,
            // A developer's .dev.vars has one (`npm run dev`); test/services/bootstrap.test.ts sets its own.
            BOOTSTRAP_PASSWORD: "",
            TEST_UPSTREAM_URL: inject<string>("upstreamUrl"),
            TEST_RECEIVER_URL: inject<string>("receiverUrl"),
            TEST_MCP_URL: inject<string>("mcpServerUrl"),
            // The receiver is on loopback, which SSRF protection refuses unless named here.
            // So is the throwaway PostgreSQL cluster (test/support/postgres-setup.ts), "" when none could be started.
            WEBHOOK_ALLOWED_HOSTS: [
              new URL(inject<string>("receiverUrl")).host,
              postgresHost(inject<string>("postgresUrl")),
            ]
              .filter(Boolean)
              .join(","),
            TEST_POSTGRES_URL: inject<string>("postgresUrl"),
            TEST_POSTGRES_UNAVAILABLE: inject<string>("postgresUnavailable"),
            TEST_POSTGRES_HOST: postgresHost(inject<string>("postgresUrl")),
            // Every organization may name the test binding as hyperdrive://TEST_HYPERDRIVE.
            SQL_HYPERDRIVE_BINDINGS: inject<string>("postgresUrl") ? TEST_HYPERDRIVE : "",
            WEBHOOK_TIMEOUT_MS: "1500",
            // api tool calls and function tools give up sooner than in production (30 s, 5 s).
            TOOL_TIMEOUT_MS: "1500",
            FUNCTION_TOOL_TIMEOUT_MS: "1000",
            // A model that never answers fails within 5 s (production: 60 s), and retries of a 429
            // wait at most 20 ms whatever Retry-After says (test/services/llm/retries.test.ts
            // checks the real waits with its own clock).
            MODEL_TIMEOUT_MS: "5000",
            MODEL_RETRY_MAX_DELAY_MS: "20",
          },
        },
      })),
      withoutMissingSourceMaps,
    ],
    test: {
      setupFiles: ["./test/setup.ts"],
      // Starts the local OpenAI-compatible upstream (test/support/openai-upstream.mjs) in Node.
      globalSetup: ["./test/support/global-setup.ts", "./test/support/postgres-setup.ts"],
      // The worker's one log line per request (src/middleware/request-log.ts) would bury the output
      // of a run; test/conventions/request-log.test.ts reads those lines itself.
      onConsoleLog: (log) => !/^\{"level":"\w+","message":"request",/.test(log),
      testTimeout: 30_000,
      hookTimeout: 30_000,
      // Two workers, each a Miniflare of its own (its own D1, R2 and objects): vitest's default on two cores is one
      // (cores - 1), and most of a file's time is waiting (on timeouts it provokes, the model stand-in, queues), so two
      // overlap on two cores: 1,165 s for the three projects with one, 653 s with two (docs/decisions.md, "The Workers
      // test suite, two workers").
      maxWorkers: 2,
      // Test files share workers (and so the local D1, R2 and objects): every test seeds its own
      // organization, and starting a worker per file cost ~1.2 s each, over 150 s of a run. The
      // bootstrap tests need a database without users, and the search terms' test moves the cron's
      // clock months on: each runs in a worker of its own. "two-parts" runs the shared tests again with every
      // organization's data plane in two parts (test/support/two-parts-setup.ts; docs/decisions.md, "One organization
      // over several parts").
      projects: [
        {
          extends: true,
          test: {
            name: "shared",
            isolate: false,
            setupFiles: ["./test/support/no-conversation-guard.ts"],
            exclude: sharedExclude,
          },
        },
        {
          extends: true,
          test: {
            name: "own-database",
            include: OWN_WORKER_TESTS,
          },
        },
        {
          extends: true,
          test: {
            name: "two-parts",
            isolate: false,
            setupFiles: ["./test/support/two-parts-setup.ts"],
            exclude: [
              ...sharedExclude,
              ...ONE_PART_TESTS,
              ...FAULT_SCENARIOS,
              ...NO_CONVERSATION_FOLDERS.map((folder) => `${folder}**`),
            ],
          },
        },
      ],
    },
  };
});
