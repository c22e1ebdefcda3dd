import { and, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../env";
import { chatbotRecords, contacts } from "../../db/schema";
import type { Page, PageWindow } from "../../db/paginate";
import { contains } from "../../lib/sql";

export interface RecordFilters {
  chatbotId: string;
  start: number;
  end: number;
  userMessage?: string;
  botMessage?: string;
}

/** Most rows an export holds: a year of a busy assistant; narrow the dates for more. */
export const EXPORT_LIMIT = 50_000;

function where(f: RecordFilters): SQL {
  const parts: SQL[] = [
    eq(chatbotRecords.chatbotId, f.chatbotId),
    gte(chatbotRecords.createdAt, f.start),
    lt(chatbotRecords.createdAt, f.end),
  ];
  if (f.userMessage) parts.push(contains(chatbotRecords.inputMessage, f.userMessage));
  if (f.botMessage) parts.push(contains(chatbotRecords.outputMessage, f.botMessage));
  return and(...parts)!;
}

const selectRecords = (db: Db) =>
  db
    // Aliased: D1 batches return rows keyed by column name, where contacts.id would overwrite the record's id.
    .select({
      record: chatbotRecords,
      contact: {
        id: sql<string | null>`${contacts.id}`.as("contact_ref_id"),
        name: sql<string | null>`${contacts.name}`.as("contact_ref_name"),
      },
    })
    .from(chatbotRecords)
    .leftJoin(contacts, eq(contacts.id, chatbotRecords.contactId));

export type ChatbotRecordView = Awaited<ReturnType<ReturnType<typeof selectRecords>["all"]>>[number];

/** One page of an assistant's records, newest question first, with the total count (one round trip). */
export async function listChatbotRecords(
  db: Db,
  f: RecordFilters,
  window: PageWindow,
): Promise<Page<ChatbotRecordView>> {
  const [items, [{ count }]] = await db.batch([
    selectRecords(db)
      .where(where(f))
      .orderBy(desc(chatbotRecords.createdAt), desc(chatbotRecords.id))
      .limit(window.limit)
      .offset(window.offset),
    db.select({ count: sql<number>`count(*)` }).from(chatbotRecords).where(where(f)),
  ]);
  return { count, items };
}

/** Every record matching, newest first, up to EXPORT_LIMIT. */
export const exportChatbotRecords = (db: Db, f: RecordFilters) =>
  selectRecords(db)
    .where(where(f))
    .orderBy(desc(chatbotRecords.createdAt), desc(chatbotRecords.id))
    .limit(EXPORT_LIMIT);
