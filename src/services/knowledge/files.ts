import { and, asc, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Bindings, Db } from "../../env";
import { type PageWindow, newestFirstPage } from "../../db/paginate";
import { knowledgeBaseFileLabels, knowledgeBaseFiles, knowledgeBaseLabels, knowledgeBases } from "../../db/schema";
import { fieldError, notFound } from "../../lib/errors";
import { isUuid, uuidv7 } from "../../lib/ids";
import { chunk, contains, inList } from "../../lib/sql";
import { sendAll } from "../../lib/queues";
import type { OrgAccess } from "../access";
import { type KnowledgeBaseRow, visibleKnowledgeBasesCondition } from "./knowledge-bases";
import { objectPrefixOf, refuseFilesNotOf, type IngestionJob } from "./content";
import type { Upload } from "./uploads";
import { fileRecord } from "../records/knowledge-files";
import { linkedNames } from "../view-parts";
import { findById } from "../../db/find";
import { deleteObjectsIfUnused, unattachedUploads } from "../uploads/attachments";
import {
  type ControlPlaneCap,
  pastControlPlaneCap,
  pastControlPlaneRoom,
  requireControlPlaneRoom,
} from "../uploads/allowance";

export { FILE_STATUSES } from "../../db/schema";

export type FileRow = typeof knowledgeBaseFiles.$inferSelect;

export { BUILT_IN_PARSER } from "../parsing";

export async function getFile(db: Db, knowledgeBaseId: string, fileId: string): Promise<FileRow> {
  return findById(fileId, "File not found.", () =>
    db
      .select()
      .from(knowledgeBaseFiles)
      .where(and(eq(knowledgeBaseFiles.id, fileId), eq(knowledgeBaseFiles.knowledgeBaseId, knowledgeBaseId))),
  );
}

/** What a text node shows of its file. */
export type NodeFile = Pick<FileRow, "id" | "filename" | "rawUserDefineMetadata">;

/**
 * The file if its knowledge base is one the caller sees (which also keeps it in the caller's organization);
 * undefined for anything else, which does not exist for them. The columns are those its text nodes show and those
 * a SQL table made from it reads.
 */
export async function findVisibleFile(db: Db, access: OrgAccess, userId: string, fileId: string) {
  if (!isUuid(fileId)) return undefined;
  const [file] = await db
    .select({
      id: knowledgeBaseFiles.id,
      filename: knowledgeBaseFiles.filename,
      rawUserDefineMetadata: knowledgeBaseFiles.rawUserDefineMetadata,
      objectKey: knowledgeBaseFiles.objectKey,
      size: knowledgeBaseFiles.size,
    })
    .from(knowledgeBaseFiles)
    .innerJoin(knowledgeBases, eq(knowledgeBases.id, knowledgeBaseFiles.knowledgeBaseId))
    .where(and(eq(knowledgeBaseFiles.id, fileId), visibleKnowledgeBasesCondition(access, userId)));
  return file;
}

/** The file as its text nodes show it, if the caller sees it; 404 otherwise. */
export async function getVisibleFile(db: Db, access: OrgAccess, userId: string, fileId: string): Promise<NodeFile> {
  const file = await findVisibleFile(db, access, userId, fileId);
  if (!file) throw notFound("File not found.");
  return { id: file.id, filename: file.filename, rawUserDefineMetadata: file.rawUserDefineMetadata };
}

/** Labels of files, by name; the function returns one file's. */
export const fileLabels = (db: Db, fileIds: string[]) =>
  linkedNames(db, fileIds, {
    table: knowledgeBaseFileLabels,
    owner: knowledgeBaseFileLabels.fileId,
    target: knowledgeBaseLabels,
    on: eq(knowledgeBaseLabels.id, knowledgeBaseFileLabels.labelId),
    id: knowledgeBaseLabels.id,
    name: knowledgeBaseLabels.name,
    orderBy: [asc(knowledgeBaseLabels.name)],
  });

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
  await sendAll(
    env.INGESTION_QUEUE,
    files.map((f) => ({ body: { kind: "file", fileId: f.id, generation: f.generation } satisfies IngestionJob })),
  );
}

/** Records of files of `kb`, with their labels; `origin` is the service's own, for the download URLs. */
async function fileRecords(db: Db, kb: KnowledgeBaseRow, rows: FileRow[], origin: string) {
  const labels = await fileLabels(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => fileRecord(origin, row, { id: kb.id, name: kb.name }, labels(row.id)));
}

export const fileRecordOf = async (db: Db, kb: KnowledgeBaseRow, row: FileRow, origin: string) =>
  (await fileRecords(db, kb, [row], origin))[0];

/** A page of a knowledge base's files, newest first; `labels`: files carrying any of these label ids. */
export async function listFiles(
  db: Db,
  kb: KnowledgeBaseRow,
  filters: { query?: string; status?: FileRow["status"]; labels?: string[] },
  window: PageWindow,
  origin: string,
) {
  // No label ids (`labels=,`, as `labels=`) is no filter, as on the FAQ list.
  const labelIds = filters.labels ?? [];
  const where = and(
    eq(knowledgeBaseFiles.knowledgeBaseId, kb.id),
    filters.query ? contains(knowledgeBaseFiles.filename, filters.query) : undefined,
    filters.status ? eq(knowledgeBaseFiles.status, filters.status) : undefined,
    labelIds.length
      ? sql`${knowledgeBaseFiles.id} in (select ${knowledgeBaseFileLabels.fileId} from ${knowledgeBaseFileLabels}
          where ${knowledgeBaseFileLabels.labelId} in (select value from json_each(${JSON.stringify(labelIds)})))`
      : undefined,
  );
  const page = await newestFirstPage(db, knowledgeBaseFiles, where, window);
  return { count: page.count, items: await fileRecords(db, kb, page.items, origin) };
}

/** At the end of the batch writing files `ids`: deletes them again when they took the organization past its cap. */
const takeBackPastCap = (db: Db, capped: ControlPlaneCap, ids: string[]) =>
  db
    .delete(knowledgeBaseFiles)
    .where(and(inList(knowledgeBaseFiles.id, ids), pastControlPlaneCap(db, capped)))
    .returning({ id: knowledgeBaseFiles.id });

/**
 * Stores the uploads' bytes, inserts their rows (all or none) and queues their parsing. An upload of the organization
 * copied into a file is then removed, unless an attachment names it: its bytes are the file's now, not stored twice
 * (its data plane `data` holds the uploads). Bytes that would take the organization past its plan's upload bytes are
 * refused (403) before anything is stored, or, when other writes took the room meanwhile, taken back in the batch
 * that wrote them (their objects removed).
 */
export async function addFiles(
  env: Bindings,
  db: Db,
  data: Db,
  kb: KnowledgeBaseRow,
  userId: string,
  uploads: Upload[],
  origin: string,
) {
  const consumed = await unattachedUploads(
    data,
    kb.organizationId,
    uploads.flatMap((u) => (u.from ? [u.from] : [])),
  );
  const freeing = consumed.reduce((n, u) => n + (u.size ?? 0), 0);
  const bytes = uploads.reduce((n, u) => n + u.size, 0);
  const capped = await requireControlPlaneRoom(env, kb.organizationId, bytes, { data, freeing });
  const rows = uploads.map((u) => newFile(kb.id, userId, u));
  await Promise.all(
    rows.map((row, i) =>
      env.FILES.put(row.objectKey, uploads[i].bytes, { httpMetadata: { contentType: uploads[i].contentType } }),
    ),
  );
  // D1 binds at most 100 parameters per statement (a file row has ~20): four rows per INSERT, all in one atomic batch.
  const [first, ...rest] = chunk(rows, 4).map((part) => db.insert(knowledgeBaseFiles).values(part).returning());
  // Other writes may have taken the room since the check: the batch then takes these rows back.
  const ids = rows.map((row) => row.id);
  const takeBack = capped ? [takeBackPastCap(db, capped, ids)] : [];
  const written = await db.batch([first, ...rest, ...takeBack]);
  if (capped && written[written.length - 1].length) {
    await env.FILES.delete(rows.map((row) => row.objectKey));
    throw await pastControlPlaneRoom(env, capped, bytes - freeing);
  }
  const inserted = (written.slice(0, written.length - takeBack.length) as FileRow[][]).flat();
  await deleteObjectsIfUnused(
    env,
    data,
    consumed.map((u) => u.key),
  );
  await enqueueFiles(env, inserted);
  return inserted.map((row) => fileRecord(origin, row, { id: kb.id, name: kb.name }, []));
}

/**
 * Sends files of `kb` back to `initial` at a new generation and queues them again (a job still
 * running for the previous parse is then discarded). An id that is not a file of `kb` is 400, and nothing is queued.
 */
export async function reparseFiles(env: Bindings, db: Db, kb: KnowledgeBaseRow, ids: string[], origin: string) {
  const ofThisBase = and(
    eq(knowledgeBaseFiles.knowledgeBaseId, kb.id),
    sql`${knowledgeBaseFiles.id} in (select value from json_each(${JSON.stringify(ids)}))`,
  );
  refuseFilesNotOf(
    "id",
    ids,
    await db.select({ id: knowledgeBaseFiles.id }).from(knowledgeBaseFiles).where(ofThisBase),
  );
  const now = Date.now();
  const rows = await db
    .update(knowledgeBaseFiles)
    .set({
      status: "initial",
      generation: sql`${knowledgeBaseFiles.generation} + 1`,
      queuedAt: now,
      startedAt: null,
      finishedAt: null,
      processingTimeDetails: {},
      updatedAt: now,
    })
    .where(ofThisBase)
    .returning();
  await enqueueFiles(env, rows);
  return fileRecords(db, kb, rows, origin);
}

/** Replaces a file's labels (labels of `kb`, else 400) and custom metadata, each when given. */
export async function updateFileMetadata(
  db: Db,
  kb: KnowledgeBaseRow,
  file: FileRow,
  body: { labels?: { id: string }[]; rawUserDefineMetadata?: Record<string, unknown> },
  origin: string,
) {
  const labelIds = await checkLabels(db, kb.id, body.labels);
  await db.batch([
    db
      .update(knowledgeBaseFiles)
      .set({ rawUserDefineMetadata: body.rawUserDefineMetadata ?? file.rawUserDefineMetadata, updatedAt: Date.now() })
      .where(eq(knowledgeBaseFiles.id, file.id)),
    ...(labelIds ? fileLabelStatements(db, file.id, labelIds) : []),
  ]);
  return fileRecordOf(db, kb, await getFile(db, kb.id, file.id), origin);
}
