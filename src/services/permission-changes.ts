// Changes to what members may do: a group's permissions, a member's groups. The caller grants only what they hold
// (requireGrantable; owners anything), and members left without `conversation.manage` serve no conversation: theirs
// go to those who may (assignment/release.ts), in `background`.
import type { Bindings, Db } from "../env";
import { fieldError } from "../lib/errors";
import { type OrgAccess, requireGrantable } from "./access";
import type { ChangeActor } from "./conversations";
import { releaseUnserving } from "./assignment/release";
import { checkOrganizationField, findGroup, groupMemberIds, groupPermissionIds, updateGroup } from "./groups";
import { getMember, type MemberView, organizationGroupIds, replaceMemberGroups } from "./members";
import type { GroupInput } from "./records/groups";

type Background = { waitUntil(promise: Promise<unknown>): void };

/** Changes the organization's group `id` (404 when none): its name, and the permissions it grants when given. */
export async function changeGroup(
  env: Bindings,
  db: Db,
  background: Background,
  access: OrgAccess,
  actor: ChangeActor,
  id: string,
  body: GroupInput,
) {
  const group = await findGroup(db, access.organizationId, id);
  checkOrganizationField(body, access.organizationId);
  if (body.permissions) requireGrantable(access, body.permissions);
  const row = await updateGroup(db, group, body);
  if (body.permissions)
    await releaseUnserving(env, db, access.organizationId, await groupMemberIds(db, group.id), actor, background);
  return row;
}

/**
 * Sets the member's groups to `groupIds` (each a group of the organization, else 400 naming those that are not) and
 * returns the member as now.
 */
export async function setMemberGroups(
  env: Bindings,
  db: Db,
  background: Background,
  access: OrgAccess,
  actor: ChangeActor,
  memberId: string,
  groupIds: string[],
): Promise<MemberView> {
  const wanted = [...new Set(groupIds)];
  const known = await organizationGroupIds(db, access.organizationId, wanted);
  const unknown = wanted.filter((g) => !known.has(g));
  if (unknown.length) throw fieldError("groups", `Not a group of this organization: ${unknown.join(", ")}.`);
  for (const groupId of wanted) requireGrantable(access, await groupPermissionIds(db, groupId));
  await replaceMemberGroups(db, memberId, wanted);
  await releaseUnserving(env, db, access.organizationId, [memberId], actor, background);
  return getMember(db, access.organizationId, memberId);
}
