import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { dataDb } from "../../services/shards";
import { visitorOf } from "../../services/widget/visitors";
import { activeWebChat } from "../../services/widget/web-chats";

/**
 * The active web chat named in the path and the visitor its bearer token proves (else 404 / 401), with the data plane
 * of the web chat's organization (its visitors and conversations).
 */
export async function chatVisitor(c: Context<AppEnv>, webChatId: string) {
  const chat = await activeWebChat(c.var.db, webChatId);
  const visitor = await visitorOf(c.env, chat, c.req.header("Authorization"));
  return { chat, visitor, data: await dataDb(c.env, chat.webChat.organizationId) };
}
