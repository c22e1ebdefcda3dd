// Facebook Messenger through a Page: PSIDs, the Page's Send API (2000 characters a message).
import { graph } from "./graph";
import { messagingAdapter } from "./messaging";
import { plainParts } from "./text";

export const MESSENGER_TEXT_LIMIT = 2000;

export const messenger = messagingAdapter({
  platform: "messenger",
  name: "Messenger",
  object: "page",
  accountField: "pageId",
  sendPath: (channel) => `${encodeURIComponent(channel.credentials.pageId)}/messages`,
  parts: (message) => plainParts(message, MESSENGER_TEXT_LIMIT),
  profileFields: "first_name,last_name,profile_pic",
  profile: (body) => ({
    name: [body.first_name, body.last_name].filter(Boolean).join(" ") || undefined,
    avatar: body.profile_pic || undefined,
  }),
  async connect(ctx, account) {
    const pageId = encodeURIComponent(ctx.channel.credentials.pageId);
    const page = await graph<{ name?: string }>(ctx, account, "GET", `${pageId}?fields=name`);
    // Meta sends a Page's messages only to apps the Page is subscribed to (needs pages_manage_metadata), and only the
    // fields the app's webhook subscribes to as well: reactions and edits are the visitor's too.
    const fields = "messages,messaging_postbacks,message_reactions,message_edits";
    await graph(ctx, account, "POST", `${pageId}/subscribed_apps?subscribed_fields=${fields}`);
    return `Connected to the Facebook Page "${page.name}"; its messages come to this inbox.`;
  },
});
