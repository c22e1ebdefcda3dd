import { and, eq, inArray } from "drizzle-orm";
import { dataDb } from "../shards";
import type { Bindings, Db } from "../../env";
import { attachments } from "../../db/schema";
import type { messages } from "../../db/schema";
import { parseDocument } from "../parsing";
import type { AttachmentPart } from "../llm/types";
import type { AttachmentRow } from "../records/attachments";
import { logWarn } from "../../lib/log";
import { toBase64 } from "../../lib/base64";

type MessageRow = typeof messages.$inferSelect;

/** Text kept per document, and for all of a conversation's documents together. */
const MAX_DOCUMENT_CHARS = 20_000;
const MAX_CONTEXT_CHARS = 60_000;
/** Images up to this size go to the model inline, as data URLs (no URL of ours need be reachable). */
const MAX_INLINE_IMAGE_BYTES = 4 * 1024 * 1024;

/**
 * Reads the text of the documents among `rows` still `pending` after the answer (in `waitUntil`): a reply that needs
 * one then waits for it or reads it itself (extractAttachment writes it once). An error is logged.
 */
export function extractLater(
  env: Bindings,
  data: Db,
  waitUntil: (p: Promise<unknown>) => void,
  rows: AttachmentRow[],
): void {
  for (const row of rows)
    if (row.extractionStatus === "pending")
      waitUntil(extractAttachment(env, data, row).catch((err) => console.error(String(err))));
}

/**
 * Extracts a document attachment's text with the knowledge parsers, once: only a row still
 * `pending` is written, so concurrent runs agree. Returns the row as it now is.
 */
export async function extractAttachment(env: Bindings, data: Db, row: AttachmentRow): Promise<AttachmentRow> {
  if (row.extractionStatus !== "pending") return row;
  let update: Pick<AttachmentRow, "extractionStatus" | "extractedText" | "extractionError">;
  try {
    const object = await env.FILES.get(row.key);
    if (!object) throw new Error("The file is no longer stored.");
    const doc = await parseDocument(new Uint8Array(await object.arrayBuffer()), row.filename, row.contentType);
    const text = doc.pages
      .map((p) => p.text.trim())
      .filter(Boolean)
      .join("\n\n")
      .slice(0, MAX_DOCUMENT_CHARS);
    update = { extractionStatus: "done", extractedText: text, extractionError: null };
  } catch (err) {
    // The file's status says it failed; the log says why, a fault of ours included (a parser's bug is not the file's).
    logWarn("attachment not extracted", { attachmentId: row.id, error: String(err) });
    update = {
      extractionStatus: "failed",
      extractedText: null,
      extractionError: String((err as Error)?.message ?? err).slice(0, 500),
    };
  }
  await data
    .update(attachments)
    .set(update)
    .where(and(eq(attachments.id, row.id), eq(attachments.extractionStatus, "pending")));
  return { ...row, ...update };
}

const idsOf = (m: Pick<MessageRow, "attachments">) =>
  (m.attachments ?? []).map((a) => a.id).filter((id): id is string => typeof id === "string");

/**
 * What the model gets from attachments for a reply: the images of the incoming message (inline as
 * data URLs), and the text of every document attached in the conversation so far. `wait` extracts
 * documents still pending first; without it they are left out. Costs nothing (no read) when neither
 * the message nor the recent history carries an attachment of ours.
 */
export async function attachmentParts(
  env: Bindings,
  incoming: MessageRow,
  history: Pick<MessageRow, "attachments">[],
  wait: boolean,
): Promise<AttachmentPart[]> {
  const incomingIds = new Set(idsOf(incoming));
  if (!incomingIds.size && !history.some((m) => idsOf(m).length)) return [];
  // Files are the organization's, in its own shard (not the conversation's part: services/shards/parts.ts).
  const data = await dataDb(env, incoming.organizationId);
  const rows = await data
    .select()
    .from(attachments)
    .where(
      and(
        eq(attachments.organizationId, incoming.organizationId),
        eq(attachments.conversationId, incoming.conversationId),
      ),
    )
    .orderBy(attachments.createdAt);
  const missing = [...incomingIds].filter((id) => !rows.some((r) => r.id === id));
  if (missing.length)
    rows.push(
      ...(await data
        .select()
        .from(attachments)
        .where(and(eq(attachments.organizationId, incoming.organizationId), inArray(attachments.id, missing)))),
    );
  const parts: AttachmentPart[] = [];
  let budget = MAX_CONTEXT_CHARS;
  for (let row of rows) {
    if (row.extractionStatus === "pending" && wait) row = await extractAttachment(env, data, row);
    if (row.extractionStatus === "done" && row.extractedText && budget > 0) {
      const text = row.extractedText.slice(0, budget);
      budget -= text.length;
      parts.push({ kind: "document", filename: row.filename, contentType: row.contentType, text });
    } else if (row.type === "image" && incomingIds.has(row.id)) {
      parts.push({
        kind: "image",
        filename: row.filename,
        contentType: row.contentType,
        url: await inlineImage(env, row),
      });
    } else if (incomingIds.has(row.id) && row.extractionStatus !== "pending") {
      parts.push({
        kind: "file",
        filename: row.filename,
        contentType: row.contentType,
        text: row.extractionError ?? undefined,
      });
    }
  }
  return parts;
}

async function inlineImage(env: Bindings, row: AttachmentRow): Promise<string | undefined> {
  if (row.size > MAX_INLINE_IMAGE_BYTES) return undefined;
  const object = await env.FILES.get(row.key);
  if (!object) return undefined;
  const bytes = new Uint8Array(await object.arrayBuffer());
  return `data:${row.contentType};base64,${toBase64(bytes)}`;
}
