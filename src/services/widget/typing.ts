// A visitor's typing signal (docs/decisions.md, "Typing and satisfaction"): counted per visitor, then told to the
// organization's live inbox (conversation/typing.ts); nothing is stored.
import type { Bindings, Db } from "../../env";
import { ApiError } from "../../lib/errors";
import { visitorTyping } from "../conversation/typing";
import { takeToken } from "../rate-limit";
import { type Visitor, visitorConversation, visitorName } from "./visitors";
import type { PublicWebChat } from "./web-chats";

/** Typing signals a minute one visitor may send (the widget sends one every 3 s at most while typing, and one on
 * stopping). */
export const TYPING_PER_MINUTE = 40;

/**
 * The visitor typing in their conversation (or stopped): past TYPING_PER_MINUTE signals a minute 429 `throttled` with
 * Retry-After, a conversation not theirs 404; else the operators are told (in `waitUntil`).
 */
export async function visitorTypingSignal(
  env: Bindings,
  data: Db,
  waitUntil: (p: Promise<unknown>) => void,
  { chat, visitor }: { chat: PublicWebChat; visitor: Visitor },
  conversationId: string,
  typing: boolean,
  now = Date.now(),
) {
  const { allowed, retryAfter } = takeToken(env, `widget-typing:${visitor.contactId}`, now, TYPING_PER_MINUTE);
  if (!allowed)
    throw new ApiError(
      429,
      "throttled",
      `Too many typing signals. Expected available in ${retryAfter} seconds.`,
      undefined,
      { "Retry-After": String(retryAfter) },
    );
  const conversation = await visitorConversation(env, chat, visitor, conversationId);
  const sender = { type: "contact" as const, id: visitor.contactId, name: await visitorName(data, visitor) };
  waitUntil(visitorTyping(env, conversation, sender, typing));
}
