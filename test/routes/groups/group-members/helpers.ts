import { expect } from "vitest";
import { members, users } from "../../../../src/db/schema";
import { uuidv7 } from "../../../../src/lib/ids";
import { db, unique, type Actor } from "../../../harness";
import { bodyOf } from "../../../support/api";

export interface GroupMemberBody {
  id: string;
  group: string;
  member: { id: string; user: { id: string; name: string; email: string } };
  createdAt: string;
}

export const groupMembersPath = (organizationId: string, groupId: string, rest = "") =>
  `/organizations/${organizationId}/groups/${groupId}/group-members/${rest}`;

export async function addMembers(actor: Actor, groupId: string, memberIds: string[]): Promise<GroupMemberBody[]> {
  const res = await actor.fetch("POST", groupMembersPath(actor.organizationId, groupId, "bulk-create/"), {
    members: memberIds,
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return await bodyOf<"POST /organizations/{organizationPk}/groups/{groupPk}/group-members/bulk-create/">(res);
}

/** Many plain members at once, written straight to the database (for volume, not behaviour). */
export async function insertMembers(organizationId: string, n: number): Promise<string[]> {
  const rows = Array.from({ length: n }, () => ({ userId: uuidv7(), memberId: uuidv7() }));
  const d = db();
  await d.batch([
    d.insert(users).values({ id: rows[0].userId, email: `${unique("bulk")}@example.com`, name: "bulk" }),
    ...rows
      .slice(1)
      .map((r) => d.insert(users).values({ id: r.userId, email: `${unique("bulk")}@example.com`, name: "bulk" })),
    ...rows.map((r) => d.insert(members).values({ id: r.memberId, organizationId, userId: r.userId })),
  ]);
  return rows.map((r) => r.memberId);
}
