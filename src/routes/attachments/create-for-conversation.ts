import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { fieldError } from "../../lib/errors";
import { authorize, requireConversation } from "../../services/access";
import { AttachmentCreate, AttachmentSchema, ConversationParams } from "./schema";
import { createdAttachment } from "./respond";

const route = createRoute({
  method: "post",
  path: "/conversations/{conversationPk}/attachments/",
  tags: ["Attachments"],
  summary: "Attach an uploaded file to a conversation",
  description:
    "Needs `conversation.manage`; the conversation must be of your organization (else 404). `file` as for " +
    "`attachments/`. " +
    "Documents (pdf, docx, txt, md, csv, html, json) are read for the assistant, which answers with them as " +
    "context in this conversation.",
  request: { params: ConversationParams, ...jsonBody(AttachmentCreate) },
  responses: { 201: json(AttachmentSchema, "The attachment"), ...errorResponses(400, 403, 404, 413, 415) },
});

export const registerCreateConversationAttachment = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "conversation.manage");
    const { conversationPk } = c.req.valid("param");
    const input = c.req.valid("json");
    await requireConversation(c, conversationPk, "Conversation not found.");
    if (input.conversation && input.conversation !== conversationPk)
      throw fieldError("conversation", "Must be the conversation of the path, or absent.");
    return c.json(await createdAttachment(c, access, input, conversationPk), 201);
  });
