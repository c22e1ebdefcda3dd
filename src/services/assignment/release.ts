// A member who leaves the organization, or may no longer serve conversations, takes none with them (docs/decisions.md,
// "Assignment"): automatic assignment skips a conversation whose assignee is set, so one left assigned to them waited
// for no one.
import { and, eq, not } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { conversations, members } from "../../db/schema";
import { inList } from "../../lib/sql";
import { eachConversationObject, type ChangeActor, type ConversationRow } from "../conversations";
import { lifecycleEvent, publishInboxEvents } from "../conversation/inbox-events";
import { dataParts } from "../shards/parts";
import { onEachPart } from "../shards/parts-sum";
import { assignAfterChange, heldBy } from "./round-robin";
import { mayServe } from "./settings";

/** The organization's unresolved conversations assigned to `userId`, each with the part it is on. */
async function assignedTo(env: Bindings, organizationId: string, userId: string) {
  const found = await onEachPart(await dataParts(env, organizationId), async (data) =>
    (await data.select().from(conversations).where(heldBy(organizationId, userId))).map((row) => ({ row, data })),
  );
  return new Map(found.flat().map((held) => [held.row.id, held]));
}

/** Who releases, as the conversation's object names an operator (`change`): the user's name and avatar alone. */
export const actorOf = (user: { name: string; avatar: string | null }): ChangeActor => ({
  name: user.name,
  avatar: user.avatar,
});

export interface Released {
  before: ConversationRow;
  after: ConversationRow;
}

/**
 * Unassigns every unresolved conversation `userId` holds, on every part, each through its object as `assign/` does
 * (its lifecycle event, reason `operator`, for the webhooks that opt in). Throws when one could not be released, so
 * the caller can stop before what it would have done next and be asked again. Returns the conversations released, for
 * `afterRelease`.
 */
export async function releaseAssigned(
  env: Bindings,
  organizationId: string,
  userId: string,
  actor: ChangeActor,
): Promise<Released[]> {
  const held = await assignedTo(env, organizationId, userId);
  const released: Released[] = [];
  const done = await eachConversationObject(
    env,
    [...held.keys()],
    async (object, id) => {
      const { row, data } = held.get(id)!;
      // Only while they still hold it: a conversation reassigned since the read above keeps its new assignee.
      if (!(await object.change(row, { assigneeId: null, whileAssignee: userId }, actor, "operator"))) return;
      const [after] = await data.select().from(conversations).where(eq(conversations.id, id));
      if (after) released.push({ before: row, after });
    },
    "conversation not released from its assignee",
  );
  if (done.length < held.size) throw new Error("Some conversations of the member could not be released; try again.");
  return released;
}

/**
 * The released conversations told to the live inbox, then those still waiting for a person given round-robin to the
 * agents who may serve them (`assignAfterChange`), as after an operator's unassignment: run once the member can no
 * longer be chosen (removed, or without `conversation.manage`), so none goes back to them.
 */
export async function afterRelease(env: Bindings, db: Db, organizationId: string, released: Released[]) {
  for (const { before, after } of released) {
    const event = lifecycleEvent(before, after, "operator");
    if (event) await publishInboxEvents(env, organizationId, event);
    await assignAfterChange(env, db, before, after);
  }
}

/**
 * After a change to members' permissions (their groups, a group's permissions, a group deleted): the conversations of
 * those of `memberIds` who may no longer serve (`mayServe`) are released, as a removed member's are, and go on to the
 * agents who may (in `background`).
 */
export async function releaseUnserving(
  env: Bindings,
  db: Db,
  organizationId: string,
  memberIds: string[],
  actor: ChangeActor,
  background: { waitUntil(promise: Promise<unknown>): void },
): Promise<void> {
  if (!memberIds.length) return;
  const unserving = await db
    .select({ userId: members.userId })
    .from(members)
    .where(and(eq(members.organizationId, organizationId), inList(members.id, memberIds), not(mayServe(db)!)));
  const released: Released[] = [];
  for (const { userId } of unserving) released.push(...(await releaseAssigned(env, organizationId, userId, actor)));
  if (released.length) background.waitUntil(afterRelease(env, db, organizationId, released));
}
