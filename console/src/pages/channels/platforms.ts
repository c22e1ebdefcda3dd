// Each messaging platform as the console shows it: its credential fields (the API's own list,
// CONTRACT section 17; which are secret decides a password input), its setup steps (strings.ts,
// `steps_<platform>_<n>`) and its documentation. The console is a client of the API only, so this
// restates what GET inboxes/{id}/channel/ answers rather than importing the worker's table.
import type { Schemas } from "../../api/client";
import { t } from "./strings";

export type ChannelType = Schemas["Inbox"]["channelType"];
export type Channel = Schemas["Channel"];

export interface PlatformField {
  name: string;
  secret: boolean;
  /** Not needed to connect (e-mail's sender name); its hint says what empty means (strings.ts, `h_<name>`). */
  optional?: boolean;
}

export interface Platform {
  name: string;
  fields: PlatformField[];
  /** How many setup steps strings.ts has for it. */
  steps: number;
  /** Who points the platform's events at this inbox: Connect itself, the business pasting the webhook URL on the
   * platform's side, or the domain's e-mail routing (what a connected channel with no event yet should check). */
  events: "connect" | "pasted" | "routing";
  /** Who checks the webhook URL when it is saved on the platform's side (Meta's GET, Slack's url_verification): the
   * channel records when it passed or why it was refused (`webhookVerifiedAt`, `webhookRefusal`). */
  verifier?: "meta" | "slack";
  docs: string;
}

const field = (name: string, secret = false): PlatformField => ({ name, secret });

export const PLATFORMS: Partial<Record<ChannelType, Platform>> = {
  line: {
    name: "LINE",
    fields: [field("channelId"), field("channelSecret", true), field("channelAccessToken", true)],
    steps: 3,
    events: "connect",
    docs: "https://developers.line.biz/en/docs/messaging-api/",
  },
  telegram: {
    name: "Telegram",
    fields: [field("botToken", true)],
    steps: 3,
    events: "connect",
    docs: "https://core.telegram.org/bots#how-do-i-create-a-bot",
  },
  messenger: {
    name: "Messenger",
    fields: [field("pageId"), field("pageAccessToken", true), field("appSecret", true)],
    steps: 3,
    events: "pasted",
    verifier: "meta",
    docs: "https://developers.facebook.com/docs/messenger-platform/webhooks",
  },
  instagram: {
    name: "Instagram",
    fields: [field("instagramAccountId"), field("pageAccessToken", true), field("appSecret", true)],
    steps: 3,
    events: "pasted",
    verifier: "meta",
    docs: "https://developers.facebook.com/docs/messenger-platform/webhooks",
  },
  whatsapp: {
    name: "WhatsApp",
    fields: [field("phoneNumberId"), field("businessAccountId"), field("accessToken", true), field("appSecret", true)],
    steps: 3,
    events: "pasted",
    verifier: "meta",
    docs: "https://developers.facebook.com/docs/whatsapp/cloud-api/guides/set-up-webhooks",
  },
  slack: {
    name: "Slack",
    fields: [field("botToken", true), field("signingSecret", true)],
    steps: 4,
    events: "pasted",
    verifier: "slack",
    docs: "https://api.slack.com/apis/events-api",
  },
  email: {
    name: "E-mail",
    fields: [field("address"), { name: "fromName", secret: false, optional: true }],
    steps: 2,
    events: "routing",
    docs: "https://developers.cloudflare.com/email-routing/email-workers/",
  },
};

/** Messaging inbox types the API keeps but cannot connect yet (connect is 400 channel_not_supported). */
export const NOT_CONNECTABLE: Partial<Record<ChannelType, string>> = {
  teams: "Microsoft Teams",
  viber: "Viber",
  line_works: "LINE WORKS",
  team_plus: "Team+",
};

/** Every inbox type that is a messaging channel (not web, not api), connectable first. */
export const MESSAGING_TYPES = [...Object.keys(PLATFORMS), ...Object.keys(NOT_CONNECTABLE)] as ChannelType[];

export const isMessaging = (type: ChannelType) => type !== "web" && type !== "api";

/** A verify token goes beside the webhook URL on Meta's platforms. */
export const usesVerifyToken = (type: string) => type === "messenger" || type === "instagram" || type === "whatsapp";

/** The platform's name as people know it (e-mail in the chosen language). */
export const platformName = (type: string) =>
  type === "email"
    ? t("emailName")
    : (PLATFORMS[type as ChannelType]?.name ?? NOT_CONNECTABLE[type as ChannelType] ?? type);
