import { z } from "@hono/zod-openapi";
import { Timestamp } from "../../lib/openapi";

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
