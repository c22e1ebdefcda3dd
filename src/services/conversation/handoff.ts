// An assistant handing its conversation to a person (CONTRACT section 18; docs/decisions.md,
// "Handoff to a person"): when the visitor asks for one, the assistant says its handoff message
// once, instead of asking the model, and that reply queues the conversation for a human
// (conversations.ts, stateAfter), in the same batch as the reply.
import type { MessageRow, NewMessage } from "../conversations";
import type { Reply } from "./replies";

/** An assistant's handoff settings as stored (null: the defaults). */
export interface HandoffSettings {
  /** Hands off at all (default true). */
  enabled: boolean;
  /** What the assistant says as it hands off; null: a default in the visitor's language. */
  message: string | null;
}

export const DEFAULT_HANDOFF: HandoffSettings = { enabled: true, message: null };
export const handoffSettings = (stored: Partial<HandoffSettings> | null | undefined): HandoffSettings => ({ ...DEFAULT_HANDOFF, ...stored });

/** Why a conversation was handed to a person (the contract's `reason`). */
export type HandoffReason = "visitor_request";

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

/** Whether the assistant hands off instead of answering `incoming`, and why. */
export function handoffFor(settings: HandoffSettings, incoming: Pick<NewMessage, "content">): HandoffReason | null {
  if (!settings.enabled) return null;
  return asksForPerson(incoming.content ?? "") ? "visitor_request" : null;
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

/** The assistant's last reply before a person takes over: the handoff message, marked with its reason. */
export function handoffReply(settings: HandoffSettings, reason: HandoffReason, incoming: Pick<MessageRow, "content">): Reply {
  const content = settings.message?.trim() || defaultMessage(incoming.content);
  return { content, citations: [], citationNodes: [], usage: null, contentPayload: { handoff: { reason } } };
}

/** Whether a stored message is an assistant's handoff (its reply queues the conversation). */
export const handsOff = (message: Pick<NewMessage, "senderType" | "contentPayload">) =>
  message.senderType === "chatbot" && !!(message.contentPayload as { handoff?: unknown } | null | undefined)?.handoff;
