import { and, inArray, isNotNull, isNull, lt, sql } from "drizzle-orm";
import type { Bindings } from "../../env";
import { getDb } from "../../db";
import { attachments, uploads } from "../../db/schema";
import { deleteObjectsIfUnused } from "./attachments";

const BATCH = 500;

/**
 * Scheduled: deletes uploads never attached once expired, attachments never sent in a conversation
 * once expired, and attachments and uploads left behind by a deleted conversation or organization,
 * each with its object (an object stays while some attachment still names it).
 */
export async function cleanupUploads(env: Bindings, now = Date.now()) {
  const db = getDb(env.DB);
  const [expiredUploads, expiredAttachments, orphanAttachments, orphanUploads] = await db.batch([
    db
      .select({ key: uploads.key })
      .from(uploads)
      .where(and(isNull(uploads.claimedAt), isNotNull(uploads.expiresAt), lt(uploads.expiresAt, now)))
      .limit(BATCH),
    db
      .select({ id: attachments.id, key: attachments.key })
      .from(attachments)
      .where(and(isNull(attachments.conversationId), isNotNull(attachments.expiresAt), lt(attachments.expiresAt, now)))
      .limit(BATCH),
    db
      .select({ id: attachments.id, key: attachments.key })
      .from(attachments)
      .where(
        sql`(${attachments.conversationId} IS NOT NULL
            AND NOT EXISTS (SELECT 1 FROM conversations c WHERE c.id = ${attachments.conversationId}))
          OR NOT EXISTS (SELECT 1 FROM organizations o WHERE o.id = ${attachments.organizationId})`,
      )
      .limit(BATCH),
    db
      .select({ key: uploads.key })
      .from(uploads)
      .where(sql`NOT EXISTS (SELECT 1 FROM organizations o WHERE o.id = ${uploads.organizationId})`)
      .limit(BATCH),
  ]);
  const doomed = [...expiredAttachments, ...orphanAttachments].map((a) => a.id);
  if (doomed.length) await db.delete(attachments).where(inArray(attachments.id, doomed));
  const keys = [
    ...new Set([...expiredUploads, ...orphanUploads, ...expiredAttachments, ...orphanAttachments].map((r) => r.key)),
  ];
  for (let i = 0; i < keys.length; i += 90) await deleteObjectsIfUnused(env, db, keys.slice(i, i + 90));
}
