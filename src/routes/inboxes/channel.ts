// A messaging inbox's connection to its platform (CONTRACT section 17).
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import type { Router } from "../../lib/openapi";
import { IdParams, Timestamp, errorResponses, json, jsonBody } from "../../lib/openapi";
import { currentAccess, requirePermission } from "../../services/access";
import type { Permission } from "../../services/permissions";
import { connectChannel, getChannel, saveChannel } from "../../services/channels/settings";
import { disconnectChannel } from "../../services/channels/disconnect";
import { CHANNEL_FIELDS } from "../../services/channels/fields";
import { WEBHOOK_REFUSALS } from "../../services/channels/verification";
import { INBOXES_TAG } from "./schema";

const FIELDS = [...new Map(Object.values(CHANNEL_FIELDS).flatMap((fields) => fields.map((f) => [f.name, f]))).values()];

/** What each credential is and what it is for (test/conventions/openapi-descriptions.test.ts fails on one left out). */
const FIELD_DESCRIPTIONS: Record<string, string> = {
  channelId: "LINE: the Messaging API channel's id (LINE Developers console, Basic settings); stored as given",
  channelSecret: "LINE: the channel secret, which checks the signature of each event LINE sends",
  channelAccessToken: "LINE: the channel access token, with which replies are sent",
  botToken:
    "Telegram: the bot's token from @BotFather, used to reply and to set the webhook on connect. Slack: the bot " +
    "token (xoxb-...), used to reply and to read profiles",
  pageId: "Messenger: the Facebook Page's id; replies are sent as this Page",
  pageAccessToken: "Messenger, Instagram: the Page access token, with which replies are sent",
  appSecret: "Messenger, Instagram, WhatsApp: the Meta app's secret, which checks the signature of each event",
  instagramAccountId: "Instagram: the Instagram professional account's id; replies are sent as this account",
  phoneNumberId:
    "WhatsApp: the business phone number's id; replies are sent from it, and events for other numbers are ignored",
  businessAccountId: "WhatsApp: the WhatsApp Business Account's id, which connect subscribes the app to",
  accessToken: "WhatsApp: the access token with which replies are sent",
  signingSecret: "Slack: the app's signing secret, which checks the signature of each event Slack sends",
  address:
    "E-mail: the inbox's address; mail Email Routing sends to it arrives in this inbox, and replies are sent from it",
  fromName:
    "E-mail: the sender name on replies; empty: the name of the reply's sender (the assistant or a team member)",
};
const described = ({ name, secret }: (typeof FIELDS)[number]) =>
  FIELD_DESCRIPTIONS[name] && FIELD_DESCRIPTIONS[name] + (secret ? ". Secret: stored encrypted, masked when read" : "");
/** A field as the descriptions name it: "botToken (secret)", "fromName (optional)". */
const named = (f: (typeof FIELDS)[number]) => f.name + (f.secret ? " (secret)" : f.optional ? " (optional)" : "");
const byPlatform = Object.entries(CHANNEL_FIELDS)
  .map(([platform, fields]) => `${platform} {${fields.map(named).join(", ")}}`)
  .join("; ");

const ChannelSchema = z
  .object({
    inboxId: z.string().openapi({ description: "The inbox's id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    channelType: z.string().openapi({ description: "The inbox's platform", example: "telegram" }),
    credentials: z.record(z.string(), z.union([z.string(), z.null()])).openapi({
      description: `The platform's fields, secret ones masked (\`…wxyz\`), null when not set: ${byPlatform}`,
      example: { botToken: "…wxyz" },
    }),
    webhookUrl: z.string().openapi({
      description:
        "Where the platform sends its events: paste it into the platform's settings (Telegram's is set on connect)",
      example: "https://assistants.example.com/channels/telegram/0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d",
    }),
    verifyToken: z.union([z.string(), z.null()]).openapi({
      description:
        "Messenger, Instagram, WhatsApp: the verify token to paste beside the webhook URL; null for other platforms",
      example: null,
    }),
    status: z.enum(["not_connected", "connected", "failing"]).openapi({
      description:
        "`connected` once the platform accepted the credentials (connect); `failing` when it refused them or a reply",
      example: "connected",
    }),
    lastError: z
      .union([z.string(), z.null()])
      .openapi({ description: "The platform's last refusal, in its words", example: null }),
    lastEventAt: z.union([Timestamp, z.null()]).openapi({ description: "When the platform last sent an event" }),
    webhookVerifiedAt: z.union([Timestamp, z.null()]).openapi({
      description:
        "When the platform last verified the webhook URL with this inbox: Meta's subscription check (a GET with the " +
        "verify token, sent when the Callback URL is saved in the app's Webhooks) or Slack's signed " +
        "`url_verification` (sent when the Request URL is saved under Event Subscriptions). Null before the first " +
        "and for platforms that check no URL (LINE, Telegram, e-mail)",
      example: "1767225600000",
    }),
    webhookRefusal: z
      .union([
        z
          .object({
            at: Timestamp.openapi({ description: "When the refused check came" }),
            reason: z.enum(WEBHOOK_REFUSALS).openapi({
              description:
                "`wrong_verify_token`: Meta's `hub.verify_token` is not this channel's `verifyToken` (answered 403); " +
                "`bad_signature`: Slack's `url_verification` is not signed with this channel's `signingSecret` " +
                "(answered 401)",
              example: "wrong_verify_token",
            }),
            detail: z.string().openapi({
              description: "What to do about it, in the words of the platform's dashboard",
              example:
                "Meta sent a hub.verify_token that is not this channel's verify token: paste the verify token shown " +
                "here into the app's Webhooks (Verify token, beside the Callback URL) and press Verify and save again.",
            }),
          })
          .openapi("WebhookRefusal"),
        z.null(),
      ])
      .openapi({
        description:
          "The platform's last check of the webhook URL that was refused, since the last one that passed (a check " +
          "that passes clears it); null when none. Refusals closer together than 10 s keep the first one's time",
        example: null,
      }),
    updatedAt: z
      .union([Timestamp, z.null()])
      .openapi({ description: "Last change of the settings; null before the first" }),
  })
  .openapi("Channel");

const ChannelWrite = z
  .object(
    Object.fromEntries(
      FIELDS.map((f) => [
        f.name,
        z
          .string()
          .trim()
          .max(4096)
          .optional()
          .openapi({ description: described(f) }),
      ]),
    ) as Record<string, z.ZodOptional<z.ZodString>>,
  )
  .strict()
  .openapi("ChannelWrite", {
    description:
      `The inbox platform's fields (others are 400): ${byPlatform}. A field left out keeps its value; "" clears ` +
      `it. Quotes pasted around a value are dropped; a value other than fromName with a space inside is 400. ` +
      `Changing any makes the channel not_connected until connected again.`,
    example: { botToken: "123456789:AAH-example-token" },
  });

const path = "/inboxes/{id}/channel/";

/**
 * What each channel route needs of the request: the caller's organization, once `permission` is checked there, and
 * the origin the platform's webhook URLs are built on.
 */
async function channelCaller(c: Context<AppEnv>, permission: Permission) {
  const access = await currentAccess(c);
  requirePermission(access, permission);
  return { organizationId: access.organizationId, origin: new URL(c.req.url).origin };
}

export const registerChannelRoutes = (r: Router) => {
  r.openapi(
    createRoute({
      method: "get",
      path,
      tags: [INBOXES_TAG],
      summary: "Get a messaging inbox's channel settings",
      description:
        "Needs `inbox.view`. Secrets are masked. A `web` or `api` inbox has none (400 `not_a_messaging_inbox`).",
      request: { params: IdParams },
      responses: { 200: json(ChannelSchema, "The channel"), ...errorResponses(400, 403, 404) },
    }),
    async (c) => {
      const { organizationId, origin } = await channelCaller(c, "inbox.view");
      return c.json(await getChannel(c.env, c.var.db, organizationId, c.req.valid("param").id, origin), 200);
    },
  );
  r.openapi(
    createRoute({
      method: "put",
      path,
      tags: [INBOXES_TAG],
      summary: "Save a messaging inbox's channel settings",
      description:
        "Needs `inbox.manage`. Secrets are encrypted at rest (`ENCRYPTION_KEY`). Then connect (`channel/connect/`).",
      request: { params: IdParams, ...jsonBody(ChannelWrite) },
      responses: { 200: json(ChannelSchema, "The channel"), ...errorResponses(400, 403, 404) },
    }),
    async (c) => {
      const { organizationId, origin } = await channelCaller(c, "inbox.manage");
      const body = c.req.valid("json") as Record<string, string | undefined>;
      return c.json(await saveChannel(c.env, c.var.db, organizationId, c.req.valid("param").id, origin, body), 200);
    },
  );
  r.openapi(
    createRoute({
      method: "delete",
      path,
      tags: [INBOXES_TAG],
      summary: "Disconnect a messaging inbox from its platform",
      description:
        "Needs `inbox.manage`. Forgets every credential (secrets included), the webhook's secret and the verify " +
        "token; `status` becomes `not_connected`. Telegram is first asked to remove the webhook connect set (when " +
        "it still points at this inbox); should it refuse or be out of reach, the channel is disconnected all the " +
        "same and `platformRefusal` says so. What the platform still sends to `webhookUrl` is then refused (404, " +
        "as for an inbox never connected), mail to the address is rejected, and replies still queued fail. The " +
        "inbox, its contacts and conversations stay; saving and connecting again starts afresh. A `web` or `api` " +
        "inbox is 400 `not_a_messaging_inbox`.",
      request: { params: IdParams },
      responses: {
        200: json(
          ChannelSchema.extend({
            detail: z.string().openapi({
              description: "What was done, and what is left to do in the platform's dashboard",
              example:
                "Disconnected. Telegram's webhook to https://assistants.example.com/channels/telegram/… was removed.",
            }),
            platformRefusal: z.union([z.string(), z.null()]).openapi({
              description:
                "The platform's refusal to remove its webhook, in its words (or why it was not asked); null when " +
                "it removed it or there was nothing to remove. The channel is disconnected here either way",
              example: null,
            }),
          }).openapi("ChannelDisconnected"),
          "Disconnected: the channel as it now reads",
        ),
        ...errorResponses(400, 403, 404),
      },
    }),
    async (c) => {
      const { organizationId, origin } = await channelCaller(c, "inbox.manage");
      return c.json(await disconnectChannel(c.env, c.var.db, organizationId, c.req.valid("param").id, origin), 200);
    },
  );
  r.openapi(
    createRoute({
      method: "post",
      path: `${path}connect/`,
      tags: [INBOXES_TAG],
      summary: "Check the credentials with the platform and connect",
      description:
        "Needs `inbox.manage`. Asks the platform (LINE bot info and webhook endpoint, Telegram getMe and " +
        "setWebhook with a secret token, " +
        "Meta and Slack token checks, e-mail's send binding) and sets `status`. A refusal is 400 " +
        "`channel_connect_failed` whose `detail` is the " +
        "platform's answer (and `status: failing`); `teams`, `viber`, `line_works` and `team_plus` are 400 " +
        "`channel_not_supported`.",
      request: { params: IdParams },
      responses: {
        200: json(
          ChannelSchema.extend({
            detail: z
              .string()
              .openapi({ description: "What the platform answered", example: "Connected to @acme_help_bot" }),
          }).openapi("ChannelConnected"),
          "Connected",
        ),
        ...errorResponses(400, 403, 404),
      },
    }),
    async (c) => {
      const { organizationId, origin } = await channelCaller(c, "inbox.manage");
      return c.json(await connectChannel(c.env, c.var.db, organizationId, c.req.valid("param").id, origin), 200);
    },
  );
};
