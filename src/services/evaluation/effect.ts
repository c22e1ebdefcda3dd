import type { MessageEffect } from "../conversation/effects";
import { enqueueEvaluations } from "./records";

/** An answered message of an assistant with evaluation on is scored in the background (the evaluation queue). */
export const evaluationEffect: MessageEffect = {
  name: "evaluations",
  replied({ env, waitUntil, chatbot, conversation, incoming }) {
    if (!chatbot.enableEvaluation) return;
    const job = { recordId: incoming.id, organizationId: conversation.organizationId };
    waitUntil(enqueueEvaluations(env, [job]).catch(() => undefined));
  },
};
