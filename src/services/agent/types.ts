import type { Bindings, Db } from "../../env";
import type { chatbots, messages } from "../../db/schema";
import type { KnowledgeBaseRow } from "../knowledge/knowledge-bases";
import type { QueryMetadata } from "../knowledge/query-scope";
import type { RetrievedPassage } from "../knowledge/retrieval";
import type { ReplyInput } from "../conversation/replies";

export type ToolStatus = "success" | "failure" | "timeout" | "pending";

/** What one call of a tool produced. `pending`: the client runs it (desktop tools) and posts the result. */
export interface ToolOutcome {
  status: ToolStatus;
  /** The result as recorded (string or JSON value). */
  output?: unknown;
  error?: string;
  /** What the model reads; default: the output as JSON text (or the error). */
  forModel?: string;
  /** Parts the reply message carries in `contentPayload` (flex messages, quick replies, ...). */
  payload?: { flex?: unknown[]; quickReplies?: { label: string; text: string }[]; handoff?: true };
  /** Tools the result brings into the loop from the next round on (a skill's attached tools, once `use_skill` loads
   * it). */
  tools?: AgentTool[];
}

/** A reply's tool context: the message it answers, in the assistant's organization, with no passage found yet. */
export const replyToolContext = (env: Bindings, db: Db, input: ReplyInput, signal?: AbortSignal): ToolContext => ({
  env,
  db,
  data: input.data ?? db,
  organizationId: input.incoming.organizationId,
  chatbot: input.chatbot,
  incoming: input.incoming,
  knowledgeBases: input.knowledgeBases,
  contactQueryMetadata: input.contactQueryMetadata,
  signal,
  passages: [],
});

/** What a tool may use while it runs: the reply it belongs to, never more than the organization's. */
export interface ToolContext {
  env: Bindings;
  /** The control plane (configuration) and the organization's data plane (its contacts, conversations). */
  db: Db;
  data: Db;
  organizationId: string;
  chatbot: typeof chatbots.$inferSelect;
  incoming: typeof messages.$inferSelect;
  knowledgeBases: KnowledgeBaseRow[];
  contactQueryMetadata?: QueryMetadata | null;
  signal?: AbortSignal;
  /** Passages retrieved by tools during the reply (the reply's citations). */
  passages: RetrievedPassage[];
  /** Who the conversation is with and who started it (per-contact and per-member MCP credentials). */
  conversation?: { contactId: string | null; createdById: string | null };
  /** Run once the reply's loop has ended, whatever the outcome (providers close MCP sessions). */
  cleanups?: (() => Promise<unknown> | unknown)[];
}

/**
 * One callable tool, as the agent loop sees it. Database tools (api, function, flex, quick reply,
 * desktop), the built-in knowledge search, and later MCP tools, skills and SQL tools all take this
 * shape, so the loop never changes when a kind is added: a provider (see registry.ts) builds them.
 */
export interface AgentTool {
  /** The function name the model calls: `^[A-Za-z0-9_-]{1,64}$`, unique within a reply. */
  name: string;
  /** What the model is told about it. */
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
  /** For records and events. */
  displayName: string;
  /** The record's `tool.toolType`: a tool type, or `knowledge` for the built-in search. */
  kind: string;
  /** The tool row, when it is one (records link to it). */
  toolId: string | null;
  /** Words the built-in local model matches against a question to decide to call it. */
  hints?: string;
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolOutcome>;
}

/** A call as the loop traces it: the record id, the model's call id, and how it ended. */
export interface ToolCallTrace {
  id: string;
  callId: string;
  name: string;
  displayName: string;
  toolType: string;
  toolId: string | null;
  input: Record<string, unknown>;
  status: ToolStatus;
  output: unknown;
  error: string | null;
  durationMs: number | null;
}
