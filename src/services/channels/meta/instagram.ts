// Instagram messages through the Facebook Page linked to the professional account: IGSIDs, the
// Page's Send API, texts of at most 1000 UTF-8 bytes.
import { graph } from "./graph";
import { messagingAdapter } from "./messaging";
import { fitBytes, plainParts } from "./text";

export const INSTAGRAM_TEXT_BYTES = 1000;

export const instagram = messagingAdapter({
  platform: "instagram",
  name: "Instagram",
  object: "instagram",
  accountField: "instagramAccountId",
  // The credentials name the Instagram account, not its Page: with a Page token `me` is that Page.
  sendPath: () => "me/messages",
  parts: (message) => fitBytes(plainParts(message, INSTAGRAM_TEXT_BYTES), INSTAGRAM_TEXT_BYTES),
  profileFields: "name,username,profile_pic",
  profile: (body) => ({ name: body.name || body.username || undefined, avatar: body.profile_pic || undefined }),
  async connect(ctx, account) {
    const user = await graph<{ username?: string }>(
      ctx,
      account,
      "GET",
      `${encodeURIComponent(ctx.channel.credentials.instagramAccountId)}?fields=username,name`,
    );
    const page = await graph<{ id: string; name?: string }>(ctx, account, "GET", "me?fields=id,name");
    // The account's messages reach the app only while the linked Page is subscribed to it.
    await graph(ctx, account, "POST", `${encodeURIComponent(page.id)}/subscribed_apps?subscribed_fields=messages`);
    return (
      `Connected to the Instagram account @${user.username} (through the Page "${page.name}"); its messages ` +
      `come to this inbox.`
    );
  },
});
