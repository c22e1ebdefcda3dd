import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponses, IdempotencyHeaders, json, jsonBody } from "../../lib/openapi";
import { authorize, requireConversation } from "../../services/access";
import { conversationObject, pickUpState } from "../../services/conversations";
import { changeConversation } from "../conversations/change";
import { MessageFields, PostedContent, textOrAttachments } from "./schema";
import { MessageSchema } from "../../services/records/messages";
import { messageAttachments } from "../attachments/respond";

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
    const { conversation: conversationId, ...message } = c.req.valid("json");
    const found = await requireConversation(c, conversationId, "Conversation not found.");
    // Answering a conversation that waits for a person, with nobody on it, is picking it up: the agent takes it over
    // first, so it is theirs and the visitor is told they joined (docs/decisions.md, "Conversation states"). Only if
    // it still waits unassigned when written (pickUpState): of two replies at once, the second is a colleague's word.
    const { progressStatus, assigneeId } = found.conversation;
    if (!message.private && progressStatus === "waiting_for_human" && !assigneeId)
      await changeConversation(c, conversationId, pickUpState);
    const { user } = c.var.principal;
    // An agent's attachments are checked and stored as a visitor's, so channels and webhooks get a URL they can fetch.
    message.attachments = await messageAttachments(c, access.organizationId, conversationId, message.attachments);
    const record = await conversationObject(c.env, conversationId).agentMessage(
      access.organizationId,
      conversationId,
      { id: user.id, name: user.name, avatar: user.avatar },
      message,
    );
    return c.json(record, 201);
  });
