import { and, eq, exists, inArray, or, sql } from "drizzle-orm";
import type { Db } from "../../env";
import { groupMembers, groupPermissions, groups, inboxes, members, type InboxAssignment } from "../../db/schema";
import { fieldError } from "../../lib/errors";
import { PERMISSIONS } from "../permissions";
import { writePurges } from "../purges";

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

/**
 * An inbox's assignment as its readers take it (a column for a select from `inboxes`): a team (group) no longer there
 * reads as none, as the group's delete leaves the inboxes it clears. The inbox writes check their team in the statement
 * that writes it (`teamExists`), so only a row written before they did can name one gone; one lookup by key in the
 * statement that reads the inbox, never a read of its own.
 */
export const liveAssignment = sql<InboxAssignment | null>`json_set(${inboxes.assignment}, '$.teamId', (
  select ${groups.id} from ${groups}
  where ${groups.id} = json_extract(${inboxes.assignment}, '$.teamId')
    and ${groups.organizationId} = ${inboxes.organizationId}))`.mapWith(inboxes.assignment);

const teamOf = (organizationId: string, teamId: string) =>
  and(eq(groups.id, teamId), eq(groups.organizationId, organizationId));

/**
 * `teamId` is a group of the organization, as a condition of the statement writing it: a group's delete clears its id
 * from the inboxes naming it in the batch deleting it (services/groups.ts), so a write checked apart from it, before
 * the delete, and made after would keep the id for good; checked in its own statement, it runs wholly before the delete
 * (which clears it) or after (and finds no team).
 */
export const teamExists = (db: Db, organizationId: string, teamId: string) =>
  exists(db.select({ id: groups.id }).from(groups).where(teamOf(organizationId, teamId)));

/** The refusal of a team that is no group of the caller's organization, on `field`. */
export const noSuchTeam = (field: string) => fieldError(field, "No such team (group) in your organization.");

/** 400 on `field` unless `teamId` is a group of the organization. */
export async function requireTeamOf(db: Db, organizationId: string, teamId: string, field: string): Promise<void> {
  const [team] = await db.select({ id: groups.id }).from(groups).where(teamOf(organizationId, teamId));
  if (!team) throw noSuchTeam(field);
}

/**
 * After a write that may have given a conversation the team `teamId` (in the conversation's part, `part`): the team's
 * purge written there again when the team is gone from `DB`. The group's delete writes its purge before and after its
 * row goes (services/groups.ts), but a write that read the team before the delete and landed after the housekeeping's
 * run of the second purge would link the conversation to a deleted team for good. One control read per assignment.
 */
export async function purgeTeamIfGone(db: Db, part: Db, organizationId: string, teamId: string | null | undefined) {
  if (!teamId) return;
  const [team] = await db.select({ id: groups.id }).from(groups).where(eq(groups.id, teamId));
  if (!team) await writePurges([part], [{ organizationId, kind: "group", id: teamId }]);
}

const MANAGE_CONVERSATIONS = PERMISSIONS.find((p) => p.codename === "conversation.manage")!.id;

/**
 * Members who may serve a conversation, the one rule of automatic assignment, `assign/` and the assignees list
 * (docs/decisions.md, "Assignment"): `conversation.manage`, as the owner or through a group, since an assignee's work
 * (answering, taking over, handing back) needs it; a reader with `conversation.view` alone could not answer what they
 * were given. A team narrows this further; it never widens it.
 */
export const mayServe = (db: Db) =>
  or(
    eq(members.isOwner, true),
    inArray(
      members.id,
      db
        .select({ id: groupMembers.memberId })
        .from(groupMembers)
        .innerJoin(groupPermissions, eq(groupPermissions.groupId, groupMembers.groupId))
        .where(eq(groupPermissions.permissionId, MANAGE_CONVERSATIONS)),
    ),
  );

/** The member row of `userId` in the organization, whether they are in `teamId` (when given) and may serve. */
export async function membership(db: Db, organizationId: string, userId: string, teamId: string | null) {
  const [row] = await db
    .select({ id: members.id, inTeam: groupMembers.id, canServe: sql<number>`${mayServe(db)}` })
    .from(members)
    .leftJoin(
      groupMembers,
      and(
        eq(groupMembers.memberId, members.id),
        teamId ? eq(groupMembers.groupId, teamId) : eq(groupMembers.groupId, ""),
      ),
    )
    .where(and(eq(members.organizationId, organizationId), eq(members.userId, userId)));
  return row
    ? { memberId: row.id, inTeam: teamId ? row.inTeam !== null : true, canServe: Boolean(row.canServe) }
    : null;
}
