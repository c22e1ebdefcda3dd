import { Validator } from "@cfworker/json-schema";
import { schemaFaultText } from "../../lib/json-schema";
import type { Bindings, Db } from "../../env";
import type { chatbots, models, messages } from "../../db/schema";
import { CitationMarker } from "../knowledge/citations";
import { ModelError, type Usage } from "../llm";
import { replyModel, type AnsweringModel } from "../llm/fallback";
import { streamPieces } from "../llm/text";
import { saysUnknown } from "../llm/local-unknown";
import { conversationPrompt } from "./prompt";
import type { KnowledgeBaseRow } from "../knowledge/knowledge-bases";
import { citationNode, citedFiles, retrievePassages } from "../knowledge/retrieval";
import type { QueryMetadata } from "../knowledge/query-scope";
import { attachmentParts } from "../uploads/reading";
import { agentReply, type AgentOptions } from "../agent/reply";
import { workflowReply } from "../agent/workflows";

type ChatbotRow = typeof chatbots.$inferSelect;
type MessageRow = typeof messages.$inferSelect;

export const DEFAULT_UNANSWERABLE = "Sorry, I could not find an answer to that in my sources.";
const ANSWER_SLOT = "{{answer}}";

export interface ReplyInput {
  chatbot: ChatbotRow;
  /** The assistant's language model (null when it no longer exists). */
  model: typeof models.$inferSelect | null;
  /** The knowledge bases the assistant answers from. */
  knowledgeBases: KnowledgeBaseRow[];
  /** Earlier messages of the conversation, oldest first. */
  history: MessageRow[];
  incoming: MessageRow;
  /** The query restrictions of the conversation's contact, when known (else read; see retrievePassages). */
  contactQueryMetadata?: QueryMetadata | null;
  /** Wait for attached documents' text before answering (default true); false answers without those not yet read. */
  waitForAttachments?: boolean;
  /** The conversation as its object holds it (agent replies: whose MCP credentials apply). */
  conversation?: { contactId: string | null; createdById: string | null };
  /** The organization's data plane (attachments, tool execution records); the control plane's `db` when absent. */
  data?: Db;
  /** A reply outside any conversation (batch QA): its tool calls are not recorded, as nothing but its answer is. */
  unrecorded?: boolean;
}

export interface Reply {
  content: string;
  citations: Record<string, unknown>[];
  citationNodes: Record<string, unknown>[];
  usage: Usage | null;
  /** Agent replies: tool calls and what tools produced (flex messages, quick replies). */
  contentPayload?: Record<string, unknown>;
  /** The model that answered when it is not the assistant's own (its fallback did). */
  modelId?: string;
  /** It says that nothing in the sources answers (the unanswerable template): counted toward a handoff. */
  unanswered?: boolean;
  /** The agent called its `handoff` tool (handoff-tool.ts): the turn hands the conversation to a person. */
  handsOff?: boolean;
}

/**
 * The assistant's answer to one message, emitted as text deltas while it is produced. Reply modes
 * (docs/decisions.md, "Reply modes"): `normal` (and, for now, `workflow`) lets the model answer;
 * `agent` runs the tool-calling loop (services/agent); `template` fills the template with the best retrieved passage,
 * word for word; `hybrid` fills it with the model's grounded answer. In `template` and `hybrid`, when nothing
 * relevant is retrieved the reply is the unanswerable text, never a guess.
 */
export async function generateReply(
  env: Bindings,
  db: Db,
  input: ReplyInput,
  emit: (text: string) => void,
  options: AgentOptions = {},
): Promise<Reply> {
  const { chatbot, incoming } = input;
  if (chatbot.replyMode === "agent") return agentReply(env, db, input, emit, options);
  if (chatbot.replyMode === "workflow" && chatbot.builtInWorkflowId)
    return workflowReply(env, db, input, emit, options, chatbot.builtInWorkflowId);
  const [passages, attachments] = await Promise.all([
    retrievePassages(
      env,
      db,
      chatbot,
      incoming,
      input.knowledgeBases,
      input.contactQueryMetadata,
      visitorMessages(input.history),
    ),
    attachmentParts(env, incoming, input.history, input.waitForAttachments ?? true),
  ]);
  const jsonSchema = chatbot.outputMode === "json_schema" ? (chatbot.rawOutputFormat ?? undefined) : undefined;
  const templated = !jsonSchema && (chatbot.replyMode === "template" || chatbot.replyMode === "hybrid");
  const marker = chatbot.enableInLineCitations && passages.length && !jsonSchema ? new CitationMarker(passages) : null;
  let content = "";
  const out = (text: string) => {
    if (!text) return;
    content += text;
    emit(text);
  };
  const write = (text: string) => out(marker ? marker.push(text) : text);

  if (templated && !passages.length) {
    for (const piece of streamPieces(chatbot.unanswerableTemplate?.trim() || DEFAULT_UNANSWERABLE)) out(piece);
    return { content, citations: [], citationNodes: [], usage: null, unanswered: true };
  }
  const [before, after] = templated ? splitTemplate(chatbot.template ?? ANSWER_SLOT) : ["", ""];
  write(before);
  let usage: Usage | null = null;
  let model: AnsweringModel | null = null;
  if (templated && chatbot.replyMode === "template") {
    for (const piece of streamPieces(passages[0].text.trim())) write(piece);
  } else {
    model = replyModel(env, db, input.model, chatbot.fallbackLargeLanguageModelId);
    const request = {
      messages: conversationPrompt(input),
      passages,
      attachments,
      jsonSchema,
      signal: options.signal,
      onResponse: options.onResponse,
      whole: options.whole,
    };
    for await (const event of model.stream(request)) {
      if (event.type === "delta") write(event.text);
      else if (event.type === "usage") usage = event.usage;
    }
  }
  write(after);
  if (marker) out(marker.flush());
  if (jsonSchema) checkJson(content, jsonSchema);
  // With in-line markers, [n] names citationNodes[n - 1]: every retrieved passage stays listed, and
  // the cited files are those some marker points at.
  const used = marker ? passages.filter((p) => marker.cited.has(p.index)) : passages;
  const fallback = model?.fallbackAnswered();
  // Could not answer: the built-in model says so in so many words (other models' words are their own). Such a reply
  // rests on no passage: listed as its sources, the passages found read as what "I don't know" came from.
  const unanswered = !fallback && input.model?.provider === "local" && saysUnknown(content);
  return {
    content,
    citations: unanswered ? [] : citedFiles(used),
    citationNodes: unanswered ? [] : passages.map(citationNode),
    usage,
    modelId: fallback,
    ...(unanswered ? { unanswered } : {}),
  };
}

/** What the visitor said before this message, oldest first: a follow-up is searched with its previous question. */
const visitorMessages = (history: MessageRow[]) => history.filter((m) => m.type === "incoming").map((m) => m.content);

function splitTemplate(template: string): [string, string] {
  const at = template.indexOf(ANSWER_SLOT);
  return at < 0 ? [`${template}\n\n`, ""] : [template.slice(0, at), template.slice(at + ANSWER_SLOT.length)];
}

function checkJson(content: string, schema: Record<string, unknown>) {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    throw new ModelError("The model's answer is not JSON, as outputMode json_schema requires.");
  }
  let result: ReturnType<Validator["validate"]>;
  try {
    result = new Validator(schema as never, "2020-12", false).validate(value);
  } catch (err) {
    // A schema saved before the check on save (lib/json-schema.ts), whose fault shows only once an answer reaches it.
    throw new ModelError(`rawOutputFormat cannot be used to check the answer: ${schemaFaultText(err)}`);
  }
  if (!result.valid) {
    throw new ModelError(
      `The model's answer does not match rawOutputFormat: ${result.errors
        .map((e) => e.error)
        .slice(0, 3)
        .join("; ")}`,
    );
  }
}
