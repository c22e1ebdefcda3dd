import { z } from "@hono/zod-openapi";
import { AGENT_MODES, OUTPUT_MODES, REPLY_MODES } from "../../db/schema";
import { GroupRefs, IdName, IdRef, NameField, Timestamps } from "../../lib/openapi";
import { ms } from "../../lib/time";
import { maskDatabaseUrl, type ChatbotView } from "../chatbots/views";
import { handoffSettings } from "../conversation/handoff";

const DATABASE_TYPES = ["MySQL", "PostgreSQL", "MSSQL", "Oracle"] as const;
// The route schemas take this enum from here (routes do not import db/schema).
export { REPLY_MODES };

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
    knowledgeBases: idNames("Knowledge bases it answers from (those you can see)"),
    toolkits: idNames("Toolkits it may use (none yet)"),
    tools: idNames("Tools it may call in agent mode (those you can see)"),
    skills: idNames("Skills it may use in agent mode (use_skill; those you can see)"),
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
  databaseUrl: maskDatabaseUrl(v.row),
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

// Request bodies, beside the record (docs/decisions.md, "One word per concept, and where a record's shape is
// written").
const LOCAL_LLM = "00000000-0000-7000-8000-000000000001";

/** An optional uuid reference; `""` reads as null (no reference). */
const optionalId = (description: string, example: string | null = EXAMPLE_ID) =>
  z
    .union([z.uuid(), z.literal(""), z.null()])
    .optional()
    .transform((v) => (v === "" ? null : v))
    .openapi({ description, example });

/** `[{id}]` of resources this service does not have yet: any id given is a 400. */
const notYet = (noun: string) =>
  z
    .array(
      z.object({
        id: z.string().openapi({ description: "An id; none exists yet, so any id is a 400", example: EXAMPLE_ID }),
      }),
    )
    .max(100)
    .nullable()
    .optional()
    .openapi({
      description: `${noun} (\`[{id}]\`). There are none in this service yet: only an empty list is accepted.`,
      example: [],
    });

const fields = {
  name: NameField("A label; in agent mode also used by the model", "Support assistant"),
  largeLanguageModel: z.uuid().openapi({
    description: "A large language model available to the organization (built-in or its own)",
    example: LOCAL_LLM,
  }),
  fallbackLargeLanguageModel: optionalId(
    "A second large language model of the organization, not the same as largeLanguageModel, that answers when " +
      "largeLanguageModel fails before its first token (after its retries); null or empty: none",
    null,
  ),
  embeddingModel: optionalId(
    "An embedding model available to the organization",
    "00000000-0000-7000-8000-000000000002",
  ),
  rerankerModel: optionalId("A reranker model available to the organization", "00000000-0000-7000-8000-000000000003"),
  rag: optionalId("RAG pipeline id, stored as given", null),
  builtInWorkflow: optionalId("Built-in workflow id, stored as given", null),
  instructions: z
    .string()
    .max(100_000)
    .nullable()
    .optional()
    .openapi({ description: "Role description", example: "You answer questions about our products." }),
  knowledgeBases: z
    .array(IdRef)
    .max(100)
    .nullable()
    .optional()
    .openapi({
      description:
        "Knowledge bases of the organization it answers from (`[{id}]`, knowledge bases you can see); replaces the " +
        "links to those you can see, links to others stay",
      example: [{ id: EXAMPLE_ID }],
    }),
  toolkits: notYet("Toolkits"),
  tools: z.array(IdRef).max(100).nullable().optional().openapi({
    description: "Tools it may call in agent mode (`[{id}]`, tools you can see); replaces those, others stay",
    example: [],
  }),
  skills: z.array(IdRef).max(100).nullable().optional().openapi({
    description: "Skills it may use in agent mode (`[{id}]`, skills you can see); replaces those, others stay",
    example: [],
  }),
  groups: GroupRefs(
    "Groups of the organization whose members may see it (`[{id}]`); non-owners may only add groups they belong to",
    [{ id: EXAMPLE_ID }],
  ),
  replyMode: z
    .enum(REPLY_MODES)
    .optional()
    .openapi({ description: "normal, template, hybrid, workflow or agent", example: "normal" }),
  template: z
    .string()
    .max(100_000)
    .nullable()
    .optional()
    .openapi({ description: "Reply of template and hybrid modes; required in template mode", example: null }),
  unanswerableTemplate: z
    .string()
    .max(100_000)
    .nullable()
    .optional()
    .openapi({ description: "Reply when nothing answers the question", example: null }),
  totalWordsCount: z
    .number()
    .int()
    .nullable()
    .optional()
    .openapi({ description: "Read-only: accepted and ignored", example: 0 }),
  outputMode: z
    .enum(OUTPUT_MODES)
    .optional()
    .openapi({ description: "text, or json_schema (needs rawOutputFormat)", example: "text" }),
  rawOutputFormat: object()
    .nullable()
    .optional()
    .openapi({
      description: 'JSON Schema of replies (an object with a "type"); required in json_schema mode',
      example: { type: "object", properties: { answer: { type: "string" } } },
    }),
  databaseUrl: z.string().max(2000).nullable().optional().openapi({
    description: "Connection string for text-to-SQL",
    example: "postgresql://bot:secret@db.example.com/shop",
  }),
  databaseType: z
    .enum(DATABASE_TYPES)
    .nullable()
    .optional()
    .openapi({ description: "MySQL, PostgreSQL, MSSQL or Oracle", example: "PostgreSQL" }),
  includeTables: object()
    .nullable()
    .optional()
    .openapi({ description: "Tables text-to-SQL may read", example: { tables: ["orders"] } }),
  agentMode: z.enum(AGENT_MODES).optional().openapi({ description: "normal or canvas", example: "normal" }),
  numberOfRetrievedChunks: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .optional()
    .openapi({ description: "Passages retrieved per question (default 12)", example: 12 }),
  enableEvaluation: z
    .boolean()
    .optional()
    .openapi({
      description:
        "Score each answered question in the background (faithfulness, answer relevancy and the other metrics of its " +
        "chatbot records); default false, and the scores stay null while it is off",
      example: false,
    }),
  enableInLineCitations: z
    .boolean()
    .optional()
    .openapi({ description: "Insert citation markers like [1][2] in replies", example: false }),
  handoff: z
    .strictObject({
      enabled: z.boolean().optional().openapi({ description: "Default true", example: true }),
      afterUnanswered: z.int().min(0).max(20).optional().openapi({
        description: "Replies in a row that could not answer before handing off; default 2, 0: never",
        example: 2,
      }),
      message: z.string().trim().max(2000).nullable().optional().openapi({
        description: "Said as it hands off; null or empty: a default in the visitor's language",
        example: "A colleague will take it from here.",
      }),
      outsideHoursMessage: z.string().trim().max(2000).nullable().optional().openapi({
        description:
          "Said instead outside the inbox's business hours; null or empty: a default in the visitor's language",
        example: "We open at 9:00 and will reply then.",
      }),
    })
    .nullable()
    .optional()
    .openapi({
      description: "Replaces the handoff settings (fields left out take their defaults); null: the defaults",
      example: { enabled: true, afterUnanswered: 2, message: null, outsideHoursMessage: null },
    }),
};

const organization = z
  .union([z.uuid(), z.literal(""), z.null()])
  .optional()
  .openapi({
    description: "Absent: the current organization. Empty or null: a personal assistant. Fixed after creation.",
    example: EXAMPLE_ID,
  });

/** POST and PUT: `name` and `largeLanguageModel` required. */
export const ChatbotWrite = z.object({ ...fields, organization }).openapi("AssistantWrite");
/** PATCH: any subset. */
export const ChatbotPatch = ChatbotWrite.partial().openapi("AssistantPatch");
