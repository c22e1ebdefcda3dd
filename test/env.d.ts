import type { D1Migration } from "cloudflare:test";
import type { Bindings } from "../src/env";

declare global {
  namespace Cloudflare {
    interface Env extends Bindings {
      TEST_MIGRATIONS: D1Migration[];
      /** Base URL of the local OpenAI-compatible upstream started by test/support/global-setup.ts. */
      TEST_UPSTREAM_URL: string;
      /** Base URL of the local webhook receiver started by test/support/global-setup.ts. */
      TEST_RECEIVER_URL: string;
      /** Base URL of the local MCP server started by test/support/global-setup.ts. */
      TEST_MCP_URL: string;
    }
  }
}
