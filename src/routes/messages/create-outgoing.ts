import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, IdempotencyHeaders, json, jsonBody } from "../../lib/openapi";
import { authorize } from "../../services/access";
import { postOperatorMessage } from "../../services/conversation/api-messages";
import { MessageFields, PostedContent, textOrAttachments } from "./schema";
import { MessageSchema } from "../../services/records/messages";
import { poster } from "./poster";

const AgentMessage = z
  .object({
    conversation: z
      .uuid()
      .openapi({ description: "Conversation to post in", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    ...MessageFields,
    content: PostedContent,
    private: z
      .boolean()
      .optional()
      .openapi({
        description:
          "A private note for the team (default false): shown in the transcript to members only; never sent to " +
          "the visitor, a channel or a message webhook, and it changes neither the conversation's state nor its " +
          "last message",
        example: false,
      }),
  })
  .superRefine(textOrAttachments)
  .openapi("AgentMessageCreate");

const route = createRoute({
  method: "post",
  path: "/messages/outgoing/",
  tags: ["Conversations"],
  summary: "Post a human agent's reply",
  description:
    "Needs `conversation.manage`. The sender is the current user; the conversation becomes " +
    "`human_serving`. A reply to a conversation waiting for a person (`waiting_for_human`) with no assignee takes " +
    "it over first, as `take-over/` does: the caller becomes its assignee (of two such replies at once, the first; " +
    "the second is posted as a colleague's reply). " +
    "With `private: true` the message is a note for the team: the visitor never sees it (widget history and " +
    "live stream), no channel or message webhook carries it, and the conversation is left as it was (state, " +
    "last message, unread count).",
  request: { headers: IdempotencyHeaders, ...jsonBody(AgentMessage) },
  responses: { 201: json(MessageSchema, "The agent's message"), ...errorResponses(400, 403, 404, 409, 422) },
});

export const registerCreateOutgoingMessage = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "conversation.manage");
    const { db, data, principal } = c.var;
    const record = await postOperatorMessage(c.env, db, data, poster(c, access), principal.user, c.req.valid("json"));
    return c.json(record, 201);
  });
