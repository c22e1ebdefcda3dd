import { z } from "@hono/zod-openapi";
import { IdRef, GroupRefs, NameField } from "../../lib/openapi";
import { PageQuery } from "../../lib/pagination";
import { AGENT_MODES, DATABASE_TYPES, OUTPUT_MODES, REPLY_MODES } from "../../services/records/chatbots";

export const CHATBOTS_TAG = "Assistants";

const EXAMPLE_ID = "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d";
const LOCAL_LLM = "00000000-0000-7000-8000-000000000001";

const object = () => z.record(z.string(), z.unknown());

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
      description: "Knowledge bases of the organization it answers from (`[{id}]`); replaces the list",
      example: [{ id: EXAMPLE_ID }],
    }),
  toolkits: notYet("Toolkits"),
  tools: z.array(IdRef).max(100).nullable().optional().openapi({
    description: "Tools it may call in agent mode (`[{id}]`, tools you can see); replaces the list",
    example: [],
  }),
  skills: z.array(IdRef).max(100).nullable().optional().openapi({
    description: "Skills it may use in agent mode (`[{id}]`, skills you can see); replaces the list",
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

export const ChatbotListQuery = PageQuery.extend({
  query: z
    .string()
    .max(200)
    .optional()
    .openapi({ description: "Name contains (case-insensitive)", example: "support" }),
  replyMode: z
    .enum(REPLY_MODES)
    .optional()
    .openapi({ description: "Only assistants in this reply mode", example: "normal" }),
});

export const EnableEvaluationBody = z
  .object({
    enableEvaluation: z.boolean().optional().openapi({ description: "Absent (or no body) means true", example: true }),
  })
  .openapi("AssistantEnableEvaluation");
