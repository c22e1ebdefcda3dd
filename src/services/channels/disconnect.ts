// Disconnecting a messaging inbox from its platform: what connect registered with the platform is removed where the
// platform lets us (Telegram's webhook), then the channel is forgotten in one write, whatever the platform answered
// (docs/decisions.md, "Disconnecting a channel").
import { and, eq } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { inboxChannels } from "../../db/schema";
import { cannotOpen } from "../../lib/crypto";
import { logWarn } from "../../lib/log";
import { CHANNEL_FIELDS } from "./fields";
import { platformContext } from "./http";
import { adapterFor } from "./platforms";
import {
  configOf,
  forgetChannel,
  isChannelPlatform,
  messagingInbox,
  record,
  rowOf,
  type ChannelRecord,
  type ChannelRow,
} from "./settings";
import { PlatformError, type ChannelConfig, type ChannelPlatform } from "./types";

export interface Disconnected extends ChannelRecord, PlatformLeft {}

const NAMES: Record<ChannelPlatform, string> = {
  line: "LINE",
  telegram: "Telegram",
  messenger: "Messenger",
  instagram: "Instagram",
  whatsapp: "WhatsApp",
  slack: "Slack",
  email: "E-mail",
};

/** Where the platform keeps our webhook URL and nothing lets us remove it: what the business does in its dashboard. */
const LEFT_ON_PLATFORM: Record<ChannelPlatform, (config: ChannelConfig) => string> = {
  line: () => 'LINE keeps the webhook URL: turn off "Use webhook" in the LINE Developers Console (Messaging API tab).',
  telegram: () => "No bot token was stored, so Telegram was not asked to remove its webhook.",
  messenger: () => "Meta keeps the Callback URL: remove it, or unsubscribe the Page, in the app's Webhooks.",
  instagram: () => "Meta keeps the Callback URL: remove it, or unsubscribe the account, in the app's Webhooks.",
  whatsapp: () => "Meta keeps the Callback URL: remove it in the app's WhatsApp > Configuration.",
  slack: () => "Slack keeps the Request URL: turn off Event Subscriptions in the app's settings.",
  email: (config) => `Remove the rule for ${config.credentials.address ?? "the address"} in Cloudflare Email Routing.`,
};

/** What becomes of what the platform still sends. */
const REFUSED_MEANWHILE = "Whatever it still sends to this inbox is refused.";

/** What asking the platform to remove what connect registered there came to. */
export interface PlatformLeft {
  /** What was done, and what is left to do on the platform's side. */
  detail: string;
  /** The platform's refusal to remove what connect registered there, in its words; null when there was none. */
  platformRefusal: string | null;
}

/**
 * Asks the platform to remove what connect registered there for the channel `row` (its module's `disconnect`). A
 * refusal, an outage or secrets this deployment cannot open are said in the answer (`platformRefusal`), never thrown:
 * the business wants the channel off whatever the platform answers.
 */
export async function leavePlatform(env: Bindings, row: ChannelRow, platform: ChannelPlatform): Promise<PlatformLeft> {
  const name = NAMES[platform];
  const adapter = await adapterFor(platform);
  let config: ChannelConfig | null = null;
  let detail = "";
  let platformRefusal: string | null = null;
  try {
    config = await configOf(env, row);
  } catch (err) {
    if (!cannotOpen(err)) throw err;
    const why = `the stored secrets could not be opened (${String((err as Error).message ?? err)})`;
    // Said as a refusal only where the platform would have been asked: its webhook is still there.
    if (adapter.disconnect) platformRefusal = `${name} was not asked to remove its webhook: ${why}.`;
    detail = `Disconnected (${why}). ${REFUSED_MEANWHILE}`;
  }
  const complete = config && CHANNEL_FIELDS[platform].every((f) => f.optional || config.credentials[f.name]);
  if (config && adapter.disconnect && complete) {
    try {
      detail = `Disconnected. ${await adapter.disconnect(platformContext(env, config))}`;
    } catch (err) {
      if (!(err instanceof PlatformError)) throw err;
      platformRefusal = err.message;
      detail =
        `Disconnected here, but ${name} did not remove its webhook (${err.message}); remove it on ${name}'s ` +
        `side. ${REFUSED_MEANWHILE}`;
    }
  } else if (config) detail = `Disconnected. ${LEFT_ON_PLATFORM[platform](config)} ${REFUSED_MEANWHILE}`;
  return { detail, platformRefusal };
}

/**
 * Asks the platform to remove what connect registered there, then forgets the channel (`leavePlatform`). The answer
 * says what was left on the platform's side.
 */
export async function disconnectChannel(
  env: Bindings,
  db: Db,
  organizationId: string,
  inboxId: string,
  origin: string,
): Promise<Disconnected> {
  const inbox = await messagingInbox(db, organizationId, inboxId);
  const row = await rowOf(db, inbox.id);
  let left: PlatformLeft = {
    detail: "The channel was not set up: there was nothing to forget.",
    platformRefusal: null,
  };
  if (row && isChannelPlatform(row.channelType)) left = await leavePlatform(env, row, row.channelType);
  if (row) await forgetChannel(db, organizationId, inbox.id);
  return { ...record(origin, inbox.id, inbox.channelType, null, {}), ...left };
}

/**
 * Asks each platform of `rows`, channels whose rows are gone with what held them, as a disconnect does
 * (`leavePlatform`). What a platform refused or did not allow is logged (`message`, with `fields`), as nobody is left
 * to tell. Any other error is ours, not the platform's: the other platforms are still asked, then it is thrown.
 */
async function leavePlatforms(
  env: Bindings,
  rows: ChannelRow[],
  message: string,
  fields: Record<string, unknown>,
): Promise<void> {
  const errors: unknown[] = [];
  for (const row of rows) {
    if (!isChannelPlatform(row.channelType)) continue;
    try {
      const { platformRefusal } = await leavePlatform(env, row, row.channelType);
      if (platformRefusal) logWarn(message, { ...fields, inboxId: row.inboxId, platformRefusal });
    } catch (err) {
      errors.push(err);
    }
  }
  if (errors.length) throw errors[0];
}

/**
 * An organization being deleted takes its channels' rows with it, yet a Telegram bot's webhook kept pointing at us:
 * the bot went on sending what we refuse. Its channels are read before the delete; the answer, run once the rows are
 * gone (in the background, as the organization's stored files), asks each platform as a disconnect does.
 */
export async function organizationChannelsLeaving(
  env: Bindings,
  db: Db,
  organizationId: string,
): Promise<() => Promise<void>> {
  const rows = await db.select().from(inboxChannels).where(eq(inboxChannels.organizationId, organizationId));
  return () => leavePlatforms(env, rows, "a deleted organization's channel left on its platform", { organizationId });
}

/**
 * `organizationChannelsLeaving` for one inbox being deleted: its channel's row goes with it (ON DELETE CASCADE), and
 * the platform is asked once it is gone, the inbox's delete answered whatever the platform says.
 */
export async function inboxChannelLeaving(
  env: Bindings,
  db: Db,
  organizationId: string,
  inboxId: string,
): Promise<() => Promise<void>> {
  const rows = await db
    .select()
    .from(inboxChannels)
    .where(and(eq(inboxChannels.inboxId, inboxId), eq(inboxChannels.organizationId, organizationId)));
  return () => leavePlatforms(env, rows, "a deleted inbox's channel left on its platform", { organizationId });
}
