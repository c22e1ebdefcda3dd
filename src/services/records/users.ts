import { z } from "@hono/zod-openapi";
import type { users } from "../../db/schema";
import { Timestamp } from "../../lib/openapi";
import { ms } from "../../lib/time";

export const UserSchema = z
  .object({
    id: z.string().openapi({ example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    email: z.string().openapi({ example: "ada@example.com" }),
    name: z.string().openapi({ example: "Ada Lovelace" }),
    avatar: z.string().nullable().openapi({ example: null }),
    company: z.string().nullable().openapi({ example: "Acme" }),
    invitationCode: z.string().nullable().openapi({ example: null }),
    isStaff: z.boolean().openapi({ description: "Platform operator", example: false }),
    createdAt: Timestamp,
  })
  .openapi("User");

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
