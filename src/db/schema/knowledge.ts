import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { users } from "./accounts";
import { groups, organizations } from "./organizations";
import { models } from "./models";
import { chatbots } from "./chatbots";
import { belongsTo, bool, id, json, timestamps, linkTable } from "./columns";

export const VECTOR_DATABASE_TYPES = ["elasticsearch", "opensearch", "oracle", "synxdb"] as const;
export const FILE_STATUSES = ["initial", "processing", "done", "failed"] as const;

/** Knowledge bases: retrieval settings plus the files, FAQs and labels below. */
export const knowledgeBases = sqliteTable(
  "knowledge_bases",
  {
    id: id(),
    organizationId: belongsTo("organization_id", () => organizations.id),
    createdById: text("created_by_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    embeddingModelId: text("embedding_model_id")
      .notNull()
      .references(() => models.id),
    rerankerModelId: text("reranker_model_id")
      .notNull()
      .references(() => models.id),
    numberOfRetrievedChunks: integer("number_of_retrieved_chunks").notNull().default(12),
    sentenceWindowSize: integer("sentence_window_size").notNull().default(2),
    enableHyde: bool("enable_hyde").notNull().default(false),
    similarityCutoff: real("similarity_cutoff").notNull().default(0),
    enableRerank: bool("enable_rerank").notNull().default(true),
    /** null: the system default (on). */
    enableRrf: bool("enable_rrf"),
    /** null: the platform's own store (Vectorize, or the local store). */
    vectorDatabaseType: text("vector_database_type", { enum: VECTOR_DATABASE_TYPES }),
    vectorDatabaseUrl: text("vector_database_url"),
    /** AES-GCM sealed JSON of the store's credentials (api key, users, passwords); never returned. */
    vectorDatabaseCredentialsSealed: text("vector_database_credentials_sealed"),
    ...timestamps(),
  },
  (t) => [index("knowledge_bases_org_idx").on(t.organizationId, t.createdAt)],
);

/** Group access to knowledge bases (CONTRACT section 4). */
export const knowledgeBaseGroups = linkTable("knowledge_base_groups", "knowledge_base_groups_group_idx", {
  knowledgeBaseId: belongsTo("knowledge_base_id", () => knowledgeBases.id),
  groupId: belongsTo("group_id", () => groups.id),
});

/** Which knowledge bases an assistant answers from. */
export const chatbotKnowledgeBases = linkTable("chatbot_knowledge_bases", "chatbot_knowledge_bases_kb_idx", {
  chatbotId: belongsTo("chatbot_id", () => chatbots.id),
  knowledgeBaseId: belongsTo("knowledge_base_id", () => knowledgeBases.id),
});

export const knowledgeBaseLabels = sqliteTable(
  "knowledge_base_labels",
  {
    id: id(),
    knowledgeBaseId: belongsTo("knowledge_base_id", () => knowledgeBases.id),
    name: text("name").notNull(),
    ...timestamps(),
  },
  (t) => [uniqueIndex("knowledge_base_labels_name_uq").on(t.knowledgeBaseId, t.name)],
);

/**
 * Uploaded documents. The bytes live in R2 under `objectKey`; ingestion (queue) parses, chunks and
 * indexes them into text nodes. `generation` grows with every (re)parse request, so a stale queue
 * message for an older generation does nothing.
 */
export const knowledgeBaseFiles = sqliteTable(
  "knowledge_base_files",
  {
    id: id(),
    knowledgeBaseId: belongsTo("knowledge_base_id", () => knowledgeBases.id),
    createdById: text("created_by_id").references(() => users.id, { onDelete: "set null" }),
    filename: text("filename").notNull(),
    objectKey: text("object_key").notNull(),
    fileType: text("file_type").notNull(),
    size: integer("size").notNull(),
    status: text("status", { enum: FILE_STATUSES }).notNull().default("initial"),
    parserId: text("parser_id"),
    rawUserDefineMetadata: json<Record<string, unknown>>("raw_user_define_metadata").notNull().default({}),
    chunksCount: integer("chunks_count").notNull().default(0),
    vectorStorageSize: integer("vector_storage_size").notNull().default(0),
    generation: integer("generation").notNull().default(1),
    queuedAt: integer("queued_at").notNull(),
    startedAt: integer("started_at"),
    finishedAt: integer("finished_at"),
    processingTimeDetails: json<Record<string, unknown>>("processing_time_details").notNull().default({}),
    ...timestamps(),
  },
  (t) => [index("knowledge_base_files_kb_idx").on(t.knowledgeBaseId, t.createdAt)],
);

export const knowledgeBaseFileLabels = linkTable("knowledge_base_file_labels", "knowledge_base_file_labels_label_idx", {
  fileId: belongsTo("file_id", () => knowledgeBaseFiles.id),
  labelId: belongsTo("label_id", () => knowledgeBaseLabels.id),
});

/** Question-answer pairs, searched beside the text nodes. */
export const faqs = sqliteTable(
  "faqs",
  {
    id: id(),
    knowledgeBaseId: belongsTo("knowledge_base_id", () => knowledgeBases.id),
    question: text("question").notNull(),
    answer: text("answer").notNull(),
    answerMediaUrls: json<Record<string, unknown>>("answer_media_urls").notNull().default({}),
    hitsCount: integer("hits_count").notNull().default(0),
    embeddingTokensCount: integer("embedding_tokens_count").notNull().default(0),
    rawUserDefineMetadata: json<Record<string, unknown>>("raw_user_define_metadata").notNull().default({}),
    ...timestamps(),
  },
  (t) => [index("faqs_kb_idx").on(t.knowledgeBaseId, t.createdAt)],
);

export const faqLabels = linkTable("faq_labels", "faq_labels_label_idx", {
  faqId: belongsTo("faq_id", () => faqs.id),
  labelId: belongsTo("label_id", () => knowledgeBaseLabels.id),
});

/**
 * Chunks of a file: whole sentences, with the page range and character offsets they come from.
 * `position` orders them within the file (the sentence window reads the neighbours). Keyword search
 * is the FTS5 table `text_nodes_fts` (migration 0006), keyed by this table's rowid.
 */
export const textNodes = sqliteTable(
  "text_nodes",
  {
    id: id(),
    knowledgeBaseId: belongsTo("knowledge_base_id", () => knowledgeBases.id),
    fileId: belongsTo("file_id", () => knowledgeBaseFiles.id),
    position: integer("position").notNull(),
    text: text("text").notNull(),
    hitsCount: integer("hits_count").notNull().default(0),
    pageStart: integer("page_start"),
    pageEnd: integer("page_end"),
    startCharIdx: integer("start_char_idx").notNull(),
    endCharIdx: integer("end_char_idx").notNull(),
    ...timestamps(),
  },
  (t) => [
    uniqueIndex("text_nodes_file_position_uq").on(t.fileId, t.position),
    index("text_nodes_kb_idx").on(t.knowledgeBaseId),
  ],
);
