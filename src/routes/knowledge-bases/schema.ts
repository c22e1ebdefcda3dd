import { z } from "@hono/zod-openapi";
import { IdRef, GroupRefs, NameField } from "../../lib/openapi";
import { PageQuery } from "../../lib/pagination";
import { EXAMPLE_ID } from "../../services/records/knowledge-bases";
import { VECTOR_DATABASE_TYPES } from "../../services/knowledge/vector-database";

export { EXAMPLE_ID };

export const KNOWLEDGE_TAG = "Knowledge bases";

export const LOCAL_EMBEDDING = "00000000-0000-7000-8000-000000000002";
export const LOCAL_RERANKER = "00000000-0000-7000-8000-000000000003";

const secret = (description: string) =>
  z
    .string()
    .max(2000)
    .nullable()
    .optional()
    .openapi({ description: `${description}; write-only, stored encrypted`, example: null });

const fields = {
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
