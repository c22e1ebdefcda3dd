import { and, inArray, isNotNull, isNull, lt, sql } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { attachments, uploads } from "../../db/schema";
import { getDataDb } from "../../db";
import { allShards } from "../shards";
import { partsElsewhere } from "../shards/parts";
import { deleteObjectsIfUnused } from "./attachments";

const BATCH = 500;

/**
 * Scheduled: deletes uploads never attached once expired, attachments never sent in a conversation
 * once expired, and attachments left behind by a deleted conversation, each with its object (an object stays while
 * some attachment still names it), in every database holding some organization's data plane. A deleted
 * organization's uploads and attachments go with its data rows (services/purges.ts `deleteOrganizationData`).
 */
export async function cleanupUploads(env: Bindings, now = Date.now()) {
  for (const { name, db } of [{ name: "DB" as const, db: env.DB }, ...allShards(env)])
    await cleanupIn(env, getDataDb(db), JSON.stringify(await partsElsewhere(env, name)), now);
}

/**
 * `elsewhere`: the conversations of organizations with several parts that another database holds (JSON of
 * `partsElsewhere`): an attachment naming one is not left behind for not finding it here. Once such a conversation is
 * deleted, the pass that has its object forget its storage deletes its attachments (services/conversation/forget.ts).
 */
async function cleanupIn(env: Bindings, data: Db, elsewhere: string, now: number) {
  const [expiredUploads, expiredAttachments, orphanAttachments] = await data.batch([
    data
      .select({ key: uploads.key })
      .from(uploads)
      .where(and(isNull(uploads.claimedAt), isNotNull(uploads.expiresAt), lt(uploads.expiresAt, now)))
      .limit(BATCH),
    data
      .select({ id: attachments.id, key: attachments.key })
      .from(attachments)
      .where(and(isNull(attachments.conversationId), isNotNull(attachments.expiresAt), lt(attachments.expiresAt, now)))
      .limit(BATCH),
    data
      .select({ id: attachments.id, key: attachments.key })
      .from(attachments)
      .where(
        sql`${attachments.conversationId} IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM conversations c WHERE c.id = ${attachments.conversationId})
          AND NOT EXISTS (SELECT 1 FROM json_each(${elsewhere}) r WHERE r.value ->> 0 = ${attachments.organizationId}
            AND ${attachments.conversationId} >= r.value ->> 1
            AND (r.value ->> 2 = '' OR ${attachments.conversationId} < r.value ->> 2))`,
      )
      .limit(BATCH),
  ]);
  const doomed = [...expiredAttachments, ...orphanAttachments].map((a) => a.id);
  if (doomed.length) await data.delete(attachments).where(inArray(attachments.id, doomed));
  const keys = [...new Set([...expiredUploads, ...expiredAttachments, ...orphanAttachments].map((r) => r.key))];
  for (let i = 0; i < keys.length; i += 90) await deleteObjectsIfUnused(env, data, keys.slice(i, i + 90));
}
