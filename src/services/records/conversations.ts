import { z } from "@hono/zod-openapi";
import { Timestamp } from "../../lib/openapi";
import { ms } from "../../lib/time";
import type { ConversationRow } from "../conversations";
import type { ConversationView } from "../conversation/views";

const ID = z.string().openapi({ description: "Its id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" });
const named = (name: string) => ({ id: ID, name: z.string().openapi({ description: "Its name", example: name }) });

export const CsatSchema = z
  .object({
    rating: z.number().int().openapi({ description: "1 (poor) to 5 (excellent)", example: 4 }),
    comment: z.string().nullable().openapi({ description: "What the visitor added", example: "Quick and friendly." }),
    createdAt: Timestamp,
  })
  .openapi("Csat");

export const ConversationSchema = z
  .object({
    id: z.string().openapi({ description: "The conversation's id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    contact: z
      .object({
        ...named("Ada"),
        avatar: z
          .string()
          .nullable()
          .openapi({ description: "URL of the visitor's picture; null: none", example: null }),
      })
      .nullable()
      .openapi({ description: "The visitor" }),
    inbox: z
      .object({
        ...named("Website"),
        channelType: z
          .string()
          .openapi({ description: "The inbox's platform (web, telegram, line, ...)", example: "web" }),
      })
      .openapi({ description: "The inbox the conversation came through" }),
    chatbot: z.object(named("Support bot")).nullable().openapi({ description: "The assistant" }),
    title: z.string().openapi({
      description:
        "The title: the first 80 characters of the first incoming message unless one was given; empty before it",
      example: "Opening hours",
    }),
    type: z.enum(["individual", "group"]).openapi({
      description: "individual: one visitor; group: a group chat of a messaging channel",
      example: "individual",
    }),
    status: z.enum(["open", "queued", "resolved"]).openapi({
      description: "open; queued: handed off and waiting for a person; resolved",
      example: "open",
    }),
    progressStatus: z.enum(["ai_processing", "waiting_for_human", "human_serving", "resolved", "open"]).openapi({
      description:
        "Who is on it: open (new), ai_processing (the assistant), waiting_for_human (handed off), " +
        "human_serving (an assignee took it), resolved",
      example: "ai_processing",
    }),
    autoReplyEnabled: z.boolean().openapi({ description: "false after a handoff to a human agent", example: true }),
    assignee: z
      .object(named("Agent Smith"))
      .nullable()
      .openapi({ description: "The member serving it or asked to (takeover, assignment)" }),
    team: z.object(named("Support")).nullable().openapi({ description: "The team (a group) it is assigned to" }),
    waitingSince: Timestamp.nullable().openapi({
      description: "Since when it waits for a person (queued); null when no one is awaited",
    }),
    labels: z
      .array(
        z.object({ ...named("Billing"), color: z.string().openapi({ description: "`#rrggbb`", example: "#1f77b4" }) }),
      )
      .openapi({ description: "Its labels, by name (PUT /conversations/{id}/labels/)" }),
    lastMessage: z.string().nullable().openapi({
      description: "The text of its latest message (private notes aside), at most 500 characters; null: none yet",
      example: "Our opening hours are 9 to 5.",
    }),
    lastMessageCreatedAt: Timestamp.nullable(),
    isTest: z.boolean().openapi({
      description:
        "Started as a test (the console's try-it, a completion with `test: true`); left out of statistics " +
        "unless they include tests",
      example: false,
    }),
    unreadCount: z
      .number()
      .int()
      .openapi({
        description:
          "The visitor's messages no agent has read yet (notes, the team's and the assistant's messages and " +
          "test conversations never count); `read/` sets it to 0",
        example: 2,
      }),
    createdAt: Timestamp,
    csat: CsatSchema.nullable().openapi({
      description: "The visitor's satisfaction rating once resolved (widget or channel), else null",
    }),
  })
  .openapi("Conversation");

export type CsatRecord = z.infer<typeof CsatSchema>;
export type ConversationRecord = z.infer<typeof ConversationSchema>;

export const csatRecord = (row: Pick<ConversationRow, "csatRating" | "csatComment" | "csatAt">): CsatRecord | null =>
  row.csatRating === null || row.csatAt === null
    ? null
    : { rating: row.csatRating, comment: row.csatComment, createdAt: ms(row.csatAt)! };

export const conversationRecord = (v: ConversationView): ConversationRecord => ({
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
  labels: v.labels,
  team: v.team?.id ? { id: v.team.id, name: v.team.name } : null,
  waitingSince: ms(v.conversation.waitingSince),
  lastMessage: v.conversation.lastMessage,
  lastMessageCreatedAt: ms(v.conversation.lastMessageAt),
  isTest: v.conversation.isTest,
  unreadCount: v.conversation.unreadCount,
  createdAt: ms(v.conversation.createdAt)!,
  csat: csatRecord(v.conversation),
});
