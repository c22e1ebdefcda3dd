import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { fieldError, notFound } from "../../lib/errors";
import { currentAccess, requirePermission } from "../../services/access";
import { findConversation } from "../../services/conversations";
import { createAttachment } from "../../services/uploads/attachments";
import { AttachmentCreate, AttachmentSchema, ConversationParams } from "./schema";
import { extractLater, recordOf } from "./respond";

const route = createRoute({
  method: "post",
  path: "/conversations/{conversationPk}/attachments/",
  tags: ["Attachments"],
  summary: "Attach an uploaded file to a conversation",
  description:
    "Requires `conversation.manage`; the conversation must be of your organization (else 404). `file` as for " +
    "`attachments/`. " +
    "Documents (pdf, docx, txt, md, csv, html, json) are read for the assistant, which answers with them as " +
    "context in this conversation.",
  request: { params: ConversationParams, ...jsonBody(AttachmentCreate) },
  responses: { 201: json(AttachmentSchema, "The attachment"), ...errorResponses(400, 403, 404, 413, 415) },
});

export const registerCreateConversationAttachment = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await currentAccess(c);
    requirePermission(access, "conversation.manage");
    const { conversationPk } = c.req.valid("param");
    const input = c.req.valid("json");
    if (!(await findConversation(c.var.db, access.organizationId, conversationPk)))
      throw notFound("Conversation not found.");
    if (input.conversation && input.conversation !== conversationPk)
      throw fieldError("conversation", "Must be the conversation of the path, or absent.");
    const scope = {
      organizationId: access.organizationId,
      userId: c.var.principal.userId,
      origin: new URL(c.req.url).origin,
    };
    const row = await createAttachment(c.env, c.var.db, scope, {
      file: input.file,
      filename: input.filename,
      type: input.type,
      conversationId: conversationPk,
    });
    extractLater(c, [row]);
    return c.json(await recordOf(c, row), 201);
  });
