import { eq } from "drizzle-orm";
import { groupMembers, members, users } from "../../../../src/db/schema";
import { uuidv7 } from "../../../../src/lib/ids";
import { db, unique, type Actor } from "../../../harness";
import { addLinks, linksPath } from "../helpers";

export const groupMembersPath = (organizationId: string, groupId: string, rest = "") =>
  linksPath("group-members", organizationId, groupId, rest);

export const addMembers = (actor: Actor, groupId: string, memberIds: string[]) =>
  addLinks(actor, "group-members", groupId, memberIds);

export const rowsOf = (groupId: string) => db().select().from(groupMembers).where(eq(groupMembers.groupId, groupId));

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
