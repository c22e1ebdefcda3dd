import { z } from "@hono/zod-openapi";
import { VECTOR_DATABASE_TYPES } from "../../db/schema";
import { GroupRefs, IdName, IdRef, NameField, Timestamps } from "../../lib/openapi";
import { ms } from "../../lib/time";
import type { KnowledgeBaseView } from "../knowledge/knowledge-bases";
import { CREDENTIAL_FIELDS, type CredentialName } from "../knowledge/vector-database";

export const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";
/** The built-in local embedding and reranker models: the examples of the bodies and of the list's filters. */
export const LOCAL_EMBEDDING = "00000000-0000-7000-8000-000000000002";
export const LOCAL_RERANKER = "00000000-0000-7000-8000-000000000003";

export const KnowledgeBaseSchema = z
  .object({
    id: z.string().openapi({ description: "The knowledge base's id", example: EXAMPLE_ID }),
    name: z.string().openapi({ description: "The knowledge base's name", example: "Help centre" }),
    description: z
      .string()
      .openapi({ description: "What it holds, as written", example: "Articles of the public help centre" }),
    organization: z.string().openapi({ description: "Owning organization", example: EXAMPLE_ID }),
    createdBy: IdName.openapi({ description: "The user who created it" }),
    embeddingModel: IdName.openapi({ description: "Model that embeds its chunks and the questions" }),
    rerankerModel: IdName.openapi({ description: "Model that reorders hybrid results when enableRerank is on" }),
    numberOfRetrievedChunks: z.number().int().openapi({ description: "Passages retrieved per question", example: 12 }),
    sentenceWindowSize: z.number().int().openapi({ description: "Sentences added on each side of a hit", example: 2 }),
    enableHyde: z
      .boolean()
      .openapi({ description: "Search with a hypothetical answer written by the assistant's model", example: false }),
    similarityCutoff: z.number().openapi({ description: "Results scoring below this (0..1) are dropped", example: 0 }),
    enableRerank: z
      .boolean()
      .openapi({ description: "Whether hybrid results are reordered by rerankerModel (default true)", example: true }),
    enableRrf: z.boolean().openapi({
      description: "Reciprocal rank fusion of vector and keyword results (system default: true)",
      example: true,
    }),
    vectorDatabaseType: z
      .enum(VECTOR_DATABASE_TYPES)
      .nullable()
      .openapi({ description: "External vector store; null: the platform's own", example: null }),
    vectorDatabaseUrl: z
      .string()
      .nullable()
      .openapi({ description: "URL (Elasticsearch, OpenSearch, SynxDB) or DSN (Oracle)", example: null }),
    storedCredentials: z.array(z.enum(CREDENTIAL_FIELDS)).openapi({
      description: "Which write-only store credentials are set (their values are never returned)",
      example: [],
    }),
    labels: z.array(IdName).openapi({ description: "Labels defined in the knowledge base" }),
    groups: z.array(IdName).openapi({ description: "Groups whose members may see it" }),
    chatbots: z.array(IdName).openapi({ description: "Assistants answering from it" }),
    filesCount: z.number().int().openapi({
      description: "Files whose processing has finished (queued and processing files are not counted)",
      example: 3,
    }),
    chunksCount: z.number().int().openapi({ description: "Indexed text nodes and FAQs", example: 120 }),
    vectorStorageSize: z.number().int().openapi({ description: "Bytes of stored vectors", example: 122880 }),
    canUpdate: z
      .boolean()
      .openapi({ description: "Whether the caller may change it (holds knowledge_base.manage)", example: true }),
    canDelete: z
      .boolean()
      .openapi({ description: "Whether the caller may delete it (holds knowledge_base.manage)", example: true }),
    ...Timestamps,
  })
  .openapi("KnowledgeBase");

export type KnowledgeBaseRecord = z.infer<typeof KnowledgeBaseSchema>;

// Request bodies, beside the record (docs/decisions.md, "One word per concept, and where a record's shape is
// written").
const secret = (description: string) =>
  z
    .string()
    .max(2000)
    .nullable()
    .optional()
    .openapi({ description: `${description}; write-only, stored encrypted`, example: null });

const writeFields = {
  name: NameField("Name", "Help centre"),
  description: z
    .string()
    .max(10_000)
    .nullable()
    .optional()
    .openapi({ description: "What it holds", example: "Articles of the public help centre" }),
  embeddingModel: z
    .uuid()
    .openapi({ description: "An embedding model available to the organization", example: LOCAL_EMBEDDING }),
  rerankerModel: z
    .uuid()
    .openapi({ description: "A reranker model available to the organization", example: LOCAL_RERANKER }),
  numberOfRetrievedChunks: z
    .number()
    .int()
    .min(1)
    .max(100)
    .optional()
    .openapi({ description: "Default 12, at least 1", example: 12 }),
  sentenceWindowSize: z
    .number()
    .int()
    .min(0)
    .max(20)
    .optional()
    .openapi({ description: "Default 2, at least 0", example: 2 }),
  enableHyde: z.boolean().optional().openapi({ description: "Default false", example: false }),
  similarityCutoff: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .openapi({ description: "Default 0.0, range 0.0 to 1.0", example: 0.2 }),
  enableRerank: z.boolean().optional().openapi({ description: "Default true", example: true }),
  enableRrf: z
    .boolean()
    .nullable()
    .optional()
    .openapi({ description: "Reciprocal rank fusion; absent or null: the system default (true)", example: true }),
  vectorDatabaseType: z.enum(VECTOR_DATABASE_TYPES).nullable().optional().openapi({
    description: "elasticsearch, opensearch, oracle or synxdb; null: the platform's own store",
    example: null,
  }),
  vectorDatabaseUrl: z
    .string()
    .trim()
    .max(2000)
    .nullable()
    .optional()
    .openapi({ description: "URL for Elasticsearch/OpenSearch/SynxDB, DSN for Oracle", example: null }),
  vectorDatabaseApiKey: secret("Elasticsearch API key"),
  opensearchUsername: secret("OpenSearch user"),
  opensearchPassword: secret("OpenSearch password"),
  oracleUser: secret("Oracle user"),
  oraclePassword: secret("Oracle password"),
  synxdbUser: secret("SynxDB user"),
  synxdbPassword: secret("SynxDB password"),
  chatbots: z
    .array(IdRef)
    .max(100)
    .nullable()
    .optional()
    .openapi({ description: "Assistants that answer from it (`[{id}]`); replaces the list", example: [] }),
  groups: GroupRefs("Groups whose members may see it (`[{id}]`); replaces the list"),
};

/** POST and PUT: name and both models required. */
export const KnowledgeBaseWrite = z.object(writeFields).openapi("KnowledgeBaseWrite");
export const KnowledgeBasePatch = KnowledgeBaseWrite.partial().openapi("KnowledgeBasePatch");

export const knowledgeBaseRecord = (
  v: KnowledgeBaseView,
  storedCredentials: CredentialName[],
): KnowledgeBaseRecord => ({
  id: v.row.id,
  name: v.row.name,
  description: v.row.description,
  organization: v.row.organizationId,
  createdBy: v.createdBy,
  embeddingModel: v.embeddingModel,
  rerankerModel: v.rerankerModel,
  numberOfRetrievedChunks: v.row.numberOfRetrievedChunks,
  sentenceWindowSize: v.row.sentenceWindowSize,
  enableHyde: v.row.enableHyde,
  similarityCutoff: v.row.similarityCutoff,
  enableRerank: v.row.enableRerank,
  enableRrf: v.row.enableRrf ?? true,
  vectorDatabaseType: v.row.vectorDatabaseType,
  vectorDatabaseUrl: v.row.vectorDatabaseUrl,
  storedCredentials,
  labels: v.labels,
  groups: v.groups,
  chatbots: v.chatbots,
  filesCount: v.filesCount,
  chunksCount: v.chunksCount,
  vectorStorageSize: v.vectorStorageSize,
  canUpdate: v.canManage,
  canDelete: v.canManage,
  createdAt: ms(v.row.createdAt)!,
  updatedAt: ms(v.row.updatedAt)!,
});
