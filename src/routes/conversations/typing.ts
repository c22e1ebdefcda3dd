import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, jsonBody } from "../../lib/openapi";
import { authorize, requireConversation } from "../../services/access";
import { operatorTyping } from "../../services/conversation/typing";

export const TypingBody = z
  .object({
    typing: z.boolean().openapi({
      description: "true while typing (send again every few seconds), false once stopped or sent",
      example: true,
    }),
  })
  .openapi("Typing");

const route = createRoute({
  method: "post",
  path: "/conversations/{id}/typing/",
  tags: ["Conversations"],
  summary: "Tell the visitor that you are typing",
  description:
    "Needs `conversation.manage`. Nothing is stored. The widget's live stream gets `event: typing` " +
    "`{typing, name}` (it shows " +
    '"Olivia is typing…" and hides it after `typing: false` or 6 s without another `true`); a conversation of ' +
    "a messaging channel " +
    "shows the platform's typing action (Telegram `typing`, Messenger/Instagram `typing_on`, LINE's loading " +
    "animation) when `typing` " +
    "is true; the organization's live stream gets `conversation.typing` `{conversationId, typing, sender}`. " +
    "Send `true` at most every " +
    "3 s while typing.",
  request: { params: IdParams, ...jsonBody(TypingBody) },
  responses: { 204: { description: "Told" }, ...errorResponses(400, 403, 404) },
});

export const registerConversationTyping = (r: Router) =>
  r.openapi(route, async (c) => {
    await authorize(c, "conversation.manage");
    const view = await requireConversation(c, c.req.valid("param").id);
    const { user } = c.var.principal;
    const sender = { type: "user" as const, id: user.id, name: user.name };
    const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
    await operatorTyping(c.env, c.var.db, waitUntil, view.conversation, sender, c.req.valid("json").typing);
    return c.body(null, 204);
  });
