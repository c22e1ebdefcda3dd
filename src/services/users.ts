// The signed-in user's own profile.
import type { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Db } from "../env";
import { users } from "../db/schema";
import { conflict, isUniqueViolation } from "../lib/errors";
import { forgetUser } from "./key-cache";
import { type UpdateUser, userRecord } from "./records/users";

/** The profile body once parsed (the name already trimmed). */
export type ProfileInput = z.output<typeof UpdateUser>;

/** Writes the user's profile (e-mail lower-cased; 409 when another user has it) and forgets the cached key holder. */
export async function updateProfile(db: Db, userId: string, body: ProfileInput) {
  try {
    const [user] = await db
      .update(users)
      .set({ ...body, email: body.email.toLowerCase() })
      .where(eq(users.id, userId))
      .returning();
    forgetUser(user.id);
    return userRecord(user);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict("A user with this e-mail address already exists.");
    throw err;
  }
}
