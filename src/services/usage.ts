import { sql } from "drizzle-orm";
import type { Db } from "../env";
import { organizationUsage } from "../db/schema";
import { currentMonth } from "./organizations";

/** Statement adding to an organization's usage of the current month (upsert), for db.batch. */
export function usageIncrement(db: Db, organizationId: string, add: { words?: number; conversations?: number; uploadedBytes?: number }, now = Date.now()) {
  const words = add.words ?? 0;
  const conversations = add.conversations ?? 0;
  const uploadedBytes = add.uploadedBytes ?? 0;
  return db
    .insert(organizationUsage)
    .values({ organizationId, month: currentMonth(now), wordsCount: words, conversationsCount: conversations, uploadedBytes })
    .onConflictDoUpdate({
      target: [organizationUsage.organizationId, organizationUsage.month],
      set: {
        wordsCount: sql`${organizationUsage.wordsCount} + ${words}`,
        conversationsCount: sql`${organizationUsage.conversationsCount} + ${conversations}`,
        uploadedBytes: sql`${organizationUsage.uploadedBytes} + ${uploadedBytes}`,
      },
    });
}
