import { z } from "@hono/zod-openapi";

export { UserSchema } from "../../services/records/users";

/** A person's name as others see it, written at sign-up and in the profile alike. */
export const PersonNameField = (description: string) =>
  z.string().trim().min(1).max(150).openapi({ description, example: "Ada Lovelace" });

/** The invitation code a profile and an organization each keep: stored and returned, it grants nothing. */
export const InvitationCodeField = (keptWhere: string) =>
  z
    .string()
    .max(100)
    .nullable()
    .optional()
    .openapi({
      description:
        `An invitation code kept ${keptWhere} (at most 100 characters); stored and returned, it grants nothing. ` +
        "Null clears it, absent keeps it",
      example: null,
    });
