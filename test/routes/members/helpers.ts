import { eq } from "drizzle-orm";
import { chatbotGroups, chatbots, groupMembers, groups, inboxes, members } from "../../../src/db/schema";
import { uuidv7 } from "../../../src/lib/ids";
import { expect, it } from "vitest";
import type { Permission } from "../../../src/services/permissions";
import { call, db, expectError, seedMember, seedOwner, unique, type Actor } from "../../harness";

export const LOCAL_LLM_ID = async () => {
  const row = await db().query.models.findFirst({
    where: (m, { and, eq, isNull }) => and(eq(m.kind, "llm"), isNull(m.organizationId)),
  });
  return row!.id;
};

export async function addGroup(organizationId: string, name = unique("group")) {
  const id = uuidv7();
  await db().insert(groups).values({ id, organizationId, name });
  return id;
}

export async function joinGroup(memberId: string, groupId: string) {
  await db().insert(groupMembers).values({ groupId, memberId });
}

export async function setMetadata(memberId: string, metadata: Record<string, unknown> | null) {
  await db().update(members).set({ metadata }).where(eq(members.id, memberId));
}

export async function memberIdOf(organizationId: string, userId: string) {
  const row = await db().query.members.findFirst({
    where: (m, { and, eq }) => and(eq(m.organizationId, organizationId), eq(m.userId, userId)),
  });
  return row!.id;
}

/** An assistant reachable by `groupIds`, with an inbox. */
export async function seedInbox(organizationId: string, createdById: string, groupIds: string[]) {
  const chatbotId = uuidv7();
  const inboxId = uuidv7();
  await db()
    .insert(chatbots)
    .values({
      id: chatbotId,
      organizationId,
      createdById,
      name: unique("bot"),
      largeLanguageModelId: await LOCAL_LLM_ID(),
    });
  if (groupIds.length)
    await db()
      .insert(chatbotGroups)
      .values(groupIds.map((groupId) => ({ chatbotId, groupId })));
  await db()
    .insert(inboxes)
    .values({ id: inboxId, organizationId, name: unique("inbox"), channelType: "api", chatbotId });
  return inboxId;
}

export const groupLinks = (memberId: string) =>
  db().select().from(groupMembers).where(eq(groupMembers.memberId, memberId));

/** A GET of `path` refused (403) to a member of `owner`'s organization holding only `lacking`, answered once they hold
 * `needed`. */
export async function expectNeedsPermission(owner: Actor, path: string, lacking: Permission[], needed: Permission) {
  await expectError(await (await seedMember(owner, lacking)).fetch("GET", path), 403, "permission_denied");
  expect((await (await seedMember(owner, [needed])).fetch("GET", path)).status).toBe(200);
}

/**
 * The guards of a member route read with GET at `path(organizationId)` below /api/v1: 401 without a key, 403
 * for a member holding only `lacking` while one with `needed` may read, 404 for another organization.
 */
export function itGuardsRead(path: (organizationId: string) => string, needed: Permission, lacking: Permission[] = []) {
  it("401 without a key", async () => {
    const owner = await seedOwner();
    await expectError(await call("GET", `/api/v1${path(owner.organizationId)}`), 401, "not_authenticated");
  });

  it(`403 without ${needed}${lacking.length ? ` (${lacking.join(", ")} is not enough)` : ""}`, async () => {
    const owner = await seedOwner();
    await expectNeedsPermission(owner, path(owner.organizationId), lacking, needed);
  });

  it("404 for another organization", async () => {
    const owner = await seedOwner();
    const stranger = await seedOwner();
    await expectError(await stranger.fetch("GET", path(owner.organizationId)), 404, "not_found");
  });
}
