import { z } from "@hono/zod-openapi";
import { Timestamp } from "../../lib/openapi";
import { ms } from "../../lib/time";
import type { GroupChatbotRow } from "../group-chatbots";

const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";

export const GroupChatbotSchema = z
  .object({
    id: z.string().openapi({ description: "Id of the link between the group and the assistant", example: EXAMPLE_ID }),
    group: z.string().openapi({ description: "Group id", example: EXAMPLE_ID }),
    chatbot: z
      .object({
        id: z.string().openapi({ description: "The assistant's id", example: EXAMPLE_ID }),
        name: z.string().openapi({ description: "The assistant's name", example: "Support assistant" }),
      })
      .openapi({ description: "The assistant" }),
    createdAt: Timestamp,
  })
  .openapi("GroupChatbot");

export type GroupChatbotRecord = z.infer<typeof GroupChatbotSchema>;

export const groupChatbotRecord = (r: GroupChatbotRow): GroupChatbotRecord => ({
  id: r.id,
  group: r.groupId,
  chatbot: { id: r.chatbotId, name: r.chatbotName },
  createdAt: ms(r.createdAt)!,
});
