import type { MessageEffect } from "../conversation/effects";
import { enqueueEvaluations } from "./records";
import { logError } from "../../lib/log";

/** An answered message of an assistant with evaluation on is scored in the background (the evaluation queue). */
export const evaluationEffect: MessageEffect = {
  name: "evaluations",
  replied({ env, waitUntil, chatbot, conversation, incoming }) {
    if (!chatbot.enableEvaluation) return;
    const job = { recordId: incoming.id, organizationId: conversation.organizationId, conversationId: conversation.id };
    // The record stays pending, so should the queue refuse, the housekeeping cron queues it again (records.ts).
    waitUntil(
      enqueueEvaluations(env, [job]).catch((err) =>
        logError("evaluation not queued; the housekeeping cron queues it", {
          recordId: job.recordId,
          error: String(err),
        }),
      ),
    );
  },
};
