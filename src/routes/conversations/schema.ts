import { z } from "@hono/zod-openapi";
import { Timestamp } from "../../lib/openapi";
import { ms } from "../../lib/time";
import type { ConversationView } from "../../services/conversations";

const ref = (example: Record<string, unknown>) => z.record(z.string(), z.unknown()).openapi({ example });

export const ConversationSchema = z
  .object({
    id: z.string().openapi({ example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    contact: ref({ id: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d", name: "Ada", avatar: null }).nullable().openapi({ description: "{id, name, avatar}" }),
    inbox: ref({ id: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d", name: "Website", channelType: "web" }).openapi({ description: "{id, name, channelType}" }),
    chatbot: ref({ id: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d", name: "Support bot" }).nullable().openapi({ description: "{id, name}" }),
    title: z.string().openapi({ example: "Opening hours" }),
    type: z.enum(["individual", "group"]).openapi({ example: "individual" }),
    status: z.enum(["open", "queued", "resolved"]).openapi({ example: "open" }),
    progressStatus: z.enum(["ai_processing", "waiting_for_human", "human_serving", "resolved", "open"]).openapi({ example: "ai_processing" }),
    autoReplyEnabled: z.boolean().openapi({ description: "false after a handoff to a human agent", example: true }),
    assignee: ref({ id: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d", name: "Agent Smith" }).nullable(),
    lastMessage: z.string().nullable().openapi({ example: "Our opening hours are 9 to 5." }),
    lastMessageCreatedAt: Timestamp.nullable(),
    createdAt: Timestamp,
  })
  .openapi("Conversation");

export const conversationRecord = (v: ConversationView): z.infer<typeof ConversationSchema> => ({
  id: v.conversation.id,
  contact: v.contact?.id ? { id: v.contact.id, name: v.contact.name, avatar: v.contact.avatar } : null,
  inbox: { id: v.inbox.id, name: v.inbox.name, channelType: v.inbox.channelType },
  chatbot: v.chatbot?.id ? { id: v.chatbot.id, name: v.chatbot.name } : null,
  title: v.conversation.title,
  type: v.conversation.type,
  status: v.conversation.status,
  progressStatus: v.conversation.progressStatus,
  autoReplyEnabled: v.conversation.autoReplyEnabled,
  assignee: v.assignee?.id ? { id: v.assignee.id, name: v.assignee.name } : null,
  lastMessage: v.conversation.lastMessage,
  lastMessageCreatedAt: ms(v.conversation.lastMessageAt),
  createdAt: ms(v.conversation.createdAt)!,
});
