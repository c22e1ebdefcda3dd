import { z } from "@hono/zod-openapi";
import type { users } from "../../db/schema";
import { nameText, Timestamp } from "../../lib/openapi";
import { ms } from "../../lib/time";

export const UserSchema = z
  .object({
    id: z.string().openapi({ description: "The user's id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    email: z.string().openapi({
      description: "The user's e-mail address, their sign-in name, in lower case",
      example: "ada@example.com",
    }),
    name: z.string().openapi({ description: "The user's name as people see it", example: "Ada Lovelace" }),
    avatar: z
      .string()
      .nullable()
      .openapi({ description: "http(s) URL of the user's picture; null: none", example: null }),
    company: z.string().nullable().openapi({
      description: "The company the user named at sign-up or in their profile; null: none",
      example: "Acme",
    }),
    invitationCode: z.string().nullable().openapi({
      description: "The invitation code on the user's profile; it grants nothing. Null: none",
      example: null,
    }),
    isStaff: z.boolean().openapi({ description: "Platform operator", example: false }),
    createdAt: Timestamp,
  })
  .openapi("User", { description: "A user: a person who signs in" });

export type UserRecord = z.infer<typeof UserSchema>;

export const userRecord = (u: typeof users.$inferSelect): UserRecord => ({
  id: u.id,
  email: u.email,
  name: u.name,
  avatar: u.avatar,
  company: u.company,
  invitationCode: u.invitationCode,
  isStaff: u.isStaff,
  createdAt: ms(u.createdAt)!,
});

/** A person's name as others see it, written at sign-up and in the profile alike. */
export const PersonNameField = (description: string) => nameText(150).openapi({ description, example: "Ada Lovelace" });

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

/** The profile body (`PUT /users/current/`), here below the routes so that updateProfile can take it as parsed. */
export const UpdateUser = z.object({
  name: PersonNameField("Your name as people see it, 1-150 characters"),
  email: z.email().max(254).openapi({
    description: "Your e-mail address, which you sign in with; kept in lower case (409 if another user has it)",
    example: "ada@example.com",
  }),
  // http(s) only: the avatar is shown beside the user's replies in the console and the visitor's widget, where a
  // `javascript:` or `data:` URL has no place (contacts' avatars follow the same rule).
  avatar: z.httpUrl().max(2048).nullable().optional().openapi({
    description:
      "http(s) URL of your picture, shown with the replies you send to visitors; null removes it, absent keeps it",
    example: "https://cdn.example.com/ada.png",
  }),
  company: z
    .string()
    .max(200)
    .nullable()
    .optional()
    .openapi({
      description:
        "Your company as you name it, at most 200 characters; it renames no organization. Null clears it, absent " +
        "keeps it",
      example: "Acme",
    }),
  invitationCode: InvitationCodeField("on your profile"),
});
