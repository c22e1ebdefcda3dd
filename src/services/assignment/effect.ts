import { getDb } from "../../db";
import type { MessageEffect } from "../conversation/effects";
import { autoAssignAndPublish } from "./round-robin";

/**
 * A stored message that queued its conversation for a person (the assistant's handoff reply, or a
 * visitor writing again to a resolved conversation the assistant had left): automatic assignment
 * runs after it (round-robin.ts; nothing for a manual inbox). Web and channel conversations alike
 * store their messages through the effects, so this is the one place it starts.
 */
export const autoAssignmentEffect: MessageEffect = {
  name: "auto assignment",
  stored({ env, waitUntil, organizationId, messages }) {
    for (const { conversation, before } of messages) {
      if (conversation.status !== "queued" || before.status === "queued" || conversation.assigneeId) continue;
      waitUntil(autoAssignAndPublish(env, getDb(env.DB), organizationId, conversation.id));
    }
  },
};
