import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, json, jsonBody } from "../../lib/openapi";
import { authorize, requireConversation } from "../../services/access";
import { AttachmentCreate, AttachmentSchema } from "./schema";
import { createdAttachment } from "./respond";

const route = createRoute({
  method: "post",
  path: "/attachments/",
  tags: ["Attachments"],
  summary: "Create an attachment from an uploaded file",
  description:
    "Needs `conversation.manage`. `file` is the key of an upload of your organization (`fields.key` of " +
    "`upload-presigned-url/`, or the `Location` of " +
    "`attachments-upload/`) or our URL of it; anything else is 400 and is never fetched. Without " +
    "`conversation`, the attachment joins the conversation of " +
    "the first message that sends it, and is deleted after UNATTACHED_UPLOAD_TTL_HOURS (default 24) if none does.",
  request: jsonBody(AttachmentCreate),
  responses: { 201: json(AttachmentSchema, "The attachment"), ...errorResponses(400, 403, 404, 413, 415) },
});

export const registerCreateAttachment = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "conversation.manage");
    const input = c.req.valid("json");
    if (input.conversation) await requireConversation(c, input.conversation, "Conversation not found.");
    return c.json(await createdAttachment(c, access, input, input.conversation), 201);
  });
