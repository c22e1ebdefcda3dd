import { and, asc, eq } from "drizzle-orm";
import type { Db } from "../../env";
import { groupMembers, groups, members, users } from "../../db/schema";
import type { Assignees } from "../records/assignees";
import { mayServe } from "./settings";

/** How many members the answer holds at most (an organization's support team is far smaller). */
export const MAX_ASSIGNEES = 1_000;

/**
 * Whom a conversation of the organization can be assigned to (`assignmentChange` checks the same): its members who may
 * serve conversations (`mayServe`), each saying whether they are in `teamId` (the conversation's team; every member is
 * when it has none), by name, and its teams (groups), by name. For whoever may assign (`conversation.manage`) without
 * listing members or groups.
 */
export async function assigneesOf(db: Db, organizationId: string, teamId: string | null): Promise<Assignees> {
  const [people, teams] = await Promise.all([
    db
      .select({
        id: users.id,
        name: users.name,
        email: users.email,
        availability: members.availability,
        teamLink: groupMembers.id,
      })
      .from(members)
      .innerJoin(users, eq(users.id, members.userId))
      .leftJoin(groupMembers, and(eq(groupMembers.memberId, members.id), eq(groupMembers.groupId, teamId ?? "")))
      .where(and(eq(members.organizationId, organizationId), mayServe(db)))
      .orderBy(asc(users.name), asc(users.id))
      .limit(MAX_ASSIGNEES),
    db
      .select({ id: groups.id, name: groups.name })
      .from(groups)
      .where(eq(groups.organizationId, organizationId))
      .orderBy(asc(groups.name)),
  ]);
  return {
    members: people.map(({ teamLink, ...person }) => ({ ...person, inTeam: teamId === null || teamLink !== null })),
    teams,
  };
}
