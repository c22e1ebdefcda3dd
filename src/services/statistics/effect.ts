import type { MessageEffect } from "../conversation/effects";
import { recordFailedReply } from "./failures";

/** A reply the assistant could not give counts in the statistics (a record of the failure). */
export const failedReplyEffect: MessageEffect = {
  name: "failed reply statistics",
  replyFailed: ({ db, conversation, incoming }, error) => recordFailedReply(db, conversation, incoming, error),
};
