// An assistant's body as columns, and the rules it must meet: references the caller may use, and
// rules across fields.
import type { z } from "@hono/zod-openapi";
import type { Bindings, Db } from "../../env";
import type { chatbots } from "../../db/schema";
import { fieldError, forbidden } from "../../lib/errors";
import { schemaProblem } from "../../lib/json-schema";
import type { OrgAccess } from "../access";
import { requireOrganizationGroups } from "../groups";
import { checkChatbotKnowledgeBases } from "../knowledge/knowledge-bases";
import { checkChatbotSkills } from "../skills/write";
import { checkChatbotTools } from "../tools/chatbot-tools";
import { getModel, modelUnavailable, type ModelKind, UNAVAILABLE } from "../models";
import type { ChatbotPatch } from "../records/chatbots";
import type { ChatbotRow } from "./visibility";

export type ChatbotColumns = Partial<typeof chatbots.$inferInsert>;

/**
 * A create, PUT or PATCH body after validation (its transforms applied); absent fields are left as they are. The
 * PATCH body is the create body made partial, so its output type covers all three.
 */
export type ChatbotInput = z.output<typeof ChatbotPatch>;

/** Column values of the fields the body carries (`totalWordsCount` is counted, never written). */
export const chatbotColumns = (b: ChatbotInput): ChatbotColumns => ({
  name: b.name,
  largeLanguageModelId: b.largeLanguageModel,
  fallbackLargeLanguageModelId: b.fallbackLargeLanguageModel,
  embeddingModelId: b.embeddingModel,
  rerankerModelId: b.rerankerModel,
  ragId: b.rag,
  builtInWorkflowId: b.builtInWorkflow,
  instructions: b.instructions === null ? "" : b.instructions,
  replyMode: b.replyMode,
  template: b.template,
  unanswerableTemplate: b.unanswerableTemplate,
  outputMode: b.outputMode,
  rawOutputFormat: b.rawOutputFormat,
  databaseUrl: b.databaseUrl,
  databaseType: b.databaseType,
  includeTables: b.includeTables,
  agentMode: b.agentMode,
  numberOfRetrievedChunks: b.numberOfRetrievedChunks,
  enableEvaluation: b.enableEvaluation,
  enableInLineCitations: b.enableInLineCitations,
  handoff: b.handoff,
});

const MODEL_FIELDS = [
  ["largeLanguageModel", "llm", "large language"],
  ["fallbackLargeLanguageModel", "llm", "large language"],
  ["embeddingModel", "embedding", "embedding"],
  ["rerankerModel", "reranker", "reranker"],
] as const satisfies readonly (readonly [keyof ChatbotInput, ModelKind, string])[];

/**
 * Checks what the body refers to, 400 naming the field otherwise: models the organization may use,
 * groups of the organization (none for a personal assistant), and toolkits and tools, which this
 * service does not have yet (any id is unknown); models that cannot answer here are 400 with the reason. Knowledge
 * bases: `checkChatbotKnowledgeBases`. Non-owners may only add groups they belong to
 * (403). Returns the group ids when the body sets them.
 */
async function checkChatbotReferences(
  db: Db,
  env: Pick<Bindings, "ENCRYPTION_KEY" | "AI">,
  access: OrgAccess,
  personal: boolean,
  body: ChatbotInput,
  currentGroupIds: string[] = [],
): Promise<string[] | undefined> {
  const found = await Promise.all(
    MODEL_FIELDS.map(([field, kind]) => {
      const id = body[field] as string | null | undefined;
      return id ? getModel(db, access.organizationId, id, kind) : true;
    }),
  );
  const missing = MODEL_FIELDS.find((_, i) => !found[i]);
  if (missing) throw fieldError(missing[0], `No ${missing[2]} model with this id is available to the organization.`);
  // A model that cannot answer here (no AI binding, an unreadable key) would fail every reply: say so now
  // (docs/decisions.md, "Honest model choices").
  const rows = found.map((row) => (row === true ? null : row));
  const reasons = await Promise.all(rows.map((row) => (row ? modelUnavailable(row, env) : null)));
  const unavailable = MODEL_FIELDS.findIndex((_, i) => reasons[i] !== null);
  if (unavailable >= 0)
    throw fieldError(
      MODEL_FIELDS[unavailable][0],
      `The model "${rows[unavailable]!.name}" is not available: ${UNAVAILABLE[reasons[unavailable]!]}`,
    );
  for (const [field, noun] of [["toolkits", "toolkit"]] as const) {
    const first = body[field]?.[0];
    if (first) throw fieldError(field, `Unknown ${noun}: ${first.id}.`);
  }
  if (!body.groups) return body.groups === null ? [] : undefined;
  const wanted = [...new Set(body.groups.map((g) => g.id))];
  if (personal && wanted.length)
    throw fieldError("groups", "A personal assistant belongs to no organization and has no groups.");
  await requireOrganizationGroups(db, access, wanted);
  const added = wanted.filter((id) => !currentGroupIds.includes(id));
  if (!access.isOwner && added.some((id) => !access.groupIds.includes(id))) {
    throw forbidden("You can only give an assistant to groups you belong to.");
  }
  return wanted;
}

const JSON_SCHEMA_TYPES = new Set(["object", "array", "string", "number", "integer", "boolean", "null"]);
const isJsonSchema = (value: unknown) => {
  if (!value || typeof value !== "object" || Array.isArray(value)) return false;
  const type = (value as { type?: unknown }).type;
  const types = Array.isArray(type) ? type : [type];
  return types.length > 0 && types.every((t) => typeof t === "string" && JSON_SCHEMA_TYPES.has(t));
};

/**
 * Everything an assistant body (create, PUT or PATCH) refers to, checked in turn (400 or 403 from the first that
 * fails): its models and groups (`checkChatbotReferences`), knowledge bases, tools and skills. Each list is undefined
 * when the body leaves it out.
 */
export async function checkChatbotLinks(
  db: Db,
  env: Pick<Bindings, "ENCRYPTION_KEY" | "AI">,
  access: OrgAccess,
  userId: string,
  personal: boolean,
  body: ChatbotInput,
  currentGroupIds?: string[],
) {
  const groupIds = await checkChatbotReferences(db, env, access, personal, body, currentGroupIds);
  const knowledgeBaseIds = await checkChatbotKnowledgeBases(db, access, userId, body.knowledgeBases);
  const toolIds = await checkChatbotTools(db, access, body);
  const skillIds = await checkChatbotSkills(db, access, body);
  return { groupIds, knowledgeBaseIds, toolIds, skillIds };
}

/** Rules across fields, checked on the assistant as it will be stored (create, PUT and PATCH). */
export function checkChatbotRules(
  bot: Pick<
    ChatbotRow,
    | "replyMode"
    | "template"
    | "outputMode"
    | "rawOutputFormat"
    | "largeLanguageModelId"
    | "fallbackLargeLanguageModelId"
  >,
) {
  if (bot.fallbackLargeLanguageModelId && bot.fallbackLargeLanguageModelId === bot.largeLanguageModelId) {
    throw fieldError(
      "fallbackLargeLanguageModel",
      "Must differ from largeLanguageModel: a fallback answers when that model fails.",
    );
  }
  if (bot.replyMode === "template" && !bot.template?.trim())
    throw fieldError("template", "Required when replyMode is template.");
  if (bot.outputMode === "json_schema" && !isJsonSchema(bot.rawOutputFormat)) {
    throw fieldError("rawOutputFormat", 'Required with outputMode json_schema: a JSON Schema object with a "type".');
  }
  const unusable = bot.outputMode === "json_schema" && schemaProblem(bot.rawOutputFormat);
  if (unusable) throw fieldError("rawOutputFormat", `Answers could not be checked against it: ${unusable}`);
}
