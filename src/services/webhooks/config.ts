import { and, count, desc, eq, gte, lte, or, type SQL } from "drizzle-orm";
import type { Bindings, Db } from "../../env";
import {
  inboxes,
  webhookDeliveries,
  webhooks,
  type DELIVERY_STATUSES,
  type WEBHOOK_DIRECTIONS,
  type WEBHOOK_PRESETS,
} from "../../db/schema";
import { cannotOpen, decryptSecret, encryptSecret, maskSecret } from "../../lib/crypto";
import { fieldError, notFound } from "../../lib/errors";
import { mapPage, type Page, type PageWindow, paginate } from "../../db/paginate";
import { isUuid, uuidv7 } from "../../lib/ids";
import { headersToStore } from "../../lib/masked-headers";
import { inList } from "../../lib/sql";
import { outboundAllowedHosts, webhookUrlProblem } from "../../lib/ssrf";
import { parseDate } from "../../lib/time";
import { sealedHeaders } from "./headers";
import { validateCustomTemplate } from "./templates";
import {
  deliveryViews,
  listedSegments,
  movedDeliveries,
  movedRecord,
  newestFirst,
  segmentsHolding,
} from "./moved-records";
import { findById } from "../../db/find";
import { pageAcrossParts, sqlOrder } from "../shards/parts-merge";
import { dataParts } from "../shards/parts";
import { deliveryRecord, type WebhookDeliveryRecord } from "../records/webhook-deliveries";
import { writePurges } from "../purges";

export type WebhookRow = typeof webhooks.$inferSelect;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type IdName = { id: string; name: string };

/** A webhook with the inbox it belongs to. */
export interface WebhookView {
  webhook: WebhookRow;
  inbox: IdName;
}

/** The inbox named in the path, if it is one of the organization's (404 otherwise). */
export async function requireInbox(db: Db, organizationId: string, inboxId: string): Promise<IdName> {
  return findById(inboxId, "Inbox not found.", () =>
    db
      .select({ id: inboxes.id, name: inboxes.name })
      .from(inboxes)
      .where(and(eq(inboxes.id, inboxId), eq(inboxes.organizationId, organizationId))),
  );
}

/** Webhooks joined with their inbox; callers add the organization filter. */
export const selectWebhooks = (db: Db) =>
  db
    .select({ webhook: webhooks, inbox: { id: inboxes.id, name: inboxes.name } })
    .from(webhooks)
    .innerJoin(inboxes, eq(inboxes.id, webhooks.inboxId));

/** A webhook of an inbox of the organization; the inbox first, so each miss says what is missing. */
export async function getWebhook(
  db: Db,
  organizationId: string,
  inboxId: string,
  webhookId: string,
): Promise<WebhookView> {
  const inbox = await requireInbox(db, organizationId, inboxId);
  return findById(webhookId, "Webhook not found.", () =>
    selectWebhooks(db).where(
      and(eq(webhooks.id, webhookId), eq(webhooks.inboxId, inbox.id), eq(webhooks.organizationId, organizationId)),
    ),
  );
}

/** What a save must satisfy beyond field shapes: an allowed URL, and a template that renders to JSON. */
export function checkWebhookRules(
  env: Pick<Bindings, "WEBHOOK_ALLOWED_HOSTS" | "OUTBOUND_ALLOWED_HOSTS">,
  values: {
    url?: string;
    templatePreset: (typeof WEBHOOK_PRESETS)[number];
    customTemplate?: string | null;
    storedTemplate: string | null;
    direction: (typeof WEBHOOK_DIRECTIONS)[number];
    conversationEvents: boolean;
  },
): void {
  if (values.url !== undefined) {
    const problem = webhookUrlProblem(values.url, outboundAllowedHosts(env));
    if (problem) throw fieldError("url", problem);
  }
  const template = values.customTemplate === undefined ? values.storedTemplate : values.customTemplate;
  if (values.templatePreset === "custom" && !template?.trim()) {
    throw fieldError("customTemplate", "Required when templatePreset is custom.");
  }
  // Lifecycle events are pushed: a webhook that receives has none, and Genesys' inbound message has no shape for them.
  if (values.conversationEvents && values.direction === "receive")
    throw fieldError("conversationEvents", "Only webhooks that push (incoming, outgoing) send lifecycle events.");
  if (values.conversationEvents && values.templatePreset === "genesys_cloud") {
    throw fieldError(
      "conversationEvents",
      "The genesys_cloud preset sends messages only; choose another preset to send lifecycle events.",
    );
  }
  // A template sent with another preset is kept for later, so it must be valid all the same.
  if (values.customTemplate) {
    const problem = validateCustomTemplate(values.customTemplate, values.conversationEvents);
    if (problem) throw fieldError("customTemplate", problem);
  } else if (values.templatePreset === "custom" && values.conversationEvents && template) {
    // Turning lifecycle events on for a stored template: it must render them too.
    const problem = validateCustomTemplate(template, true);
    if (problem) throw fieldError("conversationEvents", problem);
  }
}

/** `secretToken` as sent -> the column: left out stays (undefined), null removes, a value is sealed. */
export async function sealSecretToken(value: string | null | undefined, env: Pick<Bindings, "ENCRYPTION_KEY">) {
  if (value === undefined || value === null) return value;
  return encryptSecret(value, env.ENCRYPTION_KEY);
}

/** The secret is decrypted only to mask it; a seal that no longer opens still shows that one is set. */
export async function secretTokenPreview(
  row: WebhookRow,
  env: Pick<Bindings, "ENCRYPTION_KEY">,
): Promise<string | null> {
  if (!row.secretTokenSealed) return null;
  const plain = await decryptSecret(row.secretTokenSealed, env.ENCRYPTION_KEY).catch((err) => {
    if (!cannotOpen(err)) throw err;
    return null;
  });
  return maskSecret(plain) ?? "••••";
}

/** One delivery record with the webhook it went to and the assistant whose message it carried. */
export interface DeliveryView {
  delivery: DeliveryRow;
  webhook: IdName;
  /** Null when the delivery names no assistant or the assistant is gone. */
  chatbot: IdName | null;
  /** Only for a record read from a segment: its event's last attempt number when the event moved. */
  eventAttempts?: number;
}

export interface DeliveryFilter {
  status?: (typeof DELIVERY_STATUSES)[number];
  /** `YYYY-MM-DD`, inclusive, UTC. */
  startDate?: string;
  endDate?: string;
  webhook?: string;
  eventId?: string;
}

/** Conditions of the record list filters; callers add the organization and the webhook or assistant. */
export function deliveryConditions(f: DeliveryFilter): (SQL | undefined)[] {
  return [
    f.status ? eq(webhookDeliveries.status, f.status) : undefined,
    f.startDate ? gte(webhookDeliveries.createdAt, parseDate(f.startDate)) : undefined,
    f.endDate ? lte(webhookDeliveries.createdAt, parseDate(f.endDate, true)) : undefined,
    f.webhook ? eq(webhookDeliveries.webhookId, f.webhook) : undefined,
    f.eventId
      ? or(eq(webhookDeliveries.messageId, f.eventId), eq(webhookDeliveries.conversationEventId, f.eventId))
      : undefined,
  ];
}

/** The ids of the organization's webhooks. */
const webhookIdsOf = async (db: Db, organizationId: string) =>
  (await db.select({ id: webhooks.id }).from(webhooks).where(eq(webhooks.organizationId, organizationId))).map(
    (w) => w.id,
  );

/** Whose delivery records: one webhook's, or those of one assistant's messages. */
export type DeliveryScope = { webhookId: string } | { chatbotId: string };

const deliveryScope = (scope: DeliveryScope) =>
  "webhookId" in scope
    ? eq(webhookDeliveries.webhookId, scope.webhookId)
    : eq(webhookDeliveries.chatbotId, scope.chatbotId);

/**
 * A page of the organization's delivery records in `scope`, filtered, newest first: D1's rows and moved ones. The
 * records and segments are read on each of its data parts and merged, the webhooks and assistants they name on `db`.
 */
export async function listDeliveries(
  env: Bindings,
  db: Db,
  organizationId: string,
  scope: DeliveryScope,
  filter: DeliveryFilter,
  window: PageWindow,
): Promise<Page<WebhookDeliveryRecord>> {
  // The assistant's list counts records of the organization's webhooks only, D1's and moved ones alike: their ids
  // read first, as configuration apart from the records (docs/scale.md §5 step 4); a deleted webhook's rows wait for
  // their purge (services/purges.ts) out of sight.
  const webhookIds = "webhookId" in scope ? null : await webhookIdsOf(db, organizationId);
  const page = await pageAcrossParts(
    await dataParts(env, organizationId),
    window,
    (data, w) => partDeliveries(env, db, data, organizationId, scope, webhookIds, filter, w),
    sqlOrder((v: DeliveryView) => [v.delivery.createdAt, v.delivery.id], true),
  );
  return mapPage(page, deliveryRecord);
}

/** The list's window on one data part (`data`): its D1 rows and its segments. */
async function partDeliveries(
  env: Pick<Bindings, "FILES">,
  db: Db,
  data: Db,
  organizationId: string,
  scope: DeliveryScope,
  webhookIds: string[] | null,
  filter: DeliveryFilter,
  window: PageWindow,
): Promise<Page<DeliveryView>> {
  const where = and(
    eq(webhookDeliveries.organizationId, organizationId),
    deliveryScope(scope),
    webhookIds ? inList(webhookDeliveries.webhookId, webhookIds) : undefined,
    ...deliveryConditions(filter),
  );
  const total = data.select({ n: count() }).from(webhookDeliveries).where(where);
  const rows = ({ limit, offset }: PageWindow) =>
    data
      .select()
      .from(webhookDeliveries)
      .where(where)
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(limit)
      .offset(offset);
  const segments = listedSegments(data, organizationId, webhookIds ? { ...scope, webhookIds } : scope, filter);
  const [[first], items, listed] = await data.batch([total, rows(window), segments]);
  if (!listed.some((s) => s.n > 0))
    return { count: first?.n ?? 0, items: await deliveryViews(db, organizationId, items) };
  // D1's newest rows up to the page's end with the segments, again from one snapshot: a move committed between
  // the two batches would otherwise show a record twice or not at all.
  const end = window.offset + window.limit;
  const [[inD1], newest, refs] = await data.batch([total, rows({ limit: end, offset: 0 }), segments]);
  const moved = await movedDeliveries(env, db, organizationId, scope, filter, refs, end);
  return {
    count: (inD1?.n ?? 0) + moved.count,
    items: [...(await deliveryViews(db, organizationId, newest)), ...moved.items]
      .sort(newestFirst)
      .slice(window.offset, end),
  };
}

/**
 * One delivery record of the organization in `scope` (its webhook or its assistant), in D1 or moved, else 404: read
 * on `data` (its data plane), with the names of its webhook and assistant from `db`.
 */
export async function getDelivery(
  env: Pick<Bindings, "FILES">,
  db: Db,
  /** The organization's data parts: a delivery's id does not say which holds it, so each is asked at once. */
  parts: Db[],
  organizationId: string,
  id: string,
  scope: DeliveryScope,
): Promise<DeliveryView> {
  if (!isUuid(id)) throw notFound("Webhook record not found.");
  const read = await Promise.all(
    parts.map((data) =>
      data.batch([
        data
          .select()
          .from(webhookDeliveries)
          .where(
            and(
              eq(webhookDeliveries.id, id),
              eq(webhookDeliveries.organizationId, organizationId),
              deliveryScope(scope),
            ),
          ),
        segmentsHolding(data, organizationId, id),
      ]),
    ),
  );
  const rows = read.flatMap(([found]) => found);
  const holders = read.flatMap(([, segments]) => segments);
  const [row] = await deliveryViews(db, organizationId, rows);
  if (row) return row;
  const [found] = await movedRecord(env, db, organizationId, scope, id, holders);
  if (!found) throw notFound("Webhook record not found.");
  return found;
}

/** A delivery record of a webhook of an inbox of the organization, with that webhook (404 for any miss). */
export async function getWebhookDelivery(
  env: Pick<Bindings, "FILES">,
  db: Db,
  parts: Db[],
  organizationId: string,
  inboxId: string,
  webhookId: string,
  recordId: string,
) {
  const { webhook } = await getWebhook(db, organizationId, inboxId, webhookId);
  const record = await getDelivery(env, db, parts, organizationId, recordId, { webhookId: webhook.id });
  return { webhook, record };
}

/** A page of an inbox's webhooks, newest first. */
export function listWebhooks(
  db: Db,
  organizationId: string,
  inboxId: string,
  direction: (typeof WEBHOOK_DIRECTIONS)[number] | undefined,
  window: PageWindow,
) {
  const where = and(
    eq(webhooks.organizationId, organizationId),
    eq(webhooks.inboxId, inboxId),
    direction ? eq(webhooks.direction, direction) : undefined,
  );
  return paginate(window, db.select({ n: count() }).from(webhooks).where(where), ({ limit, offset }) =>
    selectWebhooks(db).where(where).orderBy(desc(webhooks.createdAt), desc(webhooks.id)).limit(limit).offset(offset),
  );
}

type WebhookValues = Omit<
  typeof webhooks.$inferInsert,
  "id" | "organizationId" | "inboxId" | "secretTokenSealed" | "headersSealed" | "headersMasked"
>;

/** Stores a new webhook of an inbox (its secret token and its headers sealed) and returns its id. */
export async function insertWebhook(
  db: Db,
  env: Pick<Bindings, "ENCRYPTION_KEY">,
  organizationId: string,
  inboxId: string,
  values: WebhookValues,
  secretToken: string | null | undefined,
): Promise<string> {
  const id = uuidv7();
  const { headers, ...rest } = values;
  await db.insert(webhooks).values({
    ...rest,
    id,
    organizationId,
    inboxId,
    ...(await sealedHeaders(env, headersToStore("headers", headers ?? {}, null, true))),
    secretTokenSealed: (await sealSecretToken(secretToken, env)) ?? null,
  });
  return id;
}

/**
 * Deletes the organization's webhook; its deliveries are purged (services/purges.ts: the purge on `data` first, and
 * again once the webhook is gone: a delivery queued by a message that found it after the housekeeping ran the first
 * was written after that run).
 */
export async function deleteWebhook(db: Db, parts: Db[], organizationId: string, id: string) {
  const purge = [{ organizationId, kind: "webhook" as const, id }];
  await writePurges(parts, purge);
  await db.delete(webhooks).where(and(eq(webhooks.id, id), eq(webhooks.organizationId, organizationId)));
  await writePurges(parts, purge);
}
