// The signed-in user's own profile.
import { eq } from "drizzle-orm";
import type { Db } from "../env";
import { users } from "../db/schema";
import { conflict, isUniqueViolation } from "../lib/errors";
import { forgetUser } from "./key-cache";
import { userRecord } from "./records/users";

export interface ProfileInput {
  name: string;
  email: string;
  avatar?: string | null;
  company?: string | null;
  invitationCode?: string | null;
}

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
