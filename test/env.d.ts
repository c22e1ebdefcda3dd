import type { D1Migration } from "cloudflare:test";
import type { Bindings } from "../src/env";

declare global {
  namespace Cloudflare {
    interface Env extends Bindings {
      TEST_MIGRATIONS: D1Migration[];
      /** The organization shards' migrations (migrations-shards/). */
      TEST_SHARD_MIGRATIONS: D1Migration[];
      /** Base URL of the local OpenAI-compatible upstream started by test/support/global-setup.ts. */
      TEST_UPSTREAM_URL: string;
      /** Base URL of the local webhook receiver started by test/support/global-setup.ts. */
      TEST_RECEIVER_URL: string;
      /** Base URL of the local MCP server started by test/support/global-setup.ts. */
      TEST_MCP_URL: string;
      /** The messaging platforms' stand-ins by name (test/support/platforms/index.mjs), JSON. */
      TEST_PLATFORM_URLS: string;
      /** `READ_ANSWERS` of the run: "report" or "fail" reads every answer of the harness against the OpenAPI
       * document (test/support/answers.ts); "" (the default) does not. */
      TEST_READ_ANSWERS: "" | "report" | "fail";
      /** The folders whose tests the "two-parts" project leaves out (vitest.config.ts), JSON. */
      TEST_NO_CONVERSATION_FOLDERS: string;
      /** What the EMAIL binding was given to send, by recipient (test/support/email-outbox.mjs). */
      TEST_EMAIL_OUTBOX: Service & {
        sent(to?: string): Promise<{ from: string; to: string; raw: string; messageId: string }[]>;
      };
      /** The throwaway PostgreSQL cluster (test/support/postgres-setup.ts), "" when none could be started; its
       * host:port; why not. */
      TEST_POSTGRES_URL: string;
      TEST_POSTGRES_HOST: string;
      TEST_POSTGRES_UNAVAILABLE: string;
      /** Local Hyperdrive in front of that cluster (vitest.config.ts), absent without one. */
      TEST_HYPERDRIVE?: Hyperdrive;
      /** A Hyperdrive binding for a MySQL origin, which postgresql databases refuse. */
      TEST_HYPERDRIVE_MYSQL: Hyperdrive;
    }
  }
}
