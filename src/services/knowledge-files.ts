import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Bindings, Db } from "../env";
import { knowledgeBaseFileLabels, knowledgeBaseFiles, knowledgeBaseLabels, knowledgeBases } from "../db/schema";
import { fieldError, notFound } from "../lib/errors";
import { isUuid, uuidv7 } from "../lib/ids";
import { chunk } from "../lib/sql";
import type { OrgAccess } from "./access";
import { visibleKnowledgeBasesCondition } from "./knowledge-bases";
import { objectPrefixOf, type IngestionJob } from "./knowledge-content";

export type FileRow = typeof knowledgeBaseFiles.$inferSelect;
type IdName = { id: string; name: string };

/** The one parser of this service; `parser` in requests may name it or be left out. */
export const BUILT_IN_PARSER = {
  id: "00000000-0000-7000-8000-0000000000a1",
  name: "Built-in parser",
  provider: "local",
  isTimestampSttProvider: false,
} as const;

export async function getFile(db: Db, knowledgeBaseId: string, fileId: string): Promise<FileRow> {
  const [row] = isUuid(fileId)
    ? await db
        .select()
        .from(knowledgeBaseFiles)
        .where(and(eq(knowledgeBaseFiles.id, fileId), eq(knowledgeBaseFiles.knowledgeBaseId, knowledgeBaseId)))
    : [];
  if (!row) throw notFound("File not found.");
  return row;
}

/** What a text node shows of its file. */
export type NodeFile = Pick<FileRow, "id" | "filename" | "rawUserDefineMetadata">;

/**
 * The file if its knowledge base is one the caller sees (which also keeps it in the caller's
 * organization); anything else does not exist for them.
 */
export async function getVisibleFile(db: Db, access: OrgAccess, userId: string, fileId: string): Promise<NodeFile> {
  const [file] = isUuid(fileId)
    ? await db
        .select({
          id: knowledgeBaseFiles.id,
          filename: knowledgeBaseFiles.filename,
          rawUserDefineMetadata: knowledgeBaseFiles.rawUserDefineMetadata,
        })
        .from(knowledgeBaseFiles)
        .innerJoin(knowledgeBases, eq(knowledgeBases.id, knowledgeBaseFiles.knowledgeBaseId))
        .where(and(eq(knowledgeBaseFiles.id, fileId), visibleKnowledgeBasesCondition(access, userId)))
    : [];
  if (!file) throw notFound("File not found.");
  return file;
}

/** Labels of each file, by file id. */
export async function fileLabels(db: Db, fileIds: string[]): Promise<Map<string, IdName[]>> {
  const rows = fileIds.length
    ? (
        await Promise.all(
          chunk(fileIds, 90).map((part) =>
            db
              .select({
                fileId: knowledgeBaseFileLabels.fileId,
                id: knowledgeBaseLabels.id,
                name: knowledgeBaseLabels.name,
              })
              .from(knowledgeBaseFileLabels)
              .innerJoin(knowledgeBaseLabels, eq(knowledgeBaseLabels.id, knowledgeBaseFileLabels.labelId))
              .where(inArray(knowledgeBaseFileLabels.fileId, part))
              .orderBy(asc(knowledgeBaseLabels.name)),
          ),
        )
      ).flat()
    : [];
  const out = new Map<string, IdName[]>();
  for (const r of rows) out.set(r.fileId, [...(out.get(r.fileId) ?? []), { id: r.id, name: r.name }]);
  return out;
}

/**
 * The label ids a body names (`[{id}]`), checked to be labels of this knowledge base (else 400
 * naming `labels`): for files and FAQs alike. Undefined when the body does not set labels; null
 * clears them.
 */
export async function checkLabels(
  db: Db,
  knowledgeBaseId: string,
  refs: { id: string }[] | null | undefined,
): Promise<string[] | undefined> {
  if (refs === undefined) return undefined;
  const wanted = [...new Set((refs ?? []).map((l) => l.id))];
  if (!wanted.length) return wanted;
  const found = await db
    .select({ id: knowledgeBaseLabels.id })
    .from(knowledgeBaseLabels)
    .where(
      and(
        eq(knowledgeBaseLabels.knowledgeBaseId, knowledgeBaseId),
        sql`${knowledgeBaseLabels.id} in (select value from json_each(${JSON.stringify(wanted)}))`,
      ),
    );
  const unknown = wanted.filter((id) => !found.some((f) => f.id === id));
  if (unknown.length)
    throw fieldError("labels", `Not labels of this knowledge base: ${unknown.slice(0, 5).join(", ")}.`);
  return wanted;
}

/** Statements replacing a file's labels; 40 links per insert keeps each under D1's 100 bound parameters. */
export function fileLabelStatements(db: Db, fileId: string, labelIds: string[]): BatchItem<"sqlite">[] {
  return [
    db.delete(knowledgeBaseFileLabels).where(eq(knowledgeBaseFileLabels.fileId, fileId)),
    ...chunk(labelIds, 40).map((part) =>
      db.insert(knowledgeBaseFileLabels).values(part.map((labelId) => ({ fileId, labelId }))),
    ),
  ];
}

/** A new file: where its bytes go and the row to insert (status `initial`, generation 1). */
export function newFile(
  knowledgeBaseId: string,
  createdById: string,
  upload: { filename: string; fileType: string; size: number; parserId: string | null },
) {
  const id = uuidv7();
  const safe = upload.filename.replace(/[^\p{L}\p{N}._-]+/gu, "_").slice(-120) || "file";
  const now = Date.now();
  return {
    id,
    knowledgeBaseId,
    createdById,
    filename: upload.filename,
    objectKey: `${objectPrefixOf(knowledgeBaseId)}${id}/${safe}`,
    fileType: upload.fileType,
    size: upload.size,
    parserId: upload.parserId,
    status: "initial" as const,
    queuedAt: now,
    createdAt: now,
    updatedAt: now,
  };
}

/** Queues the parsing of files (one job each, at their current generation). */
export async function enqueueFiles(env: Bindings, files: Pick<FileRow, "id" | "generation">[]) {
  for (const part of chunk(files, 100)) {
    await env.INGESTION_QUEUE.sendBatch(
      part.map((f) => ({ body: { kind: "file", fileId: f.id, generation: f.generation } satisfies IngestionJob })),
    );
  }
}
