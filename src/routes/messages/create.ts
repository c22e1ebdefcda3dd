import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, IdempotencyHeaders, json, jsonBody } from "../../lib/openapi";
import { authorize, requireConversation } from "../../services/access";
import { assistantRefusal } from "../../services/assistant-refusal";
import { conversationObject } from "../../services/conversations";
import { storedCanvas } from "../../services/conversation/canvas";
import { requireContact } from "../../services/contacts";
import { MessageCreate } from "./schema";
import { MessageSchema } from "../../services/records/messages";
import { messageAttachments } from "../attachments/respond";

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
    const {
      conversation: conversationId,
      sender,
      type: _type,
      broadcast: _b,
      skipCopilotTrigger: _s,
      suggestedForId: _f,
      canvas,
      ...rest
    } = c.req.valid("json");
    const message = { ...rest, canvas: canvas && storedCanvas(canvas) };
    const view = await requireConversation(c, conversationId, "Conversation not found.");
    const contact = sender
      ? await requireContact(c.var.data, access.organizationId, sender, "sender")
      : view.contact?.id
        ? { id: view.contact.id, name: view.contact.name, avatar: view.contact.avatar }
        : null;
    message.attachments = await messageAttachments(c, access.organizationId, conversationId, message.attachments);
    const receipt = await conversationObject(c.env, conversationId).post({
      organizationId: access.organizationId,
      conversationId,
      // The message is taken either way; without words left, or on a lapsed plan, the assistant does not answer it.
      refusal: await assistantRefusal(c.env, c.var.db, access.organizationId),
      conversation: view.conversation,
      sender: {
        type: "contact",
        id: contact?.id ?? null,
        name: contact?.name ?? "Visitor",
        avatar: contact?.avatar ?? null,
      },
      message,
    });
    return c.json(receipt, 201);
  });
