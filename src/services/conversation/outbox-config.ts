// What a message's outboxes bind (the webhooks' and the channel's, channels/outbound.ts, webhooks/emit.ts,
// webhooks/conversation-events.ts): the inbox's configuration rows, read on the control plane before the batch, so
// the batch names the data plane's tables alone (docs/scale.md §5 step 4, "The worklist" 3 (10)-(12) and 4). Kept
// per isolate and forgotten on any write to the tables (db/write-watch.ts): a conversation in steady use reads them
// in the background, never on its way to the batch.
import { and, eq } from "drizzle-orm";
import { inboxChannels, inboxes, webhooks } from "../../db/schema";
import { tableCache } from "../../db/write-watch";
import type { Db } from "../../env";

/** An enabled webhook of the inbox, as the outboxes insert its deliveries. */
export interface OutboxWebhook {
  id: string;
  organizationId: string;
  inboxId: string;
  url: string;
  direction: string;
  conversationEvents: boolean;
}

/**
 * The inbox's enabled webhooks and its channel's organization (null: no channel); `platform`, its messaging
 * platform's name when it is a messaging inbox (null for a web chat's or the API's), connected or not.
 */
export interface OutboxConfig {
  webhooks: OutboxWebhook[];
  channel: { organizationId: string } | null;
  platform: string | null;
}

/** Inboxes whose messages no platform carries. */
const OWN_CHANNELS = new Set(["web", "api"]);

const configs = tableCache<OutboxConfig>([webhooks, inboxChannels, inboxes]);

/** The configuration the outboxes of a message of `inboxId` bind, from the control plane (`db`). */
export function outboxConfig(db: Db, inboxId: string): Promise<OutboxConfig> {
  return configs.remember(inboxId, async () => {
    const [hooks, channels, inbox] = await db.batch([
      db
        .select({
          id: webhooks.id,
          organizationId: webhooks.organizationId,
          inboxId: webhooks.inboxId,
          url: webhooks.url,
          direction: webhooks.direction,
          conversationEvents: webhooks.conversationEvents,
        })
        .from(webhooks)
        .where(and(eq(webhooks.inboxId, inboxId), eq(webhooks.isEnabled, true))),
      db
        .select({ organizationId: inboxChannels.organizationId })
        .from(inboxChannels)
        .where(eq(inboxChannels.inboxId, inboxId)),
      db.select({ channelType: inboxes.channelType }).from(inboxes).where(eq(inboxes.id, inboxId)),
    ]);
    const type = inbox[0]?.channelType;
    return { webhooks: hooks, channel: channels[0] ?? null, platform: type && !OWN_CHANNELS.has(type) ? type : null };
  });
}
