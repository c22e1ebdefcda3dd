import { and, eq } from "drizzle-orm";
import type { Db } from "../../env";
import { groupMembers, groups, members, type InboxAssignment } from "../../db/schema";
import { fieldError } from "../../lib/errors";

/** Conversations an agent serves at once when neither they nor the inbox say otherwise. */
export const DEFAULT_CAPACITY = 5;
export const MAX_CAPACITY = 100;

/** An inbox's assignment as read and written (a stored null: manual, no team, the default capacity). */
export const assignmentOf = (stored: InboxAssignment | null | undefined): InboxAssignment => ({
  mode: "manual",
  teamId: null,
  capacity: DEFAULT_CAPACITY,
  ...stored,
});

/** 400 on `field` unless `teamId` is a group of the organization. */
export async function requireTeamOf(db: Db, organizationId: string, teamId: string, field: string): Promise<void> {
  const [team] = await db
    .select({ id: groups.id })
    .from(groups)
    .where(and(eq(groups.id, teamId), eq(groups.organizationId, organizationId)));
  if (!team) throw fieldError(field, "No such team (group) in your organization.");
}

/** The member row of `userId` in the organization, and whether they are in `teamId` (when given). */
export async function membership(db: Db, organizationId: string, userId: string, teamId: string | null) {
  const [row] = await db
    .select({ id: members.id, inTeam: groupMembers.id })
    .from(members)
    .leftJoin(
      groupMembers,
      and(
        eq(groupMembers.memberId, members.id),
        teamId ? eq(groupMembers.groupId, teamId) : eq(groupMembers.groupId, ""),
      ),
    )
    .where(and(eq(members.organizationId, organizationId), eq(members.userId, userId)));
  return row ? { memberId: row.id, inTeam: teamId ? row.inTeam !== null : true } : null;
}
