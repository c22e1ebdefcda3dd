// Messages posted through the API: a contact's (`POST /messages/`), which the assistant answers, and an operator's
// (`POST /messages/outgoing/`). Both enter the conversation through its object, the one turn pipeline.
import type { Bindings, Db } from "../../env";
import type { MessageInput } from "../../../durable-objects/conversation";
import { assistantRefusal } from "../assistant-refusal";
import { requireContact } from "../contacts";
import { conversationObject, pickUpState } from "../conversations";
import { type AttachmentScope, type MessageAttachmentInput, messageAttachments } from "../uploads/attachments";
import { type CanvasInput, storedCanvas } from "./canvas";
import { changeConversationBy } from "./operator-writes";
import { requireConversationIn } from "./views";

/**
 * Who posts and from where: the caller's organization and user, the API's origin (an attachment named by a URL on it
 * is one of our uploads), and where the work after the answer goes.
 */
export interface Poster extends AttachmentScope {
  userId: string;
  waitUntil: (p: Promise<unknown>) => void;
}

/** A message as posted, its attachments as the client names them. */
type Posted = Omit<MessageInput, "attachments" | "canvas"> & { attachments?: MessageAttachmentInput[] };

/** `POST /messages/`'s body: a message, its sender, and fields accepted for clients that send them, which change
 * nothing here (`type`, `broadcast`, `skipCopilotTrigger`, `suggestedForId`). */
type ContactMessage = Posted & {
  conversation: string;
  sender?: string;
  canvas?: CanvasInput;
  type?: "incoming";
  broadcast?: boolean;
  skipCopilotTrigger?: boolean;
  suggestedForId?: string;
};

/**
 * A contact's message in the organization's conversation (404 when none), from `sender` (a contact of the
 * organization, else 400 naming it), by default the conversation's contact, else an anonymous visitor. The message is
 * taken either way; without words left, or on a lapsed plan, the assistant does not answer it. `data`: the
 * organization's data plane. Returns the stored message, the assistant's reply following in the background.
 */
export async function postContactMessage(env: Bindings, db: Db, data: Db, poster: Poster, body: ContactMessage) {
  const {
    conversation: conversationId,
    sender,
    canvas,
    type: _t,
    broadcast: _b,
    skipCopilotTrigger: _s,
    suggestedForId: _f,
    ...posted
  } = body;
  const { organizationId } = poster;
  const view = await requireConversationIn(env, db, organizationId, conversationId, "Conversation not found.");
  const contact = sender
    ? await requireContact(data, organizationId, sender, "sender")
    : view.contact?.id
      ? { id: view.contact.id, name: view.contact.name, avatar: view.contact.avatar }
      : null;
  const message = { ...posted, canvas: canvas && storedCanvas(canvas) };
  message.attachments = await messageAttachments(env, data, poster, conversationId, message.attachments);
  return conversationObject(env, conversationId).post({
    organizationId,
    conversationId,
    refusal: await assistantRefusal(env, db, organizationId),
    conversation: view.conversation,
    sender: {
      type: "contact",
      id: contact?.id ?? null,
      name: contact?.name ?? "Visitor",
      avatar: contact?.avatar ?? null,
    },
    message,
  });
}

/**
 * An operator's reply in the organization's conversation (404 when none), sent as `user`. Answering a conversation
 * that waits for a person, with nobody on it, is picking it up: the operator takes it over first, so it is theirs and
 * the visitor is told they joined (docs/decisions.md, "Conversation states"). Only if it still waits unassigned when
 * written (pickUpState): of two replies at once, the second is a colleague's word. A private note changes nothing.
 * An operator's attachments are checked and stored as a visitor's, so channels and webhooks get a URL they can fetch.
 */
export async function postOperatorMessage(
  env: Bindings,
  db: Db,
  data: Db,
  poster: Poster,
  user: { id: string; name: string; avatar: string | null },
  { conversation: conversationId, ...message }: Posted & { conversation: string },
) {
  const { organizationId } = poster;
  const found = await requireConversationIn(env, db, organizationId, conversationId, "Conversation not found.");
  const { progressStatus, assigneeId } = found.conversation;
  if (!message.private && progressStatus === "waiting_for_human" && !assigneeId)
    await changeConversationBy(env, db, poster.waitUntil, organizationId, user, conversationId, pickUpState);
  message.attachments = await messageAttachments(env, data, poster, conversationId, message.attachments);
  return conversationObject(env, conversationId).agentMessage(
    organizationId,
    conversationId,
    { id: user.id, name: user.name, avatar: user.avatar },
    message,
  );
}
