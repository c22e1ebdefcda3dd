// What follows a stored message, in one ordered list (docs/decisions.md, "The conversation
// pipeline"). The turn (turn.ts) runs `runReplied` and `runReplyFailed`; each store runs
// `effectStatements` and `runStored` as it writes: the conversation object
// (durable-objects/conversation.ts, #commit) and the worker's first turn (first-turn.ts, storeTurn).
// Adding an effect is one file and one entry in EFFECTS.
import type { Bindings, Db } from "../../env";
import type { AssistantForReply } from "../chatbots/for-reply";
import type { ConversationRow, MessageRow } from "../conversations";
import type { MessageRecord } from "../records/messages";
import { evaluationEffect } from "../evaluation/effect";
import { failedReplyEffect } from "../statistics/effect";
import { conversationEventWebhookEffect, webhookEffect } from "../webhooks/effect";
import { liveInboxEffect } from "./inbox-events";
import { channelEffect } from "../channels/outbound";
import { autoAssignmentEffect } from "../assignment/effect";
import { searchTermsEffect } from "./search-terms";
import { createdLinksEffect } from "./created-links";
import type { OutboxConfig } from "./outbox-config";

/** A message as its effects see it, once stored: `conversation` is the state it left. */
export interface StoredMessage {
  message: MessageRow;
  record: MessageRecord;
  conversation: ConversationRow;
  /** The conversation as it was before this message (its lifecycle changes: a handoff). */
  before: ConversationRow;
  /** The result of this effect's own statement in the batch (see `inBatch`); none without one. */
  result?: D1Result;
}

/** Messages stored in one batch, oldest first; `created` when the batch created their conversation. */
export interface StoredBatch {
  env: Bindings;
  /** Work that must not hold the turn (queues, fan-out): it goes on after the response. */
  waitUntil: (p: Promise<unknown>) => void;
  organizationId: string;
  created: ConversationRow | null;
  messages: StoredMessage[];
}

/** A turn's end: the assistant's reply stored, or its failure (the visitor's message is stored either way). */
export interface TurnEnd {
  env: Bindings;
  /** The conversation's organization's data plane (a failed reply's figures). */
  db: Db;
  waitUntil: (p: Promise<unknown>) => void;
  conversation: ConversationRow;
  chatbot: AssistantForReply["chatbot"];
  incoming: MessageRow;
}

export interface MessageEffect {
  readonly name: string;
  /**
   * Whether it sees operators' private notes (messages.private). Off by default: a note is the
   * team's own, so an effect that reaches the visitor, a channel, a webhook or a figure (first
   * response) never gets one; the team's live inbox opts in.
   */
  readonly notes?: boolean;
  /**
   * Statements stored in the same batch as `message` (`conversation`: as the message finds it; `after`: as it leaves
   * it): all are stored, or none (null or []: none for this message). `result` is the last one's. On the data plane
   * alone: configuration comes bound from `config`, the inbox's as the store read it before the batch
   * (outbox-config.ts).
   */
  inBatch?(
    db: Db,
    conversation: ConversationRow,
    message: MessageRow,
    config: OutboxConfig,
    after: ConversationRow,
  ): D1PreparedStatement | D1PreparedStatement[] | null;
  /** After the batch is stored, in the order of the conversation's messages. Must not throw: hand slow work to
   * `waitUntil`. */
  stored?(batch: StoredBatch): void;
  /** After the assistant's reply to `incoming` is stored. */
  replied?(end: TurnEnd, reply: MessageRow): void;
  /** After the assistant failed to answer `incoming` (stored); awaited, so its writes follow the message's. */
  replyFailed?(end: TurnEnd, error: unknown): Promise<void>;
}

/** The effects, in the order they run. */
const EFFECTS: MessageEffect[] = [
  webhookEffect,
  conversationEventWebhookEffect,
  channelEffect,
  liveInboxEffect,
  failedReplyEffect,
  evaluationEffect,
  autoAssignmentEffect,
  searchTermsEffect,
  createdLinksEffect,
];

/** Adds an effect for a test, after the others; returns its removal. Tests only: production effects are in EFFECTS. */
export function addEffectForTest(effect: MessageEffect): () => void {
  EFFECTS.push(effect);
  return () => void EFFECTS.splice(EFFECTS.indexOf(effect), 1);
}

/**
 * The effects' statements for one message (`after`: the conversation as it leaves it), to append to the batch that
 * stores it, and each effect's result from the batch's results (`resultsFrom(all, at)`: where the statements begin).
 */
export function effectStatements(
  db: Db,
  conversation: ConversationRow,
  message: MessageRow,
  config: OutboxConfig,
  after: ConversationRow,
) {
  const owners: { effect: MessageEffect; last: number }[] = [];
  const statements: D1PreparedStatement[] = [];
  for (const effect of EFFECTS) {
    if (message.private && !effect.notes) continue;
    const made = effect.inBatch?.(db, conversation, message, config, after);
    const own = Array.isArray(made) ? made : made ? [made] : [];
    if (!own.length) continue;
    statements.push(...own);
    owners.push({ effect, last: statements.length - 1 });
  }
  const resultsFrom = (all: D1Result[], at: number) =>
    new Map(owners.map(({ effect, last }) => [effect, all[at + last]]));
  return { statements, resultsFrom };
}

/** Runs every effect's `stored` on a batch; `results` maps each message to its effects' statement results
 * (effectStatements). */
export function runStored(
  batch: Omit<StoredBatch, "messages">,
  messages: {
    message: MessageRow;
    record: MessageRecord;
    conversation: ConversationRow;
    before: ConversationRow;
    results: Map<MessageEffect, D1Result>;
  }[],
) {
  for (const effect of EFFECTS) {
    if (!effect.stored) continue;
    const seen = effect.notes ? messages : messages.filter((m) => !m.message.private);
    if (!seen.length && !batch.created) continue;
    effect.stored({ ...batch, messages: seen.map(({ results, ...m }) => ({ ...m, result: results.get(effect) })) });
  }
}

export function runReplied(end: TurnEnd, reply: MessageRow) {
  for (const effect of EFFECTS) effect.replied?.(end, reply);
}

export async function runReplyFailed(end: TurnEnd, error: unknown) {
  for (const effect of EFFECTS) await effect.replyFailed?.(end, error);
}
