import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, IdempotencyHeaders, json, jsonBody } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { postContactMessage } from "../../services/conversation/api-messages";
import { MessageCreate } from "./schema";
import { MessageSchema } from "../../services/records/messages";
import { poster } from "./poster";

const route = createRoute({
  method: "post",
  path: "/messages/",
  tags: ["Conversations"],
  summary: "Post a visitor message; the reply follows asynchronously",
  description:
    "Needs `conversation.manage`. Returns the stored incoming message as a receipt. Unless the " +
    "conversation was handed to a " +
    "human, the assistant's reply is produced in the background, appears in the message list and is delivered " +
    "through the inbox's " +
    "outgoing webhooks. Messages of one conversation are strictly ordered, one reply at a time. Once the plan's " +
    "words of the month are used or the organization's plan has expired, the message is stored all the same and the " +
    "assistant does not answer it.",
  request: { headers: IdempotencyHeaders, ...jsonBody(MessageCreate) },
  responses: { 201: json(MessageSchema, "The incoming message"), ...errorResponses(400, 403, 404, 409, 422) },
});

export const registerCreateMessage = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "conversation.manage");
    const receipt = await postContactMessage(c.env, c.var.db, c.var.data, poster(c, access), c.req.valid("json"));
    return c.json(receipt, 201);
  });
