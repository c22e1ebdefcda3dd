import { Validator } from "@cfworker/json-schema";
import { ApiError } from "../../lib/errors";
import { uuidv7 } from "../../lib/ids";
import type { ChatMessage, ChatModel, ChatRequest, ToolCall, ToolDefinition, Usage } from "../llm";
import { ModelError } from "../llm/types";
import type { ToolRecorder } from "./recorder";
import type { AgentTool, ToolCallTrace, ToolContext, ToolOutcome } from "./types";
import { logError, logWarn } from "../../lib/log";
import { schemaFaultText } from "../../lib/json-schema";

export const DEFAULT_MAX_TOOL_CALLS = 10;
const MODEL_RESULT_CHARS = 16_000;

export interface LoopEvents {
  text(delta: string): void;
  toolCall(trace: ToolCallTrace): void;
  toolResult(trace: ToolCallTrace): void;
}

export interface LoopInput {
  model: ChatModel;
  /** The conversation so far and the system prompt; the loop appends the agent's turns. */
  request: ChatRequest;
  tools: AgentTool[];
  ctx: ToolContext;
  recorder: ToolRecorder;
  events: LoopEvents;
  maxCalls?: number;
  /** Force a tool on the first round (the message's toolIds). */
  firstChoice?: ChatRequest["toolChoice"];
}

export interface LoopResult {
  content: string;
  usage: Usage | null;
  calls: ToolCallTrace[];
  payload: NonNullable<ToolOutcome["payload"]>;
  /** Calls the client has to run (desktop tools): the reply stops there. */
  pending: ToolCallTrace[];
  /** The model turns the loop added (assistant calls and tool results), for a resumed reply. */
  turns: ChatMessage[];
}

export const toolDefinition = (t: AgentTool): ToolDefinition => ({
  type: "function",
  function: { name: t.name, description: t.description, parameters: t.parameters },
});

/**
 * The tool-calling loop of agent replies: the model gets the tools as functions, each call it
 * makes runs (and is recorded), its result goes back to the model, until the model answers
 * without calling, or the call limit is reached (then it is asked once more, without tools).
 * Calls of one round run concurrently; their events are sent in the model's order.
 */
export async function runAgentLoop(input: LoopInput): Promise<LoopResult> {
  const { model, tools, ctx, recorder, events } = input;
  const maxCalls = input.maxCalls ?? DEFAULT_MAX_TOOL_CALLS;
  const byName = new Map(tools.map((t) => [t.name, t]));
  const definitions = tools.map(toolDefinition);
  const messages = [...input.request.messages];
  const turns: ChatMessage[] = [];
  const calls: ToolCallTrace[] = [];
  const payload: LoopResult["payload"] = {};
  let content = "";
  let usage: Usage | null = null;
  for (let round = 0; ; round++) {
    const offer = tools.length > 0 && calls.length < maxCalls;
    const request: ChatRequest = {
      ...input.request,
      messages,
      tools: offer ? definitions : undefined,
      toolChoice: offer && round === 0 ? input.firstChoice : undefined,
    };
    let text = "";
    const asked: ToolCall[] = [];
    for await (const event of model.stream(request)) {
      if (event.type === "delta") {
        text += event.text;
        events.text(event.text);
      } else if (event.type === "tool_call") asked.push({ id: event.id, name: event.name, arguments: event.arguments });
      else if (event.type === "usage") usage = addUsage(usage, event.usage);
    }
    content += text;
    if (!asked.length || !offer) return { content, usage, calls, payload, pending: [], turns };
    const room = maxCalls - calls.length;
    const run = asked.slice(0, room);
    const assistant: ChatMessage = { role: "assistant", content: text, toolCalls: run };
    messages.push(assistant);
    turns.push(assistant);
    const traces = run.map((call) => begin(call, byName.get(call.name)));
    for (const t of traces) {
      recorder.start(t);
      events.toolCall(t);
    }
    calls.push(...traces);
    const outcomes = await Promise.all(run.map((call, i) => execute(byName.get(call.name), traces[i], ctx)));
    const pending: ToolCallTrace[] = [];
    run.forEach((call, i) => {
      const t = traces[i];
      const o = outcomes[i];
      Object.assign(t, { status: o.status, output: o.output ?? null, error: o.error ?? null });
      recorder.finish(t);
      if (o.status === "pending") pending.push(t);
      else events.toolResult(t);
      if (o.payload?.flex) (payload.flex ??= []).push(...o.payload.flex);
      if (o.payload?.quickReplies) payload.quickReplies = o.payload.quickReplies;
      if (o.payload?.handoff) payload.handoff = true;
      for (const added of o.tools ?? []) {
        if (byName.has(added.name)) continue;
        byName.set(added.name, added);
        definitions.push(toolDefinition(added));
      }
      if (o.status !== "pending") {
        const result: ChatMessage = { role: "tool", toolCallId: call.id, name: call.name, content: forModel(o) };
        messages.push(result);
        turns.push(result);
      }
    });
    if (pending.length) return { content, usage, calls, payload, pending, turns };
  }
}

function begin(call: ToolCall, tool: AgentTool | undefined): ToolCallTrace {
  // Arguments that are not a JSON object (unparseable, or an array, a string, a number) are kept as they came and the
  // call fails (execute): a tool's arguments are an object by its schema, and one made up around them ({value}) would
  // send the tool what the model never meant.
  let input: Record<string, unknown> = { _raw: call.arguments.slice(0, 10_000) };
  try {
    const parsed = call.arguments.trim() ? JSON.parse(call.arguments) : {};
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) input = parsed;
  } catch {
    // Kept as they came.
  }
  return {
    id: uuidv7(),
    callId: call.id,
    name: call.name,
    displayName: tool?.displayName ?? call.name,
    toolType: tool?.kind ?? "unknown",
    toolId: tool?.toolId ?? null,
    input,
    status: "pending",
    output: null,
    error: null,
    durationMs: null,
  };
}

async function execute(tool: AgentTool | undefined, trace: ToolCallTrace, ctx: ToolContext): Promise<ToolOutcome> {
  const started = performance.now();
  const done = (o: ToolOutcome): ToolOutcome => {
    trace.durationMs = Math.round(performance.now() - started);
    return o;
  };
  if (!tool) return done({ status: "failure", error: `No tool named "${trace.name}" is available.` });
  if ("_raw" in trace.input) return done({ status: "failure", error: "The arguments are not a JSON object." });
  let check: ReturnType<Validator["validate"]>;
  try {
    check = new Validator(tool.parameters as never, "2020-12", false).validate(trace.input);
  } catch (err) {
    // A schema the validator cannot use (saved before it was checked, or an MCP server's): the tool cannot be
    // called as described, which is this call's failure, not the reply's.
    const fault = schemaFaultText(err);
    logWarn("tool parameters schema unusable", { tool: trace.name, error: fault });
    return done({ status: "failure", error: `The tool's parameters schema cannot be used: ${fault}` });
  }
  if (!check.valid)
    return done({
      status: "failure",
      error: `Invalid arguments: ${check.errors
        .map((e) => e.error)
        .slice(0, 3)
        .join("; ")}`,
    });
  try {
    return done(await tool.run(trace.input, ctx));
  } catch (err) {
    // A tool says its expected failures in its outcome; one it throws is told to the model as the call's failure (the
    // reply goes on) and logged, as it may be a bug of the tool.
    if (!(err instanceof ApiError || err instanceof ModelError))
      logError("tool threw", { tool: trace.name, error: String(err), stack: (err as Error)?.stack });
    return done({ status: "failure", error: String((err as Error)?.message ?? err).slice(0, 1000) });
  }
}

function forModel(o: ToolOutcome): string {
  if (o.forModel !== undefined) return o.forModel;
  if (o.status !== "success") return `Error (${o.status}): ${o.error ?? "the tool failed"}`;
  const text = typeof o.output === "string" ? o.output : JSON.stringify(o.output ?? null);
  return text.length > MODEL_RESULT_CHARS ? `${text.slice(0, MODEL_RESULT_CHARS)} [truncated]` : text;
}

function addUsage(a: Usage | null, b: Usage): Usage {
  if (!a) return b;
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}
