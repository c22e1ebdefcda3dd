// A deleted conversation's messages live in its object's storage, not in D1 (docs/decisions.md, "Messages in the
// conversation object"): the batch that deletes conversations (with their inbox, assistant or organization) names
// them in `forgotten_conversations`, and the housekeeping cron has each object forget its storage.
import { eq, inArray, sql, type SQL } from "drizzle-orm";
import { conversations, forgottenConversations } from "../../db/schema";
import type { Bindings, Db } from "../../env";
import { chunk } from "../../lib/sql";
import { eachConversationObject } from "../conversations";
import { dataDbs } from "../shards";
import { deleteConversationAttachments } from "../uploads/attachments";

/** How many deleted conversations one run forgets at most. */
const PER_RUN = 500;

/** For a delete's batch, before the delete: the conversations `where` takes, named to forget. */
const forgetWhere = (db: Db, where: SQL | undefined) =>
  db
    .insert(forgottenConversations)
    .select(
      db
        .select({ conversationId: conversations.id, forgottenAt: sql<number>`${Date.now()}`.as("forgotten_at") })
        .from(conversations)
        .where(where),
    )
    .onConflictDoNothing();

export const forgetInboxConversations = (db: Db, inboxId: string) =>
  forgetWhere(db, eq(conversations.inboxId, inboxId));

export const forgetOrganizationConversations = (db: Db, organizationId: string) =>
  forgetWhere(db, eq(conversations.organizationId, organizationId));

/**
 * Has the objects of up to `perRun` deleted conversations forget their storage (Conversation.forget), then drops
 * their names; an object that fails is logged and asked again by a later run. Returns how many were forgotten. `db`:
 * a database of organizations' data planes (each of `dataDbs` in turn), where the names are; the objects' forget
 * reads no D1.
 */
export async function forgetDeletedConversations(env: Bindings, db: Db, { perRun = PER_RUN } = {}): Promise<number> {
  const named = await db
    .select({ id: forgottenConversations.conversationId })
    .from(forgottenConversations)
    .limit(perRun);
  const done = await eachConversationObject(
    env,
    named.map((n) => n.id),
    (object, id) => object.forget(id),
    "deleted conversation not forgotten",
  );
  for (const part of chunk(done)) {
    // A conversation of an organization's later part has its attachments in the organization's own shard, another
    // database, whose sweep of attachments left behind does not see it (services/uploads/cleanup.ts): they go now.
    for (const other of dataDbs(env)) if (other !== db) await deleteConversationAttachments(env, other, part);
    await db.delete(forgottenConversations).where(inArray(forgottenConversations.conversationId, part));
  }
  return done.length;
}
