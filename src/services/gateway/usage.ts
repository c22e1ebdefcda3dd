// What an AI gateway answer counts (docs/decisions.md, "AI gateway"): its words in the organization's month, which
// the plan's monthly words read, and the hourly rollups the usage statistics read, in one batch so the two agree.
import type { Db } from "../../env";
import { batch } from "../../db/prepared";
import type { ToolCall, Usage } from "../llm";
import { gatewayFigureWrite } from "../statistics/message-figures";
import { usageIncrement } from "../usage";
import { answerWords } from "./completion";

/** Who asked: the organization, the user whose key it was, and the model that answered. */
export interface GatewayCaller {
  organizationId: string;
  userId: string;
  modelId: string;
}

/** What was answered, and the usage its provider reported. */
export interface GatewayAnswer {
  content: string;
  toolCalls: ToolCall[];
  usage: Usage | null;
}

/** Counts an answer; one with no words and no usage reported (a stream cut before anything) counts nothing. */
export async function recordGatewayAnswer(data: Db, caller: GatewayCaller, answer: GatewayAnswer, now = Date.now()) {
  const { organizationId } = caller;
  const { usage } = answer;
  const words = answerWords(answer.content, answer.toolCalls);
  if (words <= 0 && !usage) return;
  await batch(data, [
    usageIncrement(data, organizationId, { words }, now),
    gatewayFigureWrite(data, {
      ...caller,
      inputTokens: usage?.promptTokens ?? 0,
      outputTokens: usage?.completionTokens ?? 0,
      words,
      at: now,
    }),
  ]);
}
