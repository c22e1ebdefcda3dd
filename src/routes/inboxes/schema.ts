import { z } from "@hono/zod-openapi";
import { IdRef, NameField } from "../../lib/openapi";
import { AssignmentSchema, BusinessHoursSchema, ChannelTypeSchema, InboxSchema } from "../../services/records/inboxes";

export const INBOXES_TAG = "Inboxes";
export { InboxSchema };

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
