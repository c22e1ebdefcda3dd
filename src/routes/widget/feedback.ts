import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { publicMessage } from "../../services/records/widget";
import { rateAnswer } from "../../services/widget/feedback";
import { PublicMessageSchema } from "../../services/records/widget";
import { chatVisitor } from "./visitor";
import { MessageParams, VISITOR_SECURITY, WIDGET_TAG } from "./schema";
import { dataParts } from "../../services/shards/parts";

const FeedbackBody = z
  .object({
    feedback: z
      .enum(["like", "dislike"])
      .nullable()
      .openapi({ description: "like, dislike, or null to take it back", example: "like" }),
  })
  .openapi("WidgetFeedback");

const route = createRoute({
  method: "post",
  path: "/web-chats/{id}/public/messages/{messageId}/feedback/",
  tags: [WIDGET_TAG],
  summary: "Like or dislike an answer",
  description:
    "Needs the visitor token. Only the assistant's answers in the visitor's own conversations (else 404). A " +
    "second dislike since the assistant last " +
    "handed off makes it hand the conversation to a person (its handoff message, then `queued` / " +
    "`waiting_for_human`), unless its handoff is off.",
  security: VISITOR_SECURITY,
  request: { params: MessageParams, ...jsonBody(FeedbackBody) },
  responses: { 200: json(PublicMessageSchema, "The answer with its feedback"), ...errorResponses(400, 403, 404) },
});

export const registerWidgetFeedback = (r: Router) =>
  r.openapi(route, async (c) => {
    const { id, messageId } = c.req.valid("param");
    const { chat, visitor } = await chatVisitor(c, id);
    const row = await rateAnswer(
      c.env,
      await dataParts(c.env, chat.webChat.organizationId),
      (p) => c.executionCtx.waitUntil(p),
      chat,
      visitor,
      messageId,
      c.req.valid("json").feedback,
    );
    return c.json(publicMessage(row, chat.webChat.settings), 200);
  });
