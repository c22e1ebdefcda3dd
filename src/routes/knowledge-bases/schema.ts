import { z } from "@hono/zod-openapi";
import { VECTOR_DATABASE_TYPES } from "../../db/schema";
import { IdName, IdRef, Timestamp } from "../../lib/openapi";
import { PageQuery } from "../../lib/pagination";
import { CREDENTIAL_FIELDS } from "../../services/vector-database";

export const KNOWLEDGE_TAG = "Knowledge bases";

export const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";
export const LOCAL_EMBEDDING = "00000000-0000-7000-8000-000000000002";
export const LOCAL_RERANKER = "00000000-0000-7000-8000-000000000003";

export const KnowledgeBaseSchema = z
  .object({
    id: z.string().openapi({ example: EXAMPLE_ID }),
    name: z.string().openapi({ example: "Help centre" }),
    description: z.string().openapi({ example: "Articles of the public help centre" }),
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
    enableRerank: z.boolean().openapi({ example: true }),
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
    canUpdate: z.boolean().openapi({ example: true }),
    canDelete: z.boolean().openapi({ example: true }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .openapi("KnowledgeBase");

const secret = (description: string) =>
  z
    .string()
    .max(2000)
    .nullable()
    .optional()
    .openapi({ description: `${description}; write-only, stored encrypted`, example: null });

const fields = {
  name: z.string().trim().min(1).max(200).openapi({ description: "Name", example: "Help centre" }),
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
  groups: z
    .array(IdRef)
    .max(50)
    .nullable()
    .optional()
    .openapi({ description: "Groups whose members may see it (`[{id}]`); replaces the list", example: [] }),
};

/** POST and PUT: name and both models required. */
export const KnowledgeBaseWrite = z.object(fields).openapi("KnowledgeBaseWrite");
export const KnowledgeBasePatch = KnowledgeBaseWrite.partial().openapi("KnowledgeBasePatch");
export type KnowledgeBaseInput = z.infer<typeof KnowledgeBasePatch>;

export const KnowledgeBaseListQuery = PageQuery.extend({
  embeddingModel: z
    .uuid()
    .optional()
    .openapi({ description: "Only knowledge bases using this embedding model", example: LOCAL_EMBEDDING }),
  rerankerModel: z
    .uuid()
    .optional()
    .openapi({ description: "Only knowledge bases using this reranker model", example: LOCAL_RERANKER }),
  query: z.string().max(200).optional().openapi({ description: "Name contains (case-insensitive)", example: "help" }),
});
