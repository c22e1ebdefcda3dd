// An assistant handing its conversation to a person (CONTRACT section 18; docs/decisions.md,
// "Handoff to a person"): when the visitor asks for one, the assistant says its handoff message
// once, instead of asking the model; when it could not answer `afterUnanswered` times in a row, it
// adds the message to its reply. That reply queues the conversation for a human
// (conversations.ts, stateAfter), in the same batch as the reply.
import type { MessageRow, NewMessage } from "../conversations";
import type { Reply } from "./replies";

/** An assistant's handoff settings as stored (null: the defaults). */
export interface HandoffSettings {
  /** Hands off at all (default true). */
  enabled: boolean;
  /** Replies in a row that could not answer before it hands off (0: never). */
  afterUnanswered: number;
  /** What the assistant says as it hands off; null: a default in the visitor's language. */
  message: string | null;
}

export const DEFAULT_HANDOFF: HandoffSettings = { enabled: true, afterUnanswered: 2, message: null };
export const handoffSettings = (stored: Partial<HandoffSettings> | null | undefined): HandoffSettings => ({ ...DEFAULT_HANDOFF, ...stored });

/** Why a conversation was handed to a person (the contract's `reason`). */
export type HandoffReason = "visitor_request" | "unanswered";

// A request for a person, as visitors write it. English: an explicit ask (talk to / a real person /
// anyone there?), not every mention of "customer service" ("What are your customer service
// hours?" is a question for the assistant). Chinese and Japanese: the words people use to reach a
// human ("轉人工", "真人", "担当者"); a bare "客服" asks for one, "客服電話" asks for a number.
const ENGLISH = [
  /\b(talk|speak|chat|connect|transfer|put)\b[^.?!]{0,40}\b(human|person|people|agent|someone|somebody|representative|staff|operator|manager|customer (service|support))\b/,
  /\b(real|live|actual) (person|human|agent|people)\b/,
  /\b(want|need|get|give me|can i have|could i have)\b[^.?!]{0,20}\b(a )?(human|person|agent|representative|operator)\b/,
  /\b(is )?(any ?one|some ?one|anybody|somebody) (there|here|around|available)\b/,
  /^(a )?(human|agent|operator|representative|person|customer service)( please)?$/,
];
const CJK = [/真人/, /人工(客服|服務|服务)?$|轉人工|转人工|找人工/, /專人|专人/, /有人(在)?(嗎|吗|在)/, /(我要|要找|找|轉|转|接|聯絡|联系|需要)客服|^客服$|客服(人員|人员|專員|专员)/, /担当者|オペレーター|有人対応|(人間|スタッフ|人)と話/];

/** Whether a visitor's message asks for a person rather than for an answer. */
export function asksForPerson(text: string): boolean {
  const plain = text.normalize("NFKC").toLowerCase().replace(/[’']/g, "'").trim();
  const words = plain.replace(/[^\p{L}\p{N}' ]+/gu, " ").replace(/\s+/g, " ").trim();
  return ENGLISH.some((re) => re.test(words)) || CJK.some((re) => re.test(plain.replace(/[\s\p{P}]+/gu, "")));
}

/** Whether the assistant hands off instead of answering `incoming`. */
export const handoffFor = (settings: HandoffSettings, incoming: Pick<NewMessage, "content">): HandoffReason | null =>
  settings.enabled && asksForPerson(incoming.content ?? "") ? "visitor_request" : null;

/**
 * Whether a reply that could not answer makes `afterUnanswered` in a row, counting the assistant's
 * replies of `history` (oldest first) back to one that answered or handed off before.
 */
export function unansweredInARow(settings: HandoffSettings, history: Pick<MessageRow, "senderType" | "unanswered" | "contentPayload">[]): boolean {
  if (!settings.enabled || settings.afterUnanswered < 1) return false;
  let count = 1; // the reply at hand
  for (let i = history.length - 1; i >= 0 && count < settings.afterUnanswered; i--) {
    const message = history[i];
    if (message.senderType !== "chatbot") continue;
    if (!message.unanswered || handsOff(message)) return false;
    count++;
  }
  return count >= settings.afterUnanswered;
}

const DEFAULT_MESSAGES = {
  en: "I'll pass you to a member of our team, who will reply here as soon as they can.",
  "zh-TW": "我會請團隊成員來協助您,他們會盡快在這裡回覆。",
  "zh-CN": "我会请团队成员来协助您,他们会尽快在这里回复。",
  ja: "担当者におつなぎします。こちらでできるだけ早くお返事いたします。",
};

/** The default message in the language the visitor wrote in. */
function defaultMessage(text: string) {
  if (/[\u3040-\u30ff]/.test(text)) return DEFAULT_MESSAGES.ja;
  if (/[转这请们会员务联系]/.test(text)) return DEFAULT_MESSAGES["zh-CN"];
  if (/\p{Script=Han}/u.test(text)) return DEFAULT_MESSAGES["zh-TW"];
  return DEFAULT_MESSAGES.en;
}

/** What the assistant says as it hands off. */
export const handoffMessage = (settings: HandoffSettings, incoming: Pick<MessageRow, "content">) => settings.message?.trim() || defaultMessage(incoming.content);

/** The assistant's last reply before a person takes over: `reply` (none: only the handoff message) and the message, marked with the reason. */
export function handoffReply(settings: HandoffSettings, reason: HandoffReason, incoming: Pick<MessageRow, "content">, reply?: Reply): Reply {
  const said = handoffMessage(settings, incoming);
  const base: Reply = reply ?? { content: "", citations: [], citationNodes: [], usage: null };
  return { ...base, content: base.content ? `${base.content}\n\n${said}` : said, contentPayload: { ...base.contentPayload, handoff: { reason } } };
}

/** Whether a stored message is an assistant's handoff (its reply queues the conversation). */
export const handsOff = (message: Pick<NewMessage, "senderType" | "contentPayload">) =>
  message.senderType === "chatbot" && !!(message.contentPayload as { handoff?: unknown } | null | undefined)?.handoff;
