import type { z } from "@hono/zod-openapi";
import { and, asc, eq, exists, inArray, not, notInArray, or, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Bindings, Db } from "../../env";
import { type PageWindow, newestFirstPage } from "../../db/paginate";
import {
  chatbotKnowledgeBases,
  chatbots,
  knowledgeBaseFiles,
  knowledgeBaseGroups,
  knowledgeBaseLabels,
  knowledgeBases,
  models,
  textNodes,
  faqs,
  users,
} from "../../db/schema";
import { fieldError, forbidden, notFound } from "../../lib/errors";
import { uuidv7 } from "../../lib/ids";
import { chunk, contains, inChunks } from "../../lib/sql";
import { can, type OrgAccess } from "../access";
import { visibleChatbotsCondition } from "../chatbots/visibility";
import { requireOrganizationGroups } from "../groups";
import { getModel } from "../models";
import { knowledgeBaseRecord, type KnowledgeBasePatch, type KnowledgeBaseWrite } from "../records/knowledge-bases";
import { groupIdsOf, groupLinksOf, linkStatements, linksOf, reachableThroughGroups, requireKnownRows } from "../links";
import { groupNameLinks, type IdName, linkedNames } from "../view-parts";
import { startKeywordIndex } from "./retrieval/knowledge-index";
import {
  type CredentialName,
  requireStoreFeature,
  resolveVectorDatabase,
  storedCredentialNames,
} from "./vector-database";
import { rowById } from "../../db/find";
import { definedFields } from "../../lib/patch";

export type KnowledgeBaseRow = typeof knowledgeBases.$inferSelect;

/** Knowledge bases given to groups (`knowledge_base_groups`). */
export const knowledgeBaseGroupLinks = groupLinksOf(knowledgeBaseGroups, "knowledgeBaseId");

/**
 * The knowledge bases the caller sees (CONTRACT section 4), all in the organization of `access`:
 * every one for owners; for other members those they created and, with `knowledge_base.view`,
 * those given to one of their groups.
 */
export function visibleKnowledgeBasesCondition(access: OrgAccess, userId: string): SQL {
  const inOrganization = eq(knowledgeBases.organizationId, access.organizationId);
  if (access.isOwner) return inOrganization;
  const mine = eq(knowledgeBases.createdById, userId);
  const reach = can(access, "knowledge_base.view")
    ? or(mine, reachableThroughGroups(knowledgeBases.id, knowledgeBaseGroupLinks, access.memberId))
    : mine;
  return and(inOrganization, reach)!;
}

export async function getVisibleKnowledgeBase(
  db: Db,
  access: OrgAccess,
  userId: string,
  id: string,
): Promise<KnowledgeBaseRow | null> {
  return rowById(id, () =>
    db
      .select()
      .from(knowledgeBases)
      .where(and(eq(knowledgeBases.id, id), visibleKnowledgeBasesCondition(access, userId))),
  );
}

/** For reads of a knowledge base's content: 404 when the caller cannot see it. */
export async function getKnowledgeBaseForRead(
  db: Db,
  access: OrgAccess,
  userId: string,
  id: string,
): Promise<KnowledgeBaseRow> {
  const row = await getVisibleKnowledgeBase(db, access, userId, id);
  if (!row) throw notFound("Knowledge base not found.");
  return row;
}

export interface KnowledgeBaseView {
  row: KnowledgeBaseRow;
  createdBy: IdName;
  embeddingModel: IdName;
  rerankerModel: IdName;
  labels: IdName[];
  groups: IdName[];
  chatbots: IdName[];
  filesCount: number;
  chunksCount: number;
  vectorStorageSize: number;
  canManage: boolean;
}

export async function knowledgeBaseViews(
  db: Db,
  access: OrgAccess,
  userId: string,
  rows: KnowledgeBaseRow[],
): Promise<KnowledgeBaseView[]> {
  const ids = rows.map((r) => r.id);
  const [names, labels, groupsOf, botsOf, files, faqCounts] = await Promise.all([
    inChunks(
      rows.flatMap((r) => [r.createdById, r.embeddingModelId, r.rerankerModelId]),
      async (part) => [
        ...(await db
          .select({ id: users.id, name: users.name, dimensions: sql<number | null>`null` })
          .from(users)
          .where(inArray(users.id, part))),
        ...(await db
          .select({ id: models.id, name: models.name, dimensions: models.dimensions })
          .from(models)
          .where(inArray(models.id, part))),
      ],
    ),
    inChunks(ids, (part) =>
      db
        .select({ kb: knowledgeBaseLabels.knowledgeBaseId, id: knowledgeBaseLabels.id, name: knowledgeBaseLabels.name })
        .from(knowledgeBaseLabels)
        .where(inArray(knowledgeBaseLabels.knowledgeBaseId, part))
        .orderBy(asc(knowledgeBaseLabels.name)),
    ),
    linkedNames(db, ids, groupNameLinks(knowledgeBaseGroupLinks)),
    linkedNames(
      db,
      ids,
      {
        table: chatbotKnowledgeBases,
        owner: chatbotKnowledgeBases.knowledgeBaseId,
        target: chatbots,
        on: eq(chatbots.id, chatbotKnowledgeBases.chatbotId),
        id: chatbots.id,
        name: chatbots.name,
        orderBy: [asc(chatbots.name)],
      },
      // Only the assistants the caller can see: the list is what a PUT may send back.
      visibleChatbotsCondition(access, userId),
    ),
    inChunks(ids, (part) =>
      db
        .select({
          kb: knowledgeBaseFiles.knowledgeBaseId,
          // Files still queued or being processed are not counted (spec: filesCount excludes files in processing).
          files: sql<number>`sum(case when ${knowledgeBaseFiles.status} in ('done', 'failed') then 1 else 0 end)`,
          chunks: sql<number>`coalesce(sum(${knowledgeBaseFiles.chunksCount}), 0)`,
          bytes: sql<number>`coalesce(sum(${knowledgeBaseFiles.vectorStorageSize}), 0)`,
        })
        .from(knowledgeBaseFiles)
        .where(inArray(knowledgeBaseFiles.knowledgeBaseId, part))
        .groupBy(knowledgeBaseFiles.knowledgeBaseId),
    ),
    inChunks(ids, (part) =>
      db
        .select({ kb: faqs.knowledgeBaseId, n: sql<number>`count(*)` })
        .from(faqs)
        .where(inArray(faqs.knowledgeBaseId, part))
        .groupBy(faqs.knowledgeBaseId),
    ),
  ]);
  const nameOf = new Map(names.map((x) => [x.id, x.name]));
  const dimensionsOf = new Map(names.map((x) => [x.id, x.dimensions ?? 0]));
  const ref = (id: string) => ({ id, name: nameOf.get(id) ?? "" });
  const canManage = can(access, "knowledge_base.manage");
  const pick = (list: { kb: string; id: string; name: string }[], kb: string) =>
    list.filter((l) => l.kb === kb).map(({ id, name }) => ({ id, name }));
  return rows.map((row) => {
    const f = files.find((x) => x.kb === row.id);
    const faqCount = Number(faqCounts.find((x) => x.kb === row.id)?.n ?? 0);
    const faqBytes = faqCount * VECTOR_BYTES_PER_DIMENSION * (dimensionsOf.get(row.embeddingModelId) ?? 0);
    return {
      row,
      createdBy: ref(row.createdById),
      embeddingModel: ref(row.embeddingModelId),
      rerankerModel: ref(row.rerankerModelId),
      labels: pick(labels, row.id),
      groups: groupsOf(row.id),
      chatbots: botsOf(row.id),
      filesCount: Number(f?.files ?? 0),
      chunksCount: Number(f?.chunks ?? 0) + faqCount,
      vectorStorageSize: Number(f?.bytes ?? 0) + faqBytes,
      canManage,
    };
  });
}

/** Bytes a stored vector takes per dimension (float32, as Vectorize stores them). */
export const VECTOR_BYTES_PER_DIMENSION = 4;

export const knowledgeBaseView = async (db: Db, access: OrgAccess, userId: string, row: KnowledgeBaseRow) =>
  (await knowledgeBaseViews(db, access, userId, [row]))[0];

/** The record of a knowledge base as the caller sees it (links, counts, which credentials are set). */
export async function knowledgeBaseRecordOf(
  env: Bindings,
  db: Db,
  access: OrgAccess,
  userId: string,
  row: KnowledgeBaseRow,
  storedCredentials?: CredentialName[],
) {
  const view = await knowledgeBaseView(db, access, userId, row);
  return knowledgeBaseRecord(view, storedCredentials ?? (await storedCredentialNames(row, env)));
}

export interface KnowledgeBaseFilters {
  embeddingModel?: string;
  rerankerModel?: string;
  query?: string;
}

/** A page of the knowledge bases the caller sees, newest first. */
export async function listKnowledgeBases(
  env: Bindings,
  db: Db,
  access: OrgAccess,
  userId: string,
  filters: KnowledgeBaseFilters,
  window: PageWindow,
) {
  const where = and(
    visibleKnowledgeBasesCondition(access, userId),
    filters.embeddingModel ? eq(knowledgeBases.embeddingModelId, filters.embeddingModel) : undefined,
    filters.rerankerModel ? eq(knowledgeBases.rerankerModelId, filters.rerankerModel) : undefined,
    filters.query ? contains(knowledgeBases.name, filters.query) : undefined,
  );
  const page = await newestFirstPage(db, knowledgeBases, where, window);
  const views = await knowledgeBaseViews(db, access, userId, page.items);
  const items = await Promise.all(
    views.map(async (v) => knowledgeBaseRecord(v, await storedCredentialNames(v.row, env))),
  );
  return { count: page.count, items };
}

/** What a PUT or PATCH body of a knowledge base carries, once parsed; fields left out keep their value. */
export type KnowledgeBaseInput = z.output<typeof KnowledgeBasePatch>;
/** A new knowledge base: the POST body once parsed (name and both models required). */
export type KnowledgeBaseCreateInput = z.output<typeof KnowledgeBaseWrite>;

/** Creates a knowledge base with its links (from checkKnowledgeBaseReferences) and starts its keyword index. */
export async function createKnowledgeBase(
  env: Bindings,
  db: Db,
  access: OrgAccess,
  userId: string,
  body: KnowledgeBaseCreateInput,
  links: KnowledgeBaseLinks,
) {
  const { storedCredentials, ...store } = await resolveVectorDatabase(env, null, body);
  await requireStoreFeature(db, access.organizationId, null, body, store);
  const id = uuidv7();
  const [[row]] = await db.batch([
    db
      .insert(knowledgeBases)
      .values({
        id,
        organizationId: access.organizationId,
        createdById: userId,
        ...knowledgeBaseColumns(body),
        name: body.name,
        embeddingModelId: body.embeddingModel,
        rerankerModelId: body.rerankerModel,
        ...store,
      })
      .returning(),
    ...knowledgeBaseLinkStatements(db, id, links),
  ]);
  await startKeywordIndex(env, id);
  return knowledgeBaseRecordOf(env, db, access, userId, row, storedCredentials);
}

/**
 * Checks a PUT or PATCH body against the knowledge base: the embedding model cannot change while it
 * holds indexed content (its vectors would no longer match), and the references it names as for a
 * create. Returns the links to write.
 */
export async function checkKnowledgeBaseUpdate(
  db: Db,
  access: OrgAccess,
  userId: string,
  current: KnowledgeBaseRow,
  body: KnowledgeBaseInput,
): Promise<KnowledgeBaseLinks> {
  if (changesEmbeddingModel(current, body) && (await hasIndexedContent(db, current.id))) throw embeddingModelFixed();
  return checkKnowledgeBaseReferences(db, access, userId, body, await currentLinks(db, access, userId, current.id));
}

const changesEmbeddingModel = (current: KnowledgeBaseRow, body: KnowledgeBaseInput) =>
  !!body.embeddingModel && body.embeddingModel !== current.embeddingModelId;

const embeddingModelFixed = () =>
  fieldError(
    "embeddingModel",
    "Cannot change while the knowledge base holds indexed files or FAQs, or files being processed; create a new " +
      "knowledge base instead.",
  );

/**
 * Writes the fields a PUT or PATCH gives and the links checkKnowledgeBaseUpdate returned. A new embedding model is
 * written first, on its own, only while the base still holds no content: a file added since the check would
 * otherwise be embedded by the old model and its passages searched with the new one (400, nothing written).
 */
export async function updateKnowledgeBase(
  env: Bindings,
  db: Db,
  access: OrgAccess,
  userId: string,
  current: KnowledgeBaseRow,
  body: KnowledgeBaseInput,
  links: KnowledgeBaseLinks,
) {
  const { storedCredentials, ...store } = await resolveVectorDatabase(env, current, body);
  await requireStoreFeature(db, access.organizationId, current, body, store);
  const values = definedFields(knowledgeBaseColumns(body));
  if (changesEmbeddingModel(current, body)) {
    const [changed] = await db
      .update(knowledgeBases)
      .set({ embeddingModelId: body.embeddingModel })
      .where(and(eq(knowledgeBases.id, current.id), not(holdsIndexedContent(db))))
      .returning({ id: knowledgeBases.id });
    if (!changed) throw embeddingModelFixed();
  }
  const [[row]] = await db.batch([
    db
      .update(knowledgeBases)
      .set({ ...values, ...store, updatedAt: Date.now() })
      .where(eq(knowledgeBases.id, current.id))
      .returning(),
    ...knowledgeBaseLinkStatements(db, current.id, links),
  ]);
  return knowledgeBaseRecordOf(env, db, access, userId, row, storedCredentials);
}

/** What a create or update changes in a knowledge base's links: the group list, and assistants added and removed. */
export interface KnowledgeBaseLinks {
  groupIds?: string[];
  chatbots?: { add: string[]; remove: string[] };
}

/**
 * Checks the models, groups and assistants a create or update body names (400 naming the field).
 * Non-owners may only add groups they belong to (403). `chatbots` replaces the list of assistants
 * the caller can see: links to assistants they cannot see stay (adding or removing any needs
 * `chatbot.manage`, which the route declares: changesAssistantLinks). `current` holds the existing
 * links (for an update).
 */
export async function checkKnowledgeBaseReferences(
  db: Db,
  access: OrgAccess,
  userId: string,
  body: Pick<KnowledgeBaseInput, "embeddingModel" | "rerankerModel" | "groups" | "chatbots">,
  current: { groupIds: string[]; visibleChatbotIds: string[] } = { groupIds: [], visibleChatbotIds: [] },
): Promise<KnowledgeBaseLinks> {
  const [embedding, reranker] = await Promise.all([
    body.embeddingModel ? getModel(db, access.organizationId, body.embeddingModel, "embedding") : true,
    body.rerankerModel ? getModel(db, access.organizationId, body.rerankerModel, "reranker") : true,
  ]);
  if (!embedding)
    throw fieldError("embeddingModel", "No embedding model with this id is available to the organization.");
  if (!reranker) throw fieldError("rerankerModel", "No reranker model with this id is available to the organization.");
  const out: KnowledgeBaseLinks = {};
  if (body.groups !== undefined) {
    const wanted = [...new Set((body.groups ?? []).map((g) => g.id))];
    await requireOrganizationGroups(db, access, wanted);
    if (!access.isOwner && wanted.some((id) => !current.groupIds.includes(id) && !access.groupIds.includes(id))) {
      throw forbidden("You can only give a knowledge base to groups you belong to.");
    }
    out.groupIds = wanted;
  }
  if (body.chatbots !== undefined) {
    const wanted = [...new Set((body.chatbots ?? []).map((b) => b.id))];
    await requireKnownRows(
      db,
      chatbots,
      wanted,
      visibleChatbotsCondition(access, userId),
      "chatbots",
      "Unknown assistants",
    );
    const add = wanted.filter((id) => !current.visibleChatbotIds.includes(id));
    const remove = current.visibleChatbotIds.filter((id) => !wanted.includes(id));
    out.chatbots = { add, remove };
  }
  return out;
}

/** Whether writing the links adds or removes assistants' links (then the caller needs `chatbot.manage`). */
export const changesAssistantLinks = (links: KnowledgeBaseLinks) =>
  !!links.chatbots && links.chatbots.add.length + links.chatbots.remove.length > 0;

/** A knowledge base's links before an update: all its groups, and the assistants the caller can see. */
export async function currentLinks(db: Db, access: OrgAccess, userId: string, knowledgeBaseId: string) {
  const [groupIds, chatbotRows] = await Promise.all([
    groupIdsOf(db, knowledgeBaseGroupLinks, knowledgeBaseId),
    db
      .select({ id: chatbots.id })
      .from(chatbotKnowledgeBases)
      .innerJoin(chatbots, eq(chatbots.id, chatbotKnowledgeBases.chatbotId))
      .where(and(eq(chatbotKnowledgeBases.knowledgeBaseId, knowledgeBaseId), visibleChatbotsCondition(access, userId))),
  ]);
  return { groupIds, visibleChatbotIds: chatbotRows.map((b) => b.id) };
}

/** Statements replacing the knowledge base's group links and adding and removing assistant links (when given). */
export function knowledgeBaseLinkStatements(
  db: Db,
  knowledgeBaseId: string,
  links: KnowledgeBaseLinks,
): BatchItem<"sqlite">[] {
  const out: BatchItem<"sqlite">[] = [];
  if (links.groupIds) {
    out.push(
      db
        .delete(knowledgeBaseGroups)
        .where(
          and(
            eq(knowledgeBaseGroups.knowledgeBaseId, knowledgeBaseId),
            links.groupIds.length ? notInArray(knowledgeBaseGroups.groupId, links.groupIds) : undefined,
          ),
        ),
      ...linkStatements(db, knowledgeBaseGroupLinks, knowledgeBaseId, links.groupIds, false),
    );
  }
  const { add = [], remove = [] } = links.chatbots ?? {};
  out.push(
    ...chunk(remove, 40).map((part) =>
      db
        .delete(chatbotKnowledgeBases)
        .where(
          and(
            eq(chatbotKnowledgeBases.knowledgeBaseId, knowledgeBaseId),
            inArray(chatbotKnowledgeBases.chatbotId, part),
          ),
        ),
    ),
    ...linkStatements(db, linksOf(chatbotKnowledgeBases, "knowledgeBaseId", "chatbotId"), knowledgeBaseId, add, false),
  );
  return out;
}

/** Column values of the settings a create, PUT or PATCH body carries (absent fields stay undefined). */
export const knowledgeBaseColumns = (b: KnowledgeBaseInput) => ({
  name: b.name,
  description: b.description === null ? "" : b.description,
  embeddingModelId: b.embeddingModel,
  rerankerModelId: b.rerankerModel,
  numberOfRetrievedChunks: b.numberOfRetrievedChunks,
  sentenceWindowSize: b.sentenceWindowSize,
  enableHyde: b.enableHyde,
  similarityCutoff: b.similarityCutoff,
  enableRerank: b.enableRerank,
  enableRrf: b.enableRrf,
});

/**
 * The knowledge bases an assistant answers from: a query to await or to put in a D1 batch (one
 * table, so batch rows map cleanly; see readForReply).
 */
export const knowledgeBasesOfChatbot = (db: Db, chatbotId: string) =>
  db
    .select()
    .from(knowledgeBases)
    .where(
      inArray(
        knowledgeBases.id,
        db
          .select({ id: chatbotKnowledgeBases.knowledgeBaseId })
          .from(chatbotKnowledgeBases)
          .where(eq(chatbotKnowledgeBases.chatbotId, chatbotId)),
      ),
    );

/**
 * Knowledge bases holding indexed content (text nodes or FAQs, whose vectors their embedding model made) or files
 * being processed (their ingestion has read the model, or will, and embeds with it), as a condition of a query over
 * `knowledge_bases`: then their embedding model is fixed. Counting only what was indexed let the model change under a
 * running ingestion, whose passages then sat beside others of the new model in one index.
 */
export const holdsIndexedContent = (db: Db): SQL =>
  or(
    exists(db.select({ id: textNodes.id }).from(textNodes).where(eq(textNodes.knowledgeBaseId, knowledgeBases.id))),
    exists(db.select({ id: faqs.id }).from(faqs).where(eq(faqs.knowledgeBaseId, knowledgeBases.id))),
    exists(
      db
        .select({ id: knowledgeBaseFiles.id })
        .from(knowledgeBaseFiles)
        .where(
          and(
            eq(knowledgeBaseFiles.knowledgeBaseId, knowledgeBases.id),
            inArray(knowledgeBaseFiles.status, ["initial", "processing"]),
          ),
        ),
    ),
  )!;

/** Whether the knowledge base holds indexed content or files being processed (then its embedding model is fixed). */
export async function hasIndexedContent(db: Db, knowledgeBaseId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: knowledgeBases.id })
    .from(knowledgeBases)
    .where(and(eq(knowledgeBases.id, knowledgeBaseId), holdsIndexedContent(db)));
  return !!row;
}

/**
 * The knowledge bases an assistant body names (`knowledgeBases: [{id}]`): each must be one the
 * caller sees in the organization of `access` (400 naming the field). Undefined when not given.
 */
export async function checkChatbotKnowledgeBases(
  db: Db,
  access: OrgAccess,
  userId: string,
  wanted: { id: string }[] | null | undefined,
): Promise<string[] | undefined> {
  if (wanted === undefined) return undefined;
  const ids = [...new Set((wanted ?? []).map((k) => k.id))];
  await requireKnownRows(
    db,
    knowledgeBases,
    ids,
    visibleKnowledgeBasesCondition(access, userId),
    "knowledgeBases",
    "Unknown knowledge bases",
  );
  return ids;
}
