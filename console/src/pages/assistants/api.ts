import { type ApiProblem, api, unwrap, type Schemas } from "../../api/client";
import { choicesOf } from "../../api/choices";
import type { Availability } from "../../components";

export type Assistant = Schemas["Assistant"];
export type AssistantWrite = Schemas["AssistantWrite"];
export type AssistantPatch = Schemas["AssistantPatch"];
export type IdName = Schemas["IdName"];
/** A model the form offers, with whether it can answer here (an unavailable one shows disabled, with its reason). */
export type ModelChoice = IdName & Availability;

export const REPLY_MODES = ["normal", "template", "hybrid", "workflow", "agent"] as const;
export const OUTPUT_MODES = ["text", "json_schema"] as const;
export const AGENT_MODES = ["normal", "canvas"] as const;
export const DATABASE_TYPES = ["PostgreSQL", "MySQL", "MSSQL", "Oracle"] as const;
export const PAGE_SIZE = 20;

export const listAssistants = (page: number, query: string) =>
  unwrap(
    api.GET("/api/v1/chatbots/", { params: { query: { page, pageSize: PAGE_SIZE, ...(query ? { query } : {}) } } }),
  );

export const getAssistant = (id: string) => unwrap(api.GET("/api/v1/chatbots/{id}/", { params: { path: { id } } }));
export const createAssistant = (body: AssistantWrite) => unwrap(api.POST("/api/v1/chatbots/", { body }));
export const updateAssistant = (id: string, body: AssistantPatch) =>
  unwrap(api.PATCH("/api/v1/chatbots/{id}/", { params: { path: { id } }, body }));
export const deleteAssistant = (id: string) =>
  unwrap(api.DELETE("/api/v1/chatbots/{id}/", { params: { path: { id } } }));

/**
 * What the form offers to pick from: the organization's models, knowledge bases, tools, skills and
 * groups (up to 100 of each). A list the member may not read (403: no `tool.view`, say) is null:
 * the form then shows only what the assistant already has.
 */
export interface Choices {
  llms: ModelChoice[];
  embeddings: ModelChoice[];
  rerankers: ModelChoice[];
  knowledgeBases: IdName[] | null;
  tools: IdName[] | null;
  skills: IdName[] | null;
  groups: IdName[] | null;
}

const models = (page: { results: Schemas["Model"][] }): ModelChoice[] =>
  page.results.map(({ id, name, available, unavailableReason, unavailableCode }) => ({
    id,
    name,
    available,
    unavailableReason,
    unavailableCode,
  }));

export async function loadChoices(organizationId: string): Promise<Choices> {
  const query = { pageSize: 100 };
  const [llms, embeddings, rerankers, knowledgeBases, tools, globalTools, skills, groups] = await Promise.all([
    unwrap(api.GET("/api/v1/large-language-models/", { params: { query } })),
    unwrap(api.GET("/api/v1/embedding-models/", { params: { query } })),
    unwrap(api.GET("/api/v1/reranker-models/", { params: { query } })),
    choicesOf("knowledgeBases", organizationId),
    choicesOf("tools", organizationId),
    choicesOf("globalTools", organizationId),
    choicesOf("skills", organizationId),
    choicesOf("groups", organizationId),
  ]);
  return {
    llms: models(llms),
    embeddings: models(embeddings),
    rerankers: models(rerankers),
    knowledgeBases,
    tools: tools && [...tools, ...(globalTools ?? [])],
    skills,
    groups,
  };
}

/**
 * The API's message for a field, including those of its items (`knowledgeBases.0.id` shows at
 * `knowledgeBases`).
 */
export function fieldMessage(problem: ApiProblem | null, field: string): string | undefined {
  if (!problem) return undefined;
  const key = Object.keys(problem.errors).find((k) => k === field || k.startsWith(`${field}.`));
  return key ? problem.errors[key][0] : undefined;
}

/** The organization's language models, for a new assistant's model. */
export const languageModels = () =>
  unwrap(api.GET("/api/v1/large-language-models/", { params: { query: { pageSize: 100 } } }));

/** The assistant's web chats: each web inbox of the assistant has one (its `channel`). */
export const webChatsOf = (assistantId: string) =>
  unwrap(
    api.GET("/api/v1/inboxes/", { params: { query: { channelType: "web", chatbot: assistantId, pageSize: 100 } } }),
  ).then((page) =>
    page.results.flatMap((inbox) =>
      inbox.channel ? [{ id: inbox.channel.id, name: inbox.channel.name || inbox.name }] : [],
    ),
  );

/** A web inbox for the assistant, which comes with its web chat. */
export const createWebInbox = (assistantId: string, name: string) =>
  unwrap(api.POST("/api/v1/inboxes/", { body: { name, channelType: "web", chatbot: { id: assistantId } } }));
