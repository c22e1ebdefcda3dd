import { and, inArray, isNotNull, lt, or } from "drizzle-orm";
import type { Bindings } from "../env";
import { sealLegacyDatabaseUrls } from "./chatbots/database-url";
import { getDb } from "../db";
import { client } from "../db/prepared";
import { apiKeys, consoleSessions, knowledgeBaseFiles } from "../db/schema";
import { requeueChannelWork, showState, unshownDeliveries } from "./channels/outbound";
import { pruneChannelRows } from "./channels/retention";
import { SESSION_IDLE_MS } from "./console-sessions";
import { requeueStrandedDeliveries } from "./webhooks/delivery";
import { sealLegacyHeaders } from "./webhooks/headers";
import { moveEndedDeliveries } from "./webhooks/segments";
import { moveSettledRecords } from "./statistics/record-segments";
import { moveFinishedToolRecords } from "./tools/record-segments";
import { enqueueFiles } from "./knowledge/files";
import { cleanupUploads } from "./uploads/cleanup";
import { enqueueEvaluations, strandedEvaluations } from "./evaluation/records";
import { requeueStalledBatchQas } from "./batch-qa";
import { rollUpDays } from "./statistics/rollup";
import { forgetExpiredKeys } from "./idempotency";
import {
  backfillSearchTerms,
  expireSearchTerms,
  foldPendingTerms,
  shipPendingTerms,
} from "./conversation/search-terms";
import { allShards, dataDbs } from "./shards";
import { takeOverHandedOver } from "./conversation/handed-over";
import { forgetDeletedConversations } from "./conversation/forget";
import { runPurges } from "./purges";
import { deleteLeftPersonalChatbots } from "./members";
import { deleteLapsedOrganizations } from "./lapsed-plan-cleanup";

const KEEP_DEAD_KEYS_MS = 30 * 86_400_000;
/** A file queued or processing this long has lost its queue message (or its consumer died). */
const STRANDED_FILE_MS = 30 * 60_000;

/**
 * Cron: re-enqueues webhook deliveries the queue never heard of or whose consumer died, tells conversation objects the
 * channel delivery states their messages do not show yet (services/channels/outbound.ts, showState), and
 * knowledge-base files stuck queued or processing, evaluations still pending, and batch QA runs that stopped
 * (src/services/batch-qa); rolls up the usage of ended days (src/services/statistics/rollup.ts); removes API keys that
 * were revoked or expired more than 30 days ago, and console sessions revoked or lapsed as long ago; forgets
 * idempotency keys older than 24 hours; deletes uploads and attachments never used (src/services/uploads/cleanup.ts);
 * indexes the search terms of messages stored before them, folds pending terms in and removes terms 90 days old
 * (src/services/conversation/search-terms.ts); has conversation objects take the messages D1 still holds
 * (src/services/conversation/handed-over.ts); deletes or unlinks the data-plane rows of deleted inboxes, webhooks,
 * labels, assistants, tools and groups (src/services/purges.ts), and has the objects of deleted conversations forget
 * their storage (src/services/conversation/forget.ts); moves delivered webhook deliveries to their R2 segments
 * (src/services/webhooks/segments.ts), settled chatbot records to theirs (src/services/statistics/record-segments.ts)
 * and finished tool execution records to theirs (src/services/tools/record-segments.ts); removes channel events and
 * sent channel deliveries past their time (src/services/channels/retention.ts); deletes the personal assistants whose
 * creator left the organization hosting them, as earlier removals let them stay (src/services/members.ts); with
 * `LAPSED_PLAN_CLEANUP_DAYS`, deletes the organizations whose plan lapsed longer ago
 * (src/services/lapsed-plan-cleanup.ts).
 */
export async function runHousekeeping(env: Bindings, now = Date.now()) {
  const db = getDb(env.DB);
  await requeueStrandedDeliveries(env, now);
  const stranded = await db
    .select({ id: knowledgeBaseFiles.id, generation: knowledgeBaseFiles.generation })
    .from(knowledgeBaseFiles)
    .where(
      and(
        inArray(knowledgeBaseFiles.status, ["initial", "processing"]),
        lt(knowledgeBaseFiles.updatedAt, now - STRANDED_FILE_MS),
      ),
    )
    .limit(500);
  await enqueueFiles(env, stranded);
  for (const data of dataDbs(env)) await enqueueEvaluations(env, await strandedEvaluations(data, now));
  await requeueStalledBatchQas(env, db, now);
  await requeueChannelWork(env, now);
  // Channel delivery states whose message's object was not told (its call failed): told again.
  // Twenty objects at a time: a run may find up to 500 (each call logs its own failure; the next run tries again).
  const unshown = (await Promise.all(dataDbs(env).map((data) => unshownDeliveries(data)))).flat();
  for (let i = 0; i < unshown.length; i += 20)
    await Promise.all(unshown.slice(i, i + 20).map((delivery) => showState(env, delivery)));
  for (const data of dataDbs(env)) await rollUpDays(client(data), now);
  // The backfill reads D1 `messages`: their objects take them over once it is done.
  if (!(await backfillSearchTerms(env.DB))) await takeOverHandedOver(env);
  // Before the purges, which then delete their data-plane rows in the same run.
  await deleteLeftPersonalChatbots(env, db);
  // Before the forgetting: the conversations a purge deletes are forgotten in the same run.
  for (const data of dataDbs(env)) await runPurges(data, now);
  for (const data of dataDbs(env)) await forgetDeletedConversations(env, data);
  await shipPendingTerms(env);
  // Each shard; `DB`'s terms from before the shards are read until they expire.
  for (const { db: shard } of allShards(env)) {
    await foldPendingTerms(shard);
    await expireSearchTerms(shard, now);
  }
  await expireSearchTerms(env.DB, now);
  const before = now - KEEP_DEAD_KEYS_MS;
  await cleanupUploads(env, now);
  await db
    .delete(apiKeys)
    .where(
      or(
        and(isNotNull(apiKeys.revokedAt), lt(apiKeys.revokedAt, before)),
        and(isNotNull(apiKeys.expiresAt), lt(apiKeys.expiresAt, before)),
      ),
    );
  for (const data of dataDbs(env)) await forgetExpiredKeys(data, now);
  await db
    .delete(consoleSessions)
    .where(or(lt(consoleSessions.revokedAt, before), lt(consoleSessions.lastUsedAt, before - SESSION_IDLE_MS)));
  for (const data of dataDbs(env)) await moveEndedDeliveries(env, data, now);
  for (const data of dataDbs(env)) await moveSettledRecords(env, data, now);
  for (const data of dataDbs(env)) await moveFinishedToolRecords(env, data, now);
  for (const data of dataDbs(env)) await pruneChannelRows(data, now);
  await sealLegacyDatabaseUrls(env, db);
  await sealLegacyHeaders(env, db);
  // Last: a malformed LAPSED_PLAN_CLEANUP_DAYS throws (naming it) after the rest of the run is done.
  await deleteLapsedOrganizations(env, db, now);
}
