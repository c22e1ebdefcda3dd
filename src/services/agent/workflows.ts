import type { Bindings, Db } from "../../env";
import { complete, ModelError, type ChatMessage, type ChatModel } from "../llm";
import { replyModel } from "../llm/fallback";
import { terms, sentences, streamPieces } from "../llm/text";
import { citationNode, retrievePassages, type RetrievedPassage } from "../knowledge/retrieval";
import type { Reply, ReplyInput } from "../conversation/replies";
import { conversationPrompt } from "../conversation/prompt";
import { runAgentLoop } from "./loop";
import { STORED_OUTPUT_BYTES, withOutputsWithin } from "./output-size";
import { ToolRecorder } from "./recorder";
import { assistantToolsProvider } from "./registry";
import type { AgentOptions } from "./reply";
import { replyToolContext } from "./types";

/** The catalogue of built-in workflows (fixed ids; `builtInWorkflow` of an assistant in workflow mode). */
export const BUILT_IN_WORKFLOWS = [
  {
    id: "00000000-0000-7000-8000-00000000f001",
    name: "Rewrite, retrieve, answer",
    description:
      "Rewrites the question into a standalone search query using the conversation, retrieves passages with " +
      "it, and answers grounded in them.",
    steps: ["rewrite_query", "retrieve", "answer"],
  },
  {
    id: "00000000-0000-7000-8000-00000000f002",
    name: "Classify intent and route to a tool",
    description:
      "Decides which one of the assistant's tools the message calls for (or none), runs it once, and answers " +
      "from its result.",
    steps: ["classify_intent", "call_tool", "answer"],
  },
  {
    id: "00000000-0000-7000-8000-00000000f003",
    name: "Answer, then verify",
    description:
      "Retrieves passages, answers from them, then checks each sentence of the answer against the passages; " +
      "an unsupported answer is replaced by the unanswerable text.",
    steps: ["retrieve", "answer", "verify"],
  },
] as const;

export type WorkflowStep = {
  name: string;
  status: "success" | "failure" | "skipped";
  output: unknown;
  durationMs: number;
};

const SUPPORT_THRESHOLD = 0.5;

/**
 * A `workflow` reply: the assistant's built-in workflow, step by step, each step in
 * contentPayload.steps. The answer streams from its final model step.
 */
export async function workflowReply(
  env: Bindings,
  db: Db,
  input: ReplyInput,
  emit: (text: string) => void,
  options: AgentOptions,
  workflowId: string,
): Promise<Reply> {
  const workflow = BUILT_IN_WORKFLOWS.find((w) => w.id === workflowId);
  if (!workflow) throw new ModelError(`Unknown built-in workflow ${workflowId}.`, 400);
  const model = replyModel(env, db, input.model, input.chatbot.fallbackLargeLanguageModelId);
  const steps: WorkflowStep[] = [];
  const step = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const output = await run();
    steps.push({ name, status: "success", output, durationMs: Math.round(performance.now() - started) });
    return output;
  };
  const { chatbot, incoming } = input;
  const base = conversationPrompt(input);
  const signal = options.signal;
  let passages: RetrievedPassage[] = [];
  let content = "";
  const say = (text: string) => {
    content += text;
    emit(text);
  };
  const answer = async (extra: ChatMessage[] = [], stream = true) => {
    let text = "";
    for await (const e of model.stream({
      messages: [...base, ...extra],
      passages,
      signal,
      onResponse: options.onResponse,
    }))
      if (e.type === "delta") (text += e.text), stream && say(e.text);
    return text;
  };
  const retrieve = (query: string) =>
    step("retrieve", async () => {
      passages = await retrievePassages(
        env,
        db,
        chatbot,
        { ...incoming, content: query },
        input.knowledgeBases,
        input.contactQueryMetadata,
      );
      return passages.map((p) => ({ index: p.index, title: p.title ?? null, score: p.score }));
    });

  if (workflow.id === BUILT_IN_WORKFLOWS[0].id) {
    const query = await step("rewrite_query", async () => ({ query: await rewrite(model, input, signal) }));
    await retrieve(query.query);
    await step("answer", async () => ({ characters: (await answer()).length }));
  } else if (workflow.id === BUILT_IN_WORKFLOWS[1].id) {
    const ctx = replyToolContext(env, db, input, signal);
    const tools = await assistantToolsProvider(ctx, { toolIds: incoming.toolIds });
    const recorder = new ToolRecorder(input.data ?? db, {
      organizationId: incoming.organizationId,
      chatbotId: chatbot.id,
      chatbotName: chatbot.name,
      conversationId: incoming.conversationId,
      messageId: options.replyId ?? null,
      messageText: incoming.content,
    });
    // One round at most: the model picks (or not) one tool, then answers from its result.
    const result = await step("classify_intent", async () =>
      runAgentLoop({
        model,
        request: { messages: base, signal },
        tools,
        ctx,
        recorder,
        maxCalls: 1,
        events: { text: say, toolCall: () => {}, toolResult: () => {} },
      }),
    );
    steps[steps.length - 1].output = { intent: result.calls[0]?.name ?? "none" };
    // The message holds the call twice (its step and toolCalls), so its output takes half of what a reply's may.
    const calls = withOutputsWithin(result.calls, STORED_OUTPUT_BYTES / 2);
    steps.push({
      name: "call_tool",
      status: calls.length ? (calls[0].status === "success" ? "success" : "failure") : "skipped",
      output: calls[0] ?? null,
      durationMs: result.calls[0]?.durationMs ?? 0,
    });
    steps.push({ name: "answer", status: "success", output: { characters: result.content.length }, durationMs: 0 });
    await recorder.flush();
    return {
      content,
      citations: [],
      citationNodes: [],
      usage: result.usage,
      contentPayload: { workflow: { id: workflow.id, name: workflow.name }, steps, toolCalls: calls },
      modelId: model.fallbackAnswered(),
    };
  } else {
    await retrieve(incoming.content);
    const draft = await step("answer", async () => ({ text: await answer([], false) }));
    const verdict = await step("verify", async () => verify(draft.text, passages));
    const final = verdict.supported
      ? draft.text
      : chatbot.unanswerableTemplate?.trim() || "Sorry, I could not find an answer to that in my sources.";
    for (const piece of streamPieces(final)) say(piece);
  }
  return {
    content,
    citations: [
      ...new Map(
        passages.filter((p) => p.file && typeof p.file.id === "string").map((p) => [p.file!.id as string, p.file!]),
      ).values(),
    ],
    citationNodes: passages.map(citationNode),
    usage: null,
    contentPayload: { workflow: { id: workflow.id, name: workflow.name }, steps },
    modelId: model.fallbackAnswered(),
  };
}

/** A standalone search query: the model's rewrite (local model or no history: the question itself, with the previous
 * question's terms). */
async function rewrite(model: ChatModel, input: ReplyInput, signal?: AbortSignal): Promise<string> {
  const previous = [...input.history].reverse().find((m) => m.type === "incoming")?.content ?? "";
  if (!previous || input.model?.provider === "local")
    return previous && input.model?.provider === "local"
      ? `${input.incoming.content} ${previous}`.slice(0, 500)
      : input.incoming.content;
  const out = await complete(model, {
    messages: [
      {
        role: "system",
        content:
          "Rewrite the user's last message as one standalone search query, using the conversation for missing " +
          "context. Answer with the query only.",
      },
      { role: "user", content: `Previous question: ${previous}\nLast message: ${input.incoming.content}` },
    ],
    maxTokens: 60,
    signal,
  });
  return out.content.trim().slice(0, 500) || input.incoming.content;
}

/** Each answer sentence is supported when most of its terms occur in the passages. */
export function verify(answer: string, passages: RetrievedPassage[]) {
  const known = new Set(passages.flatMap((p) => terms(p.text)));
  const checked = sentences(answer).map((s) => {
    const t = [...new Set(terms(s))];
    const share = t.length ? t.filter((x) => known.has(x)).length / t.length : 0;
    return { sentence: s.slice(0, 300), support: Math.round(share * 100) / 100, supported: share >= SUPPORT_THRESHOLD };
  });
  return {
    supported: passages.length > 0 && checked.length > 0 && checked.every((c) => c.supported),
    sentences: checked,
  };
}
