import { env } from "cloudflare:workers";
import type { ReceivedRequest } from "./webhook-receiver.mjs";

/** What the test receiver (webhook-receiver.mjs: webhooks, tool and file servers) got at `path`, oldest first. */
export const receivedAt = async (path: string): Promise<ReceivedRequest[]> =>
  (await fetch(`${env.TEST_RECEIVER_URL}/requests?path=${encodeURIComponent(path)}`)).json();
