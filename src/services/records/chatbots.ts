import { z } from "@hono/zod-openapi";
import { AGENT_MODES, OUTPUT_MODES, REPLY_MODES } from "../../db/schema";
import { IdName, Timestamps } from "../../lib/openapi";
import { ms } from "../../lib/time";
import { maskDatabaseUrl, type ChatbotView } from "../chatbots/views";
import { handoffSettings } from "../conversation/handoff";

export const DATABASE_TYPES = ["MySQL", "PostgreSQL", "MSSQL", "Oracle"] as const;
// The route schemas take these enums from here (routes do not import db/schema).
export { AGENT_MODES, OUTPUT_MODES, REPLY_MODES };

const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";
// `.nullable()` on a registered schema loses the null in the OpenAPI document; a union keeps it.
const nullableIdName = (description: string) => z.union([IdName, z.null()]).openapi({ description });
const idNames = (description: string) => z.array(IdName).openapi({ description });
const object = () => z.record(z.string(), z.unknown());

/**
 * The assistant record (the spec does not show it). `databaseUrl` comes back with the password
 * masked; sending the masked value back keeps the stored one. `toolkits` is always empty until
 * toolkits exist.
 */
export const ChatbotSchema = z
  .object({
    id: z.string().openapi({ description: "The assistant's id", example: EXAMPLE_ID }),
    name: z.string().openapi({
      description: "The assistant's name; in agent mode the model is told it too",
      example: "Support assistant",
    }),
    organization: z
      .string()
      .nullable()
      .openapi({ description: "Owning organization; null for a personal assistant", example: EXAMPLE_ID }),
    createdBy: IdName.openapi({ description: "The user who created it" }),
    largeLanguageModel: IdName.openapi({ description: "The large language model answering" }),
    fallbackLargeLanguageModel: nullableIdName(
      "Answers when the large language model fails before its first token (after its retries); null: none",
    ),
    embeddingModel: nullableIdName("Embedding model for retrieval"),
    rerankerModel: nullableIdName("Reranker model for retrieval"),
    rag: z.string().nullable().openapi({ description: "RAG pipeline id, stored as given", example: null }),
    builtInWorkflow: z
      .string()
      .nullable()
      .openapi({ description: "Built-in workflow id, stored as given", example: null }),
    instructions: z.string().openapi({
      description: "Role description given to the model",
      example: "You answer questions about our products.",
    }),
    replyMode: z.enum(REPLY_MODES).openapi({
      description:
        "How it replies: normal (the model, grounded in retrieved passages), template, hybrid, workflow (its " +
        "built-in workflow) or agent (the tool-calling loop)",
      example: "normal",
    }),
    template: z.string().nullable().openapi({ description: "Reply of template and hybrid modes", example: null }),
    unanswerableTemplate: z
      .string()
      .nullable()
      .openapi({ description: "Reply when nothing answers the question", example: null }),
    totalWordsCount: z.number().int().openapi({ description: "Words used so far (read-only)", example: 0 }),
    outputMode: z.enum(OUTPUT_MODES).openapi({
      description: "text, or json_schema: replies are JSON that validates against rawOutputFormat",
      example: "text",
    }),
    rawOutputFormat: object()
      .nullable()
      .openapi({ description: "JSON Schema of replies in json_schema mode", example: null }),
    databaseUrl: z.string().nullable().openapi({
      description: "Connection string, password masked",
      example: "postgresql://bot:****@db.example.com/shop",
    }),
    databaseType: z.enum(DATABASE_TYPES).nullable().openapi({
      description:
        "Kind of the database at databaseUrl (MySQL, PostgreSQL, MSSQL or Oracle), stored as given; null: none",
      example: null,
    }),
    includeTables: object().nullable().openapi({ description: "Tables text-to-SQL may read", example: null }),
    agentMode: z.enum(AGENT_MODES).openapi({ description: "normal or canvas, stored as given", example: "normal" }),
    numberOfRetrievedChunks: z
      .number()
      .int()
      .openapi({ description: "Passages retrieved from its knowledge bases per question (default 12)", example: 12 }),
    enableEvaluation: z.boolean().openapi({
      description: "Whether each answered question is scored in the background (the metrics of its chatbot records)",
      example: false,
    }),
    enableInLineCitations: z
      .boolean()
      .openapi({ description: "Insert citation markers like [1][2] in replies", example: false }),
    handoff: z
      .object({
        enabled: z.boolean().openapi({
          description:
            "Hand the conversation to a person when the visitor asks for one, or after afterUnanswered " +
            "replies that could not answer",
          example: true,
        }),
        afterUnanswered: z
          .number()
          .int()
          .openapi({ description: "Replies in a row that could not answer before handing off (0: never)", example: 2 }),
        message: z
          .string()
          .nullable()
          .openapi({ description: "Said as it hands off; null: a default in the visitor's language", example: null }),
        outsideHoursMessage: z
          .string()
          .nullable()
          .openapi({
            description:
              "Said instead outside the inbox's business hours (the conversation waits for the next opening); " +
              "null: a default in the visitor's language",
            example: null,
          }),
      })
      .openapi("AssistantHandoff", { description: "Handing the conversation to a person (CONTRACT section 18)" }),
    knowledgeBases: idNames("Knowledge bases it answers from"),
    toolkits: idNames("Toolkits it may use (none yet)"),
    tools: idNames("Tools it may call in agent mode"),
    skills: idNames("Skills it may use in agent mode (use_skill)"),
    groups: idNames("Groups whose members may see it"),
    defaultInbox: nullableIdName("Inbox of API conversations, created with the assistant"),
    canUpdate: z.boolean().openapi({ description: "Whether the caller may change it", example: true }),
    canDelete: z.boolean().openapi({ description: "Whether the caller may delete it", example: true }),
    ...Timestamps,
  })
  .openapi("Assistant");

/** The assistant record; `databaseUrl` with its password masked. */
export type ChatbotRecord = z.infer<typeof ChatbotSchema>;

export const chatbotRecord = (v: ChatbotView): ChatbotRecord => ({
  id: v.row.id,
  name: v.row.name,
  organization: v.row.organizationId,
  createdBy: v.createdBy,
  largeLanguageModel: v.largeLanguageModel,
  fallbackLargeLanguageModel: v.fallbackLargeLanguageModel,
  embeddingModel: v.embeddingModel,
  rerankerModel: v.rerankerModel,
  rag: v.row.ragId,
  builtInWorkflow: v.row.builtInWorkflowId,
  instructions: v.row.instructions,
  replyMode: v.row.replyMode,
  template: v.row.template,
  unanswerableTemplate: v.row.unanswerableTemplate,
  totalWordsCount: v.totalWordsCount,
  outputMode: v.row.outputMode,
  rawOutputFormat: v.row.rawOutputFormat,
  databaseUrl: maskDatabaseUrl(v.row.databaseUrl),
  databaseType: v.row.databaseType as ChatbotRecord["databaseType"],
  includeTables: v.row.includeTables,
  agentMode: v.row.agentMode,
  numberOfRetrievedChunks: v.row.numberOfRetrievedChunks,
  enableEvaluation: v.row.enableEvaluation,
  enableInLineCitations: v.row.enableInLineCitations,
  handoff: handoffSettings(v.row.handoff),
  knowledgeBases: v.knowledgeBases,
  toolkits: [],
  tools: v.tools,
  skills: v.skills,
  groups: v.groups,
  defaultInbox: v.defaultInbox,
  canUpdate: v.canManage,
  canDelete: v.canManage,
  createdAt: ms(v.row.createdAt)!,
  updatedAt: ms(v.row.updatedAt)!,
});
