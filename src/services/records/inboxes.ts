import { z } from "@hono/zod-openapi";
import { CHANNEL_TYPES } from "../../db/schema";
import { calendarDay, IdName, IdRef, NameField, Timestamps } from "../../lib/openapi";
import { timestampsOf } from "../../lib/time";
import { DEFAULT_CAPACITY, MAX_CAPACITY, assignmentOf } from "../assignment/settings";
import { WEEKDAYS, type Weekday } from "../business-hours";
import type { InboxView } from "../inboxes";

const hhmm = z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/, "HH:MM, 00:00 to 24:00");

const DAY_NAMES: Record<Weekday, string> = {
  sun: "Sunday",
  mon: "Monday",
  tue: "Tuesday",
  wed: "Wednesday",
  thu: "Thursday",
  fri: "Friday",
  sat: "Saturday",
};
const openingPeriods = (day: Weekday) =>
  z
    .array(z.array(hhmm))
    .max(6)
    .optional()
    .openapi({
      description:
        `${DAY_NAMES[day]}'s opening periods in \`timeZone\`: up to 6 \`[open, close]\` pairs of HH:MM, ` +
        `close after open ("24:00" for midnight). Absent or []: closed all day`,
    });

export const BusinessHoursSchema = z
  .strictObject({
    timeZone: z.string().min(1).max(64).openapi({ description: "IANA time zone", example: "Asia/Taipei" }),
    weekly: z
      // Pairs as plain arrays, their length checked by the service (a fixed length makes the generated clients read a
      // tuple two ways).
      .strictObject(
        Object.fromEntries(WEEKDAYS.map((d) => [d, openingPeriods(d)])) as Record<
          Weekday,
          z.ZodOptional<z.ZodArray<z.ZodArray<typeof hhmm>>>
        >,
      )
      .openapi({
        description: "Opening periods by weekday (sun..sat), `[open, close]`; a day left out is closed",
        example: { mon: [["09:00", "18:00"]], tue: [["09:00", "18:00"]] },
      }),
    holidays: z
      // A day the calendar does not have (2026-02-30) would be stored and never matched.
      .array(calendarDay())
      .max(366)
      .default([])
      .openapi({ description: "Closed all day (local dates)", example: ["2026-12-25"] }),
  })
  .openapi("BusinessHours");

export const AssignmentSchema = z
  .object({
    mode: z.enum(["manual", "round_robin"]).openapi({
      description:
        "`round_robin`: a conversation handed to a person goes to the next online agent with room (see docs); " +
        "`manual`: operators assign",
      example: "round_robin",
    }),
    teamId: z.uuid().nullable().default(null).openapi({
      description: "The team (group) serving it; null: every member who may manage conversations",
      example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d",
    }),
    capacity: z
      .number()
      .int()
      .min(1)
      .max(MAX_CAPACITY)
      .default(DEFAULT_CAPACITY)
      .openapi({
        description:
          `Conversations an agent serves at once (1..${MAX_CAPACITY}, default ${DEFAULT_CAPACITY}) unless their ` +
          `own capacity says otherwise`,
        example: 5,
      }),
  })
  .openapi("InboxAssignment");

export const ChannelTypeSchema = z
  .enum(CHANNEL_TYPES)
  .openapi({ description: "Conversation platform; fixed at creation", example: "web" });

// `.nullable()` on a registered schema loses the null in the OpenAPI document; a union keeps it.
const nullableIdName = (description: string) => z.union([IdName, z.null()]).openapi({ description });

export const InboxSchema = z
  .object({
    id: z.string().openapi({ description: "The inbox's id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    name: z.string().openapi({ description: "The inbox's name", example: "Website" }),
    channelType: ChannelTypeSchema,
    chatbot: nullableIdName("The assistant answering in this inbox"),
    channel: nullableIdName("The inbox's web chat (web inboxes); null otherwise"),
    unreadConversationsCount: z
      .number()
      .int()
      .openapi({ description: "Conversations with unread messages", example: 0 }),
    isDefault: z
      .boolean()
      .openapi({ description: "The assistant's default inbox for API conversations", example: false }),
    businessHours: z
      .union([BusinessHoursSchema, z.null()])
      .openapi({ description: "When its team answers; null: always" }),
    assignment: AssignmentSchema.openapi({ description: "Who serves its conversations once handed to a person" }),
    ...Timestamps,
  })
  .openapi("Inbox");

export type InboxRecord = z.infer<typeof InboxSchema>;

export const inboxRecord = ({ inbox, chatbot, channel, unreadConversationsCount }: InboxView): InboxRecord => ({
  id: inbox.id,
  name: inbox.name,
  channelType: inbox.channelType,
  chatbot,
  channel,
  unreadConversationsCount,
  isDefault: inbox.isDefault,
  businessHours: inbox.businessHours ?? null,
  assignment: assignmentOf(inbox.assignment),
  ...timestampsOf(inbox),
});

// Request bodies, beside the record (docs/decisions.md, "One word per concept, and where a record's shape is
// written").

const chatbotRef = IdRef.nullable().openapi({
  description: "Assistant of the organization (`{id}`); null detaches it",
});

/** Body of POST and PUT; PATCH takes any subset. */
export const InboxWrite = z.object({
  name: NameField(
    "The inbox's name as operators see it, 1-200 characters after trimming; a `web` inbox's web chat starts with " +
      "the same name (renaming the inbox later leaves the web chat's as it is)",
    "Website",
  ),
  channelType: ChannelTypeSchema,
  chatbot: chatbotRef.optional(),
  businessHours: z.union([BusinessHoursSchema, z.null()]).optional().openapi({
    description:
      "When its team answers (outside them a handoff says the assistant's `handoff.outsideHoursMessage`); null: always",
  }),
  assignment: AssignmentSchema.optional().openapi({
    description:
      "Who serves its conversations once handed to a person (replaced whole); absent: kept (manual at creation)",
  }),
});
export const InboxPatch = InboxWrite.partial();

/** PUT and PATCH bodies as the service receives them (defaults filled in); PUT's is a PATCH with every field. */
export type InboxInput = z.output<typeof InboxPatch>;
