import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { findMessage } from "../../services/messages";
import { MessageSchema } from "../../services/records/messages";

const Query = z.object({
  conversation: z.uuid().openapi({
    description: "Conversation of the message (required)",
    example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d",
  }),
});

const route = createRoute({
  method: "get",
  path: "/messages/{id}/",
  tags: ["Conversations"],
  summary: "Get a message",
  description: "Needs `conversation.view`.",
  request: { params: IdParams, query: Query },
  responses: { 200: json(MessageSchema, "The message"), ...errorResponses(400, 403, 404) },
});

export const registerGetMessage = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "conversation.view");
    const { id } = c.req.valid("param");
    const { conversation } = c.req.valid("query");
    return c.json(await findMessage(c.env, new URL(c.req.url).origin, access.organizationId, conversation, id), 200);
  });
