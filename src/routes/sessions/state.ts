import type { Db } from "../../env";
import type { users } from "../../db/schema";
import { membershipsOf, type SessionRow } from "../../services/console-sessions";
import { consoleSessionRecord } from "../../services/records/console-sessions";
import { userRecord } from "../../services/records/users";

/** What the console needs to start: the session, its user, and what the user may do in each organization. */
export async function sessionState(db: Db, session: SessionRow, user: typeof users.$inferSelect) {
  return {
    session: consoleSessionRecord(session, session.id),
    user: userRecord(user),
    memberships: await membershipsOf(db, user.id),
  };
}
