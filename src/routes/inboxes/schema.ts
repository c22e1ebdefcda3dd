import { z } from "@hono/zod-openapi";
import { CHANNEL_TYPES } from "../../db/schema";
import { IdName, IdRef, Timestamp } from "../../lib/openapi";

export const INBOXES_TAG = "Inboxes";

const channelType = z.enum(CHANNEL_TYPES).openapi({ description: "Conversation platform; fixed at creation", example: "web" });

// `.nullable()` on a registered schema loses the null in the OpenAPI document; a union keeps it.
const nullableIdName = (description: string) => z.union([IdName, z.null()]).openapi({ description });

export const InboxSchema = z
  .object({
    id: z.string().openapi({ example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    name: z.string().openapi({ example: "Website" }),
    channelType,
    chatbot: nullableIdName("The assistant answering in this inbox"),
    channel: nullableIdName("The inbox's web chat (web inboxes); null otherwise"),
    unreadConversationsCount: z.number().int().openapi({ description: "Conversations with unread messages", example: 0 }),
    isDefault: z.boolean().openapi({ description: "The assistant's default inbox for API conversations", example: false }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("Inbox");

const chatbotRef = IdRef.nullable().openapi({ description: "Assistant of the organization (`{id}`); null detaches it" });

/** Body of POST and PUT; PATCH takes any subset. */
export const InboxWrite = z.object({
  name: z.string().trim().min(1).max(200).openapi({ example: "Website" }),
  channelType,
  chatbot: chatbotRef.optional(),
});
export const InboxPatch = InboxWrite.partial();
