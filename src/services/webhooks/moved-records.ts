import { and, desc, eq, gte, lte, sql, type SQL } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import { chatbots, webhookDeliverySegments, webhooks } from "../../db/schema";
import { parseDate } from "../../lib/time";
import { inList } from "../../lib/sql";
import type { DeliveryFilter, DeliveryRow, DeliveryScope, DeliveryView } from "./config";
import { readSegment, type SegmentLine } from "./segments";

/**
 * The readers' side of the segments (segments.ts): which segments a list or a record lookup must consider, and the
 * moved records as the lists show them, with their webhook's and assistant's names as they are now.
 */

type Bucket = Pick<Bindings, "FILES">;
const s = webhookDeliverySegments;

/** Newest first, as the lists order: `createdAt`, then id, descending. */
export const newestFirst = (a: DeliveryView, b: DeliveryView) =>
  b.delivery.createdAt - a.delivery.createdAt ||
  (a.delivery.id < b.delivery.id ? 1 : a.delivery.id > b.delivery.id ? -1 : 0);

/**
 * The organization's segments that may hold records of the list, newest hour first, each with how many of its
 * records the scope, the status, the webhook and the dates select (its counts; dates are whole days, so whole
 * hours). The event filter is not counted: `n` is then an upper bound.
 */
export function listedSegments(
  db: Db,
  organizationId: string,
  scope: DeliveryScope | { chatbotId: string; webhookIds: string[] },
  f: DeliveryFilter,
) {
  const part = (i: number) => sql.raw(`json_extract(j.value, '$[${i}]')`);
  const matches: SQL[] = [
    "webhookId" in scope
      ? sql`${part(0)} = ${scope.webhookId}`
      : // The assistant's list shows only records of webhooks that still exist (D1's rows go with their webhook): the
        // organization's webhooks, read apart (`webhookIds`) as they are configuration (docs/scale.md §5 step 4).
        and(sql`${part(1)} = ${scope.chatbotId}`, inList(part(0), "webhookIds" in scope ? scope.webhookIds : []))!,
  ];
  if (f.status) matches.push(sql`${part(2)} = ${f.status}`);
  if (f.webhook) matches.push(sql`${part(0)} = ${f.webhook}`);
  const n = sql<number>`(select coalesce(sum(${part(3)}), 0) from json_each(${s.counts}) as j
    where ${sql.join(matches, sql` and `)})`;
  return db
    .select({ key: s.key, hour: s.hour, n })
    .from(s)
    .where(
      and(
        eq(s.organizationId, organizationId),
        f.startDate ? gte(s.hour, parseDate(f.startDate)) : undefined,
        f.endDate ? lte(s.hour, parseDate(f.endDate, true)) : undefined,
      ),
    )
    .orderBy(desc(s.hour), desc(s.key));
}

/** The organization's segments whose id range holds `id` (ids are time-ordered: usually one). */
export const segmentsHolding = (db: Db, organizationId: string, id: string) =>
  db
    .select({ key: s.key, hour: s.hour, n: s.records })
    .from(s)
    .where(and(eq(s.organizationId, organizationId), lte(s.minId, id), gte(s.maxId, id)));

type SegmentRef = { key: string; hour: number; n: number };

/**
 * The moved records a list's first `end` items can include, and how many moved records it has. Segments are read
 * newest hour first until they hold `end` of its records (known from their counts, unless the event filter is
 * given): every record of an older hour is older than those, so older segments are not read.
 */
export async function movedDeliveries(
  env: Bucket,
  db: Db,
  organizationId: string,
  scope: DeliveryScope,
  f: DeliveryFilter,
  refs: SegmentRef[],
  end: number,
): Promise<{ count: number; items: DeliveryView[] }> {
  const holding = refs.filter((r) => r.n > 0);
  const counted = !f.eventId;
  let read = holding;
  if (counted) {
    let seen = 0;
    const last = holding.find((r) => (seen += r.n) >= end);
    if (last) read = holding.filter((r) => r.hour >= last.hour);
  }
  const lines = (await Promise.all(read.map((r) => readSegment(env, r.key)))).flat();
  const items = await deliveryViews(
    db,
    organizationId,
    lines.filter((line) => listShows(line, scope, f)),
  );
  return { count: counted ? holding.reduce((sum, r) => sum + r.n, 0) : items.length, items };
}

/** The moved record `id` in `scope`, from the segments that may hold it (none or one view). */
export async function movedRecord(
  env: Bucket,
  db: Db,
  organizationId: string,
  scope: DeliveryScope,
  id: string,
  holders: SegmentRef[],
): Promise<DeliveryView[]> {
  const lines = (await Promise.all(holders.map((r) => readSegment(env, r.key)))).flat();
  return deliveryViews(
    db,
    organizationId,
    lines.filter((line) => line.id === id && listShows(line, scope, {})),
  );
}

function listShows(line: SegmentLine, scope: DeliveryScope, f: DeliveryFilter): boolean {
  return (
    ("webhookId" in scope ? line.webhookId === scope.webhookId : line.chatbotId === scope.chatbotId) &&
    (!f.status || line.status === f.status) &&
    (!f.startDate || line.createdAt >= parseDate(f.startDate)) &&
    (!f.endDate || line.createdAt <= parseDate(f.endDate, true)) &&
    (!f.webhook || line.webhookId === f.webhook) &&
    (!f.eventId || line.messageId === f.eventId || line.conversationEventId === f.eventId)
  );
}

/**
 * Delivery records as the lists show them, with their webhook, dropped when it is gone, and their assistant, null
 * when it is gone: D1's rows, or moved ones (segments.ts keeps the row as it was, with its event's last attempt number
 * beside it). The names are read by id in one batch, as configuration kept apart from the records.
 */
export async function deliveryViews(
  db: Db,
  organizationId: string,
  rows: (DeliveryRow & { eventAttempts?: number })[],
): Promise<DeliveryView[]> {
  if (!rows.length) return [];
  const ids = (key: "webhookId" | "chatbotId") => [...new Set(rows.flatMap((l) => (l[key] ? [l[key]] : [])))];
  const [hooks, bots] = await db.batch([
    db
      .select({ id: webhooks.id, name: webhooks.name })
      .from(webhooks)
      .where(and(eq(webhooks.organizationId, organizationId), inList(webhooks.id, ids("webhookId")))),
    db
      .select({ id: chatbots.id, name: chatbots.name })
      .from(chatbots)
      .where(and(eq(chatbots.organizationId, organizationId), inList(chatbots.id, ids("chatbotId")))),
  ]);
  const hookById = new Map(hooks.map((h) => [h.id, h]));
  const botById = new Map(bots.map((b) => [b.id, b]));
  return rows.flatMap(({ eventAttempts, ...delivery }) => {
    const webhook = hookById.get(delivery.webhookId);
    if (!webhook) return [];
    const chatbot = (delivery.chatbotId && botById.get(delivery.chatbotId)) || null;
    const view: DeliveryView = { delivery: { ...delivery, chatbotId: chatbot?.id ?? null }, webhook, chatbot };
    return [eventAttempts === undefined ? view : { ...view, eventAttempts }];
  });
}
