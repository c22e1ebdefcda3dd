// What a stored message adds to the figures (docs/decisions.md, "Figures written with the message"):
// the hourly rollups (usage_hourly; usage_hourly_tests again for a test conversation), the contacts
// of an hour, an assistant reply's record (chatbot_records) and the human side's stretches
// (conversation_handoffs). Triggers on D1 `messages` wrote them until messages began to leave D1;
// these are the triggers' statements with the message's values as parameters, which the message's
// writer stores in the message's batch. The conversation's fields come from the writer's row (an
// organization, assistant, contact, creator and test flag never change). What they take of the assistant
// (configuration, which stays in the control plane while these tables move to the organization's shard) is bound
// from the row its caller read: its model is a reply's when the reply names none, its evaluation setting marks the
// record. A deleted assistant sets the conversation's `chatbot_id` null, which then counts nothing.
// An AI gateway answer, which stores no message, adds its own hour row here too (`gatewayFigureWrite`).
import { sqlStatement } from "../../db/prepared";
import { messages } from "../../db/schema";
import type { Db } from "../../env";
import { isObject } from "../../lib/json";
import { hourOf } from "./buckets";
import type { ConversationRow, MessageRow, NewMessage } from "../conversations";
import type { ChatbotRow } from "../chatbots/visibility";

const HANDOFF_REASONS = ["visitor_request", "unanswered", "tool"];

/**
 * The question a message follows: the latest incoming message before it in its conversation. An
 * assistant's reply is recorded on it (chatbot_records is keyed by the question's id) and its reply
 * time runs from it; none before the conversation's first incoming message.
 */
export type Question = Pick<NewMessage, "content"> & { id: string; createdAt: number };

/** A message as its writer stores it (`messageRow`): the fields the figures read. */
export type FiguredMessage = Pick<
  NewMessage,
  | "type"
  | "senderType"
  | "content"
  | "contentPayload"
  | "citationNodes"
  | "feedback"
  | "private"
  | "modelId"
  | "inputTokens"
  | "outputTokens"
> & { id: string; createdAt: number; wordsCount: number };

/** What the figures take of the conversation's assistant, as its caller read it. */
export type FiguredAssistant = Pick<ChatbotRow, "id" | "largeLanguageModelId" | "enableEvaluation">;

type Conversation = Pick<
  ConversationRow,
  "id" | "organizationId" | "chatbotId" | "contactId" | "createdById" | "isTest"
>;

type HourlyTable = "usage_hourly" | "usage_hourly_tests";

/**
 * Adds to the counters of an hourly row (one an assistant, hour, member and model), making it when there is none:
 * `values` binds the row's key, then the counters in their order.
 */
const addToHour = (table: HourlyTable, counters: string[], values: string) =>
  `INSERT INTO ${table} (organization_id, chatbot_id, hour, member_id, model_id, ${counters.join(", ")}) ` +
  `VALUES (${values}) ON CONFLICT (chatbot_id, hour, member_id, model_id) DO UPDATE SET ` +
  counters.map((c) => `${c} = ${c} + excluded.${c}`).join(", ");

const MESSAGE_COUNTERS = [
  "incoming_messages",
  "outgoing_messages",
  "replies",
  "reply_ms",
  "tool_calls",
  "requests",
  "input_tokens",
  "output_tokens",
  "words",
  "likes",
  "dislikes",
];
const rollup = (table: HourlyTable) =>
  addToHour(table, MESSAGE_COUNTERS, "?1, ?15, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?7, ?10, ?11, ?12, ?13, ?14");
const ROLLUP = rollup("usage_hourly");
const ROLLUP_TESTS = rollup("usage_hourly_tests");

const CONTACT =
  "INSERT OR IGNORE INTO usage_hourly_contacts (organization_id, chatbot_id, hour, contact_id) VALUES (?1, ?4, ?2, ?3)";

// A reply answering a question recorded already (its failure, or an earlier reply: a tool call's
// continuation, an owed reply's retry) takes its record over, clearing the failure.
const RECORD =
  "INSERT INTO chatbot_records (id, organization_id, chatbot_id, conversation_id, contact_id, reply_message_id, " +
  "input_message, output_message, context, reply_ms, error, created_at, answered_at, evaluation_status) " +
  "VALUES (?1, ?2, ?12, ?3, ?4, ?5, ?6, ?7, ?8, ?9, NULL, ?10, ?11, ?13) " +
  "ON CONFLICT (id) DO UPDATE SET reply_message_id = excluded.reply_message_id, " +
  "output_message = excluded.output_message, context = excluded.context, reply_ms = excluded.reply_ms, " +
  "error = NULL, answered_at = excluded.answered_at, evaluation_status = excluded.evaluation_status";

/**
 * A member's first public message in an open stretch is its first response; a stretch this message opened (its
 * batch's change of the conversation, a moment later) is queued from the message on.
 */
const FIRST_RESPONSE =
  "UPDATE conversation_handoffs SET queued_at = min(queued_at, ?1), first_response_at = ?1 " +
  "WHERE conversation_id = ?2 AND ended_at IS NULL AND first_response_at IS NULL";

/** The assistant's handoff message landing in a stretch no one has touched yet opened it: its reason. */
const HANDOFF_REASON =
  "UPDATE conversation_handoffs SET reason = ?1 WHERE conversation_id = ?2 AND ended_at IS NULL " +
  "AND reason = 'operator' AND assigned_at IS NULL AND first_response_at IS NULL";

const feedbackRollup = (table: HourlyTable) => addToHour(table, ["likes", "dislikes"], "?1, ?7, ?2, ?3, ?4, ?5, ?6");
const FEEDBACK = feedbackRollup("usage_hourly");
const FEEDBACK_TESTS = feedbackRollup("usage_hourly_tests");

// An AI gateway answer has no assistant nor conversation: it counts under no assistant ('') for the member whose key
// asked, as a model request with its tokens and words but no message nor reply (no reply time to average).
const GATEWAY = addToHour(
  "usage_hourly",
  ["requests", "input_tokens", "output_tokens", "words"],
  "?1, '', ?2, ?3, ?4, 1, ?5, ?6, ?7",
);

/** The tool calls an agent reply made (`contentPayload.toolCalls`, as SQLite's json_array_length counts them). */
function toolCallsOf(payload: unknown): number {
  const calls = isObject(payload) ? payload.toolCalls : undefined;
  return Array.isArray(calls) ? calls.length : 0;
}

/** The reason of an assistant's handoff message (`contentPayload.handoff.reason`), if it is one of the assistant's. */
function handoffReasonOf(payload: unknown): string | null {
  const handoff = isObject(payload) ? payload.handoff : undefined;
  const reason = isObject(handoff) ? handoff.reason : undefined;
  return typeof reason === "string" && HANDOFF_REASONS.includes(reason) ? reason : null;
}

/**
 * The model a message counts under: an assistant's message's (its own, else the assistant's), '' else. The assistant
 * must be given for an assistant's message: without it the figures would count under no model.
 */
function modelOf(message: Pick<NewMessage, "senderType" | "modelId">, assistant: FiguredAssistant | null): string {
  if (message.senderType !== "chatbot") return "";
  if (message.modelId != null) return message.modelId;
  if (!assistant) throw new Error("an assistant's message is counted with its assistant's row");
  return assistant.largeLanguageModelId;
}

/** Whether an assistant's new records wait for evaluation. */
function evaluated(assistant: FiguredAssistant | null): boolean {
  if (!assistant) throw new Error("an assistant's record is written with its assistant's row");
  return assistant.enableEvaluation;
}

/**
 * The figures' statements for one stored message, to store in its batch before the conversation's
 * row changes (stretchWrites follow that change). `question`: the latest incoming message before it
 * (see Question). Private notes count in the rollups as every message does. `assistant`: the conversation's, as the
 * caller read it; needed for an assistant's message only (its model, its record's evaluation).
 */
export function messageFigureWrites(
  db: Db,
  conversation: Conversation,
  message: FiguredMessage,
  question: Question | null,
  assistant: FiguredAssistant | null,
): D1PreparedStatement[] {
  const statements: D1PreparedStatement[] = [];
  const { chatbotId } = conversation;
  if (chatbotId) {
    const hour = hourOf(message.createdAt);
    const reply = message.senderType === "chatbot";
    const counts = [
      conversation.organizationId,
      hour,
      conversation.createdById ?? "",
      modelOf(message, assistant),
      Number(message.type === "incoming"),
      Number(message.type === "outgoing"),
      Number(reply),
      reply && question ? message.createdAt - question.createdAt : 0,
      reply ? toolCallsOf(message.contentPayload) : 0,
      message.inputTokens ?? 0,
      message.outputTokens ?? 0,
      message.wordsCount,
      Number(message.feedback === "like"),
      Number(message.feedback === "dislike"),
      chatbotId,
    ];
    statements.push(sqlStatement(db, ROLLUP).bind(...counts));
    if (conversation.isTest) statements.push(sqlStatement(db, ROLLUP_TESTS).bind(...counts));
    if (message.type === "incoming" && conversation.contactId)
      statements.push(
        sqlStatement(db, CONTACT).bind(conversation.organizationId, hour, conversation.contactId, chatbotId),
      );
    if (reply && question) {
      const context =
        message.citationNodes == null ? null : messages.citationNodes.mapToDriverValue(message.citationNodes);
      statements.push(
        sqlStatement(db, RECORD).bind(
          question.id,
          conversation.organizationId,
          conversation.id,
          conversation.contactId,
          message.id,
          question.content ?? "",
          message.content ?? "",
          context,
          message.createdAt - question.createdAt,
          question.createdAt,
          message.createdAt,
          chatbotId,
          evaluated(assistant) ? "pending" : null,
        ),
      );
    }
  }
  return statements;
}

/**
 * What one stored message does to the conversation's open stretch with people (conversation_handoffs): a member's
 * first public message is its first response, the assistant's handoff message gives a stretch no one has touched its
 * reason. To store after the conversation's row changes in the message's batch: that change opens the stretch the
 * message brings (trigger `handoffs_on_conversation`, migration 0037), which these then complete.
 */
export function stretchWrites(db: Db, conversation: Pick<Conversation, "id">, message: FiguredMessage) {
  const statements: D1PreparedStatement[] = [];
  if (message.senderType === "user" && message.type === "outgoing" && !message.private)
    statements.push(sqlStatement(db, FIRST_RESPONSE).bind(message.createdAt, conversation.id));
  const reason = message.senderType === "chatbot" ? handoffReasonOf(message.contentPayload) : null;
  if (reason) statements.push(sqlStatement(db, HANDOFF_REASON).bind(reason, conversation.id));
  return statements;
}

/**
 * A rating's change (`before` to `after`) in the rollups: it counts in the hour (and model row) of
 * the message it rates. Written by the conversation's object, which rates one message at a time and
 * reads `before` from its own store (durable-objects/conversation.ts, `rate`), so two ratings at
 * once count as the two changes they are. `assistant`: the conversation's (see messageFigureWrites).
 */
export function feedbackFigureWrites(
  db: Db,
  conversation: Conversation,
  message: Pick<MessageRow, "senderType" | "modelId" | "createdAt">,
  before: string | null,
  after: string | null,
  assistant: FiguredAssistant | null,
): D1PreparedStatement[] {
  if (!conversation.chatbotId || before === after) return [];
  const values = [
    conversation.organizationId,
    hourOf(message.createdAt),
    conversation.createdById ?? "",
    modelOf(message, assistant),
    Number(after === "like") - Number(before === "like"),
    Number(after === "dislike") - Number(before === "dislike"),
    conversation.chatbotId,
  ];
  return [
    sqlStatement(db, FEEDBACK).bind(...values),
    ...(conversation.isTest ? [sqlStatement(db, FEEDBACK_TESTS).bind(...values)] : []),
  ];
}

/** What an AI gateway answer adds to the hourly rollups, so the usage figures add up to the month's words. */
export const gatewayFigureWrite = (
  db: Db,
  answer: {
    organizationId: string;
    /** The user whose key asked (`member_id` holds user ids). */
    userId: string;
    modelId: string;
    inputTokens: number;
    outputTokens: number;
    words: number;
    at: number;
  },
) =>
  sqlStatement(db, GATEWAY).bind(
    answer.organizationId,
    hourOf(answer.at),
    answer.userId,
    answer.modelId,
    answer.inputTokens,
    answer.outputTokens,
    answer.words,
  );
