import type { z } from "@hono/zod-openapi";
import { and, asc, count, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "../env";
import { conversationLabels, conversations, labels } from "../db/schema";
import { badRequest, conflict, isUniqueViolation, notFound } from "../lib/errors";
import { isUuid, uuidv7 } from "../lib/ids";
import { contains } from "../lib/sql";
import { type PageWindow, paginate } from "../db/paginate";
import { writePurges } from "./purges";
import type { LabelPatch, LabelWrite } from "./records/labels";

/** Conversation labels of an organization (CONTRACT section 18): filters of the inbox and of statistics. */
export type LabelRow = typeof labels.$inferSelect;
/** A label as created: the POST body once parsed (its name trimmed). */
export type LabelCreateInput = z.output<typeof LabelWrite>;
/** The fields a PATCH changes. */
export type LabelInput = z.output<typeof LabelPatch>;

/** At most this many labels on one conversation. */
export const MAX_CONVERSATION_LABELS = 20;

const NAME_TAKEN = "A label with this name already exists in the organization.";
const unique = <T>(write: Promise<T>) =>
  write.catch((err) => {
    throw isUniqueViolation(err) ? conflict(NAME_TAKEN) : err;
  });

/** A label of the organization; another organization's (or a malformed id) is a 404. */
export async function getLabel(db: Db, organizationId: string, id: string): Promise<LabelRow> {
  const [row] = isUuid(id)
    ? await db
        .select()
        .from(labels)
        .where(and(eq(labels.id, id), eq(labels.organizationId, organizationId)))
    : [];
  if (!row) throw notFound("Label not found.");
  return row;
}

/** A page of the organization's labels by name; `search`: the name contains it. */
export async function listLabels(db: Db, organizationId: string, search: string | undefined, window: PageWindow) {
  const where = and(eq(labels.organizationId, organizationId), search ? contains(labels.name, search) : undefined);
  return paginate(window, db.select({ n: count() }).from(labels).where(where), ({ limit, offset }) =>
    db.select().from(labels).where(where).orderBy(asc(labels.name), asc(labels.id)).limit(limit).offset(offset),
  );
}

export async function createLabel(db: Db, organizationId: string, input: LabelCreateInput): Promise<LabelRow> {
  const [row] = await unique(
    db
      .insert(labels)
      .values({
        id: uuidv7(),
        organizationId,
        name: input.name,
        color: input.color.toLowerCase(),
        description: input.description ?? "",
      })
      .returning(),
  );
  return row;
}

export async function updateLabel(db: Db, organizationId: string, id: string, input: LabelInput): Promise<LabelRow> {
  const current = await getLabel(db, organizationId, id);
  const [row] = await unique(
    db
      .update(labels)
      .set({ ...input, ...(input.color ? { color: input.color.toLowerCase() } : {}), updatedAt: Date.now() })
      .where(and(eq(labels.id, current.id), eq(labels.organizationId, organizationId)))
      .returning(),
  );
  // Deleted since it was read (a DELETE at the same time): the label is gone, as for a GET now.
  if (!row) throw notFound("Label not found.");
  return row;
}

/**
 * Conversations lose the label with it (its purge in each part of the data plane, `parts`, services/purges.ts). The
 * purge is written again once the label is gone: the housekeeping may have run the first before the label went, and
 * a set that found the label still there (`setConversationLabels` checks after writing) linked it after that run.
 */
export async function deleteLabel(db: Db, parts: Db[], organizationId: string, id: string): Promise<void> {
  const label = await getLabel(db, organizationId, id);
  const purge = [{ organizationId, kind: "label" as const, id: label.id }];
  await writePurges(parts, purge);
  await db.delete(labels).where(eq(labels.id, label.id));
  await writePurges(parts, purge);
}

/** Which of `ids` are labels of the organization now. */
const labelsAmong = (db: Db, organizationId: string, ids: string[]) =>
  db
    .select({ id: labels.id })
    .from(labels)
    .where(and(eq(labels.organizationId, organizationId), inArray(labels.id, ids)));

/**
 * Sets a conversation's labels to exactly `labelIds` (an empty list removes them all). Ids that are
 * not the organization's labels (read on the control plane, `db`) are a 400 naming them, and nothing is written in
 * the data plane (`data`). A label deleted after that read is not linked: the labels are read again once the links
 * are written, and links to those gone are removed (the label's purge may have run before they were written).
 */
export async function setConversationLabels(
  db: Db,
  data: Db,
  organizationId: string,
  conversationId: string,
  labelIds: string[],
): Promise<void> {
  const wanted = [...new Set(labelIds)];
  const found = wanted.length ? await labelsAmong(db, organizationId, wanted) : [];
  const known = new Set(found.map((l) => l.id));
  const unknown = wanted.filter((id) => !known.has(id));
  if (unknown.length) {
    const message = `Not labels of this organization: ${unknown.join(", ")}.`;
    throw badRequest(`Invalid request. labelIds: ${message}`, { labelIds: [message] });
  }
  const now = Date.now();
  // One batch: the old set goes and the new one comes together (D1 runs a batch as a transaction).
  await data
    .batch([
      data.delete(conversationLabels).where(eq(conversationLabels.conversationId, conversationId)),
      ...(wanted.length
        ? [
            data
              .insert(conversationLabels)
              .values(wanted.map((labelId) => ({ conversationId, labelId, organizationId, createdAt: now }))),
          ]
        : []),
    ])
    .catch(async (err) => {
      // The conversation deleted since the caller found it: the links' key to it refuses them (nothing is written),
      // and the set is a 404, as a read after the delete is.
      const [left] = await data
        .select({ id: conversations.id })
        .from(conversations)
        .where(eq(conversations.id, conversationId));
      throw left ? err : notFound();
    });
  if (!wanted.length) return;
  const still = new Set((await labelsAmong(db, organizationId, wanted)).map((l) => l.id));
  const gone = wanted.filter((id) => !still.has(id));
  if (gone.length)
    await data
      .delete(conversationLabels)
      .where(and(eq(conversationLabels.conversationId, conversationId), inArray(conversationLabels.labelId, gone)));
}

export interface LabelRef {
  id: string;
  name: string;
  color: string;
}
/** Conversations carrying the label: the list's `label` filter in the waiting view (other views read the label's links
 * first: services/conversation/views.ts, `selectLabelledRows`). */
export const hasLabel = (labelId: string): SQL =>
  sql`EXISTS (SELECT 1 FROM ${conversationLabels}
    WHERE ${conversationLabels.conversationId} = ${conversations.id} AND ${conversationLabels.labelId} = ${labelId})`;
