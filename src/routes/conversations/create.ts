import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { addConversation } from "../../services/conversation/operator-writes";
import { conversationRecord } from "../../services/records/conversations";
import { ConversationSchema } from "../../services/records/conversations";

const CreateConversation = z.object({
  webChat: z.uuid().openapi({
    description: "The web chat whose inbox and assistant the conversation belongs to",
    example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d",
  }),
  contact: z.uuid().optional().openapi({
    description: "A contact of your organization; absent for an anonymous visitor",
    example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d",
  }),
  title: z
    .string()
    .max(200)
    .optional()
    .openapi({
      description:
        "The conversation's title, at most 200 characters; absent or empty, the first 80 characters of the first " +
        "incoming message become it",
      example: "Opening hours",
    }),
});

const route = createRoute({
  method: "post",
  path: "/conversations/",
  tags: ["Conversations"],
  summary: "Start a conversation from a web chat",
  description: "Needs `conversation.manage`.",
  request: jsonBody(CreateConversation),
  responses: { 201: json(ConversationSchema, "Created"), ...errorResponses(400, 403, 404) },
});

export const registerCreateConversation = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "conversation.manage");
    const { db, data, principal } = c.var;
    const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
    const body = c.req.valid("json");
    const view = await addConversation(c.env, db, data, waitUntil, access.organizationId, principal.userId, body);
    return c.json(conversationRecord(view), 201);
  });
