import { sql } from "drizzle-orm";
import type { Db } from "../env";
import { organizationUsage } from "../db/schema";
import { prepared } from "../db/prepared";
import { currentMonth } from "./organizations";

const addUsage = prepared<{
  organizationId: string;
  month: string;
  words: number;
  conversations: number;
}>((db) =>
  db
    .insert(organizationUsage)
    .values({
      organizationId: sql.placeholder("organizationId"),
      month: sql.placeholder("month"),
      wordsCount: sql.placeholder("words"),
      conversationsCount: sql.placeholder("conversations"),
    })
    .onConflictDoUpdate({
      target: [organizationUsage.organizationId, organizationUsage.month],
      set: {
        wordsCount: sql`${organizationUsage.wordsCount} + ${sql.placeholder("words")}`,
        conversationsCount: sql`${organizationUsage.conversationsCount} + ${sql.placeholder("conversations")}`,
      },
    }),
);

/** Statement adding to an organization's usage of the current month (upsert), for a batch (`batch` in db/prepared.ts)
 * or `.run()`. */
export function usageIncrement(
  db: Db,
  organizationId: string,
  add: { words?: number; conversations?: number },
  now = Date.now(),
): D1PreparedStatement {
  return addUsage(db, {
    organizationId,
    month: currentMonth(now),
    words: add.words ?? 0,
    conversations: add.conversations ?? 0,
  });
}
