import type { models } from "../../db/schema";
import type { ChatEvent, ChatMessage, ChatModel, ChatRequest } from "../llm";
import { WORKERS_AI_FUNCTION_CALLING } from "../llm/workers-ai";

/**
 * Whether the provider takes `tools` and answers `tool_calls`; others get the text protocol below.
 * On Workers AI only the function-calling models do (their tool rounds run without streaming).
 */
export function nativeToolCalling(model: typeof models.$inferSelect): boolean {
  return model.provider !== "workers_ai" || WORKERS_AI_FUNCTION_CALLING.has(model.modelName);
}

const ACTION = /^\s*Action:\s*([A-Za-z0-9_-]{1,64})\s*\n\s*Action Input:\s*([\s\S]*?)\s*$/;

/**
 * Tool calling for models without it (ReAct): the tools are described in the system message, the
 * model answers either `Action: <name>` + `Action Input: <JSON>` or its answer; earlier calls and
 * results are written back as text. The answer streams once it is clearly not an action.
 */
export function withTextProtocol(inner: ChatModel): ChatModel {
  return {
    async *stream(request: ChatRequest): AsyncIterable<ChatEvent> {
      if (!request.tools?.length && !request.messages.some((m) => m.role === "tool" || m.toolCalls?.length)) {
        yield* inner.stream(request);
        return;
      }
      const messages = textMessages(request);
      let buffered = "";
      let streaming = false;
      let n = 0;
      for await (const event of inner.stream({ ...request, messages, tools: undefined, toolChoice: undefined })) {
        if (event.type !== "delta") {
          yield event;
          continue;
        }
        if (streaming) {
          yield event;
          continue;
        }
        buffered += event.text;
        // Once the text cannot become "Action:", it is the answer: stream it.
        const head = buffered.trimStart();
        if (head.length >= 7 && !head.startsWith("Action:")) {
          streaming = true;
          yield { type: "delta", text: buffered };
        }
      }
      if (streaming) return;
      const action = ACTION.exec(buffered);
      if (action && request.tools?.length) {
        const args = action[2].trim().replace(/^```(?:json)?\s*|\s*```$/g, "");
        yield { type: "tool_call", id: `call_text_${++n}`, name: action[1], arguments: args || "{}" };
      } else if (buffered) yield { type: "delta", text: buffered };
    },
  };
}

function textMessages(request: ChatRequest): ChatMessage[] {
  const tools = (request.tools ?? []).map(
    (t) =>
      `- ${t.function.name}: ${t.function.description ?? ""}\n  arguments (JSON Schema): ` +
      `${JSON.stringify(t.function.parameters ?? {})}`,
  );
  const protocol = tools.length
    ? "You can use these tools:\n" +
      tools.join("\n") +
      "\n\nTo use one, reply with exactly two lines and nothing else:\nAction: <tool name>\nAction Input: " +
      "<arguments as a JSON object>\n" +
      "You will then get an Observation with its result. When you can answer, reply with the answer only."
    : "";
  const out: ChatMessage[] = [];
  for (const m of request.messages) {
    if (m.role === "assistant" && m.toolCalls?.length) {
      out.push({
        role: "assistant",
        content: m.toolCalls.map((c) => `Action: ${c.name}\nAction Input: ${c.arguments || "{}"}`).join("\n"),
      });
    } else if (m.role === "tool")
      out.push({ role: "user", content: `Observation (${m.name ?? "tool"}): ${m.content}` });
    else out.push({ role: m.role, content: m.content });
  }
  if (!protocol) return out;
  const at = out.findIndex((m) => m.role === "system");
  if (at < 0) return [{ role: "system", content: protocol }, ...out];
  out[at] = { ...out[at], content: `${out[at].content}\n\n${protocol}` };
  return out;
}
