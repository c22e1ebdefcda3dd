import { z } from "@hono/zod-openapi";
import type { users } from "../../db/schema";
import { Timestamp } from "../../lib/openapi";
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
