// A new conversation links to its inbox and assistant, control rows (`DB`) its writer read before storing it in the
// data plane. Their delete writes a purge in the data plane, then deletes the row, then writes the purge again
// (services/purges.ts); a writer that read the row before the delete and stored the conversation after the
// housekeeping's run of the last purge would leave it (and what its first turn wrote) where no purge comes again. So
// the rows are read once more after the conversation is stored, and a purge is written for each one gone: the next
// run takes what it finds. Once per conversation, never per message.
import { eq } from "drizzle-orm";
import { getDb } from "../../db";
import { chatbots, inboxes } from "../../db/schema";
import type { Bindings, Db } from "../../env";
import type { ConversationRow } from "../conversations";
import { writePurges, type Purge } from "../purges";
import { conversationDb } from "../shards/parts";
import type { MessageEffect } from "./effects";
import { logError } from "../../lib/log";

/**
 * Purges, in the conversation's part (`part`, else looked up), what `conversation` links to that is gone from `DB`:
 * its inbox (the conversation goes, named to forget) and its assistant (unlinked).
 */
export async function purgeLinksGone(
  env: Bindings,
  conversation: Pick<ConversationRow, "id" | "organizationId" | "inboxId" | "chatbotId">,
  part?: Db,
): Promise<void> {
  const { organizationId, inboxId, chatbotId } = conversation;
  const db = getDb(env.DB);
  const [inbox, chatbot] = await db.batch([
    db.select({ id: inboxes.id }).from(inboxes).where(eq(inboxes.id, inboxId)),
    db
      .select({ id: chatbots.id })
      .from(chatbots)
      .where(eq(chatbots.id, chatbotId ?? "")),
  ]);
  const gone: Purge[] = [];
  if (!inbox.length) gone.push({ organizationId, kind: "inbox", id: inboxId });
  if (chatbotId && !chatbot.length) gone.push({ organizationId, kind: "chatbot", id: chatbotId });
  if (!gone.length) return;
  await writePurges([part ?? (await conversationDb(env, organizationId, conversation.id))], gone);
}

/**
 * How long the check waits after the batch: past the turn's model request and first words, which its reads would
 * otherwise share the runtime with (measured: +0.5 ms on a first turn's first byte); the window it closes is the
 * housekeeping's, minutes.
 */
const CHECK_AFTER_MS = 1000;

/** The check above for each conversation a batch of messages created, after the response. */
export const createdLinksEffect: MessageEffect = {
  name: "created links",
  stored({ env, waitUntil, created }) {
    if (!created) return;
    waitUntil(
      scheduler
        .wait(CHECK_AFTER_MS)
        .then(() => purgeLinksGone(env, created))
        .catch((err) =>
          logError("new conversation's links not checked", { conversationId: created.id, error: String(err) }),
        ),
    );
  },
};
