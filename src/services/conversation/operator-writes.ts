// What operators do to a conversation beside writing its messages: start it, change its state (take over, hand back,
// resolve, assign), label it, read it. Each is told to the organization's live inbox after the write (in
// `waitUntil`, not holding the answer).
import type { Bindings, Db } from "../../env";
import { notFound } from "../../lib/errors";
import { requireContact } from "../contacts";
import { assignAfterChange } from "../assignment/round-robin";
import { type ConversationChange, conversationObject, newConversation, storeConversation } from "../conversations";
import type { ChangeReason } from "../records/conversation-events";
import { conversationDb } from "../shards/parts";
import { requireWebChatOf } from "../inboxes";
import { setConversationLabels } from "../labels";
import { conversationEvent, lifecycleEvent, publishInboxEvents } from "./inbox-events";
import { markConversationRead } from "./read";
import { type ConversationView, findConversation } from "./views";

type WaitUntil = (p: Promise<unknown>) => void;

/** The conversation as written (404 when it is gone), once `event` is told to the live inbox. */
function told(
  env: Bindings,
  waitUntil: WaitUntil,
  organizationId: string,
  event: "conversation.created" | "conversation.updated",
  view: ConversationView | null,
): ConversationView {
  if (!view) throw notFound();
  waitUntil(publishInboxEvents(env, organizationId, conversationEvent(event, view.conversation)));
  return view;
}

/**
 * A conversation started from a web chat (its inbox and assistant; 404 for another organization's), of a contact of
 * the organization (400 naming `contact` otherwise) or an anonymous visitor. `data`: the organization's data plane.
 */
export async function addConversation(
  env: Bindings,
  db: Db,
  data: Db,
  waitUntil: WaitUntil,
  organizationId: string,
  userId: string,
  body: { webChat: string; contact?: string; title?: string },
): Promise<ConversationView> {
  const chat = await requireWebChatOf(db, organizationId, body.webChat);
  if (body.contact) await requireContact(data, organizationId, body.contact, "contact");
  const row = newConversation({
    organizationId,
    inboxId: chat.inboxId,
    chatbotId: chat.chatbotId,
    contactId: body.contact ?? null,
    title: body.title,
    createdById: userId,
  });
  const part = await storeConversation(env, row);
  const view = await findConversation(db, part, organizationId, row.id);
  return told(env, waitUntil, organizationId, "conversation.created", view);
}

/**
 * An operator's change to the organization's conversation `id` (404 when none), through the conversation's object
 * (which orders it after the messages on their way), then told to the live inbox; automatic assignment follows it
 * (assignment/round-robin.ts, `assignAfterChange`). Returns the conversation as it is now.
 */
export async function changeConversationBy(
  env: Bindings,
  db: Db,
  waitUntil: WaitUntil,
  organizationId: string,
  user: { id: string; name: string; avatar: string | null },
  id: string,
  change: (userId: string) => ConversationChange,
  reason: ChangeReason = "operator",
): Promise<ConversationView> {
  const data = await conversationDb(env, organizationId, id);
  const before = await findConversation(db, data, organizationId, id);
  if (!before) throw notFound();
  const made = await conversationObject(env, id).change(
    before.conversation,
    change(user.id),
    { name: user.name, avatar: user.avatar },
    reason,
  );
  const view = (await findConversation(db, data, organizationId, id))!;
  // A pick-up that found the conversation taken (ConversationChange.whileWaiting): the change that took it was told.
  if (!made) return view;
  // Told even when nothing changed (a repeated take-over): the inbox's view is read again.
  const event =
    lifecycleEvent(before.conversation, view.conversation, reason) ??
    conversationEvent("conversation.updated", view.conversation);
  // Automatic assignment after it, as after an assistant's handoff: its events follow the change's.
  waitUntil(
    publishInboxEvents(env, organizationId, event).then(() =>
      assignAfterChange(env, db, before.conversation, view.conversation),
    ),
  );
  return view;
}

/**
 * Sets the conversation's labels (setConversationLabels) and returns it; 404 when the organization has none of that
 * id, or it was deleted meanwhile. `data`: the conversation's part.
 */
export async function labelConversation(
  env: Bindings,
  db: Db,
  data: Db,
  waitUntil: WaitUntil,
  organizationId: string,
  id: string,
  labelIds: string[],
): Promise<ConversationView> {
  if (!(await findConversation(db, data, organizationId, id))) throw notFound();
  await setConversationLabels(db, data, organizationId, id, labelIds);
  // Deleted since (its links went with it): a 404, as a read after the delete is. Labels are not part of the stream's
  // conversation record: the console reads the record again on this event.
  const view = await findConversation(db, data, organizationId, id);
  return told(env, waitUntil, organizationId, "conversation.updated", view);
}

/**
 * The conversation read by the team (markConversationRead: its unread count 0), told to the live inbox when that
 * changed it; 404 when the organization has none of that id. `data`: the conversation's part.
 */
export async function readConversation(
  env: Bindings,
  db: Db,
  data: Db,
  waitUntil: WaitUntil,
  organizationId: string,
  id: string,
): Promise<ConversationView> {
  const read = await markConversationRead(db, data, organizationId, id);
  if (!read) throw notFound();
  if (read.changed)
    waitUntil(
      publishInboxEvents(env, organizationId, conversationEvent("conversation.updated", read.view.conversation)),
    );
  return read.view;
}
