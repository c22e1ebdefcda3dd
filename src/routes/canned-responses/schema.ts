import { z } from "@hono/zod-openapi";

export const CANNED_RESPONSES_TAG = "Canned responses";

const ShortCode = z
  .string()
  .min(1, "At least 1 character")
  .max(50, "At most 50 characters")
  .regex(/^[a-z0-9_-]+$/, "Only lowercase letters, digits, _ and -")
  .openapi({
    description:
      "What an operator types after `/` in the reply box: 1-50 of a-z, 0-9, _ and -, unique in the organization",
    example: "refund",
  });

const Content = z
  .string()
  .trim()
  .min(1, "Must not be empty")
  .max(5_000, "At most 5,000 characters")
  .openapi({
    description:
      "The reply inserted. `{{contact.name}}` and `{{agent.name}}` are filled in by the console as it inserts " +
      "it (the conversation's contact, the signed-in member); other `{{...}}` stay as written",
    example: "Hi {{contact.name}}, your refund is on its way. {{agent.name}}",
  });

export const CannedResponseCreate = z
  .object({ shortCode: ShortCode, content: Content })
  .openapi("CannedResponseCreate");
export const CannedResponsePatch = z
  .object({ shortCode: ShortCode.optional(), content: Content.optional() })
  .openapi("CannedResponsePatch");
