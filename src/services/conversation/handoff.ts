// An assistant handing its conversation to a person (CONTRACT section 18; docs/decisions.md,
// "Handoff to a person"): when the visitor asks for one, the assistant says its handoff message
// once, instead of asking the model; when it could not answer `afterUnanswered` times in a row, it
// adds the message to its reply. That reply queues the conversation for a human
// (conversations.ts, stateAfter), in the same batch as the reply.
import { eq } from "drizzle-orm";
import type { Db } from "../../env";
import { inboxes } from "../../db/schema";
import { isOpen, nextOpening } from "../business-hours";
import type { MessageRow, NewMessage } from "../conversations";
import { replyLanguage } from "../llm/local-small-talk";
import type { Reply } from "./replies";

/** An assistant's handoff settings as stored (null: the defaults). */
export interface HandoffSettings {
  /** Hands off at all (default true). */
  enabled: boolean;
  /** Replies in a row that could not answer before it hands off (0: never). */
  afterUnanswered: number;
  /** What the assistant says as it hands off; null: a default in the visitor's language. */
  message: string | null;
  /** What it says instead outside the inbox's business hours; null: a default in the visitor's language. */
  outsideHoursMessage: string | null;
}

export const DEFAULT_HANDOFF: HandoffSettings = {
  enabled: true,
  afterUnanswered: 2,
  message: null,
  outsideHoursMessage: null,
};
export const handoffSettings = (stored: Partial<HandoffSettings> | null | undefined): HandoffSettings => ({
  ...DEFAULT_HANDOFF,
  ...stored,
});

/** Why a conversation was handed to a person (the contract's `reason`). */
export type HandoffReason = "visitor_request" | "unanswered" | "tool";
/** What made replies count as unanswered outside a turn (`contentPayload.handoff.trigger`): the visitor rated two of
 * them down. */
export type HandoffTrigger = "dislikes";

/** Dislikes of the assistant's replies since it last handed off that make it hand off. */
export const DISLIKES_TO_HAND_OFF = 2;

// A request for a person, as visitors write it: an explicit ask ("I need to talk to a person",
// "human please", "is anyone there?", "轉人工", "担当者と話したい"), not every mention: "What are your
// customer service hours?" and "客服電話是多少?" ask the assistant, "Are you a human?" and "你是真人嗎"
// ask what it is, "I don't want an agent" refuses one.
const PERSON =
  "(?:(?:an?|the|your|one\\s+of\\s+your)\\s+)?(?:real\\s+|live\\s+|actual\\s+)?" +
  "(?:person|human(?:\\s+being)?|agent|representative|rep|operator|someone|somebody|staff(?:\\s+member)?|employee|" +
  "member\\s+of\\s+(?:your\\s+)?(?:staff|team)|support\\s+agent|customer\\s+(?:service|support))";
const ENGLISH = [
  new RegExp(
    "\\b(?:talk|speak|chat|connect|transfer|put|pass|forward)\\w*(?:\\s+me)?(?:\\s+(?:through|over))?" +
      `\\s+(?:to|with)\\s+${PERSON}\\b`,
  ),
  new RegExp(`\\b(?:want|need|get\\s+me|give\\s+me|request|prefer|can\\s+i\\s+have)\\s+${PERSON}\\b`),
  new RegExp(`^${PERSON}(?:\\s+(?:please|pls|now|asap))?$`),
];
const ANYONE_THERE =
  /^(?:hello\s+)?(?:is\s+)?(?:any\s?one|some\s?one|anybody|somebody)\s+(?:there|here|around|available)\b/;
const CJK_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const CJK = [
  /真人|人工(?:客服|服務|服务|回覆|回复)?$|轉人工|转人工|找人工|專人|专人|客服人員|客服人员|客服專員|客服专员/u,
  /(?:找|要|轉|转|接|聯絡|联系|需要)(?:個|个)?客服|^客服$|有人(?:在)?(?:嗎|吗)$/u,
  /找(?:個|个)?人(?:工)?(?:處理|处理|談|谈|聊)|(?:找|要|請|请)(?:你們|你们)?(?:的)?(?:員工|员工|店員|店员|同事|工作人員|工作人员)/u,
  /担当者|オペレーター|有人対応|(?:人間|スタッフ|人)と話/u,
];
// Judged clause by clause: "I don't understand. I want to talk to a person." asks in its second sentence, whatever
// the first one says. Only what governs the ask's verb takes it back.
const CLAUSE_END = /[.!?;:,。！？；：，、\n]+/u;
/** "Are you a human?", "Am I talking to a person?", "你是真人嗎" ask what we are... */
const ASKS_WHAT_IT_IS = /^(?:are|is|am)\s|^(?:你|您)?是(?!否(?:可以|能))/u;
/** ...but "Is it possible to talk to a human?", "Is there a way to…", "Am I able to…" ask for one. */
const ASKS_IF_POSSIBLE =
  /^(?:is|are)\s+(?:it|there)\s+(?:possible|(?:a|any|some)\s+(?:way|chance|option))\b|^am\s+i\s+able\b/;
/** A negation right before the ask, with only auxiliaries between: "I don't want to talk to…", "no need to speak
 * to…", "不用轉人工"; "This doesn't help, I want a person" is not one. Japanese negates after: "担当者と話したくない". */
const NEGATED_BEFORE = [
  new RegExp(
    String.raw`\b(?:(?:do|does|did|wo|would)n'?t|(?:do|does|did|will|would)\s+not|not|never|no\s+need\s+(?:to|for))` +
      String.raw`(?:\s+(?:really|even|ever|actually|want|wanted|need|needed|wish|ask|asked|have|to|me))*\s*$`,
  ),
  /(?:不|[別别]|[無无]需|毋[須须])(?:要|用|需要?|必|想)?(?:再|[幫帮]我|找|[轉转]|接)*$/u,
];
const NEGATED_AFTER = /^[^。]*?(?:たくない|たくありません|なくて(?:も)?(?:いい|大丈夫|結構)|不要|いらない|いりません)/u;

/** Whether a visitor's message asks for a person rather than for an answer. */
export const asksForPerson = (message: string): boolean =>
  message.normalize("NFKC").toLowerCase().replace(/[’]/g, "'").split(CLAUSE_END).some(clauseAsks);

function clauseAsks(words: string): boolean {
  const clause = words
    .replace(/[^\p{L}\p{N}'\s]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (!clause) return false;
  if (ANYONE_THERE.test(clause)) return true;
  if (ASKS_WHAT_IT_IS.test(clause) && !ASKS_IF_POSSIBLE.test(clause)) return false;
  const cjk = CJK_SCRIPT.test(clause);
  const text = cjk ? clause.replace(/\s+/g, "") : clause;
  return (cjk ? CJK : ENGLISH).some((re) => {
    const ask = re.exec(text);
    if (!ask) return false;
    const [before, after] = [text.slice(0, ask.index), text.slice(ask.index + ask[0].length)];
    return !NEGATED_BEFORE.some((negation) => negation.test(before)) && !NEGATED_AFTER.test(after);
  });
}

/** Whether the assistant hands off instead of answering `incoming`. */
export const handoffFor = (settings: HandoffSettings, incoming: Pick<NewMessage, "content">): HandoffReason | null =>
  settings.enabled && asksForPerson(incoming.content ?? "") ? "visitor_request" : null;

/**
 * Whether a reply that could not answer makes `afterUnanswered` in a row, counting the assistant's
 * replies of `history` (oldest first) back to one that answered or handed off before, or to a
 * person's answer (a member's message the visitor saw): the team served the visitor between, so the
 * row starts again after it (a conversation handed back is not queued again at the first miss).
 */
export function unansweredInARow(
  settings: HandoffSettings,
  history: Pick<MessageRow, "senderType" | "unanswered" | "contentPayload" | "private">[],
): boolean {
  if (!settings.enabled || settings.afterUnanswered < 1) return false;
  let count = 1; // the reply at hand
  for (let i = history.length - 1; i >= 0 && count < settings.afterUnanswered; i--) {
    const message = history[i];
    if (message.senderType === "user" && !message.private) return false;
    if (message.senderType !== "chatbot") continue;
    if (!message.unanswered || handsOff(message)) return false;
    count++;
  }
  return count >= settings.afterUnanswered;
}

const DEFAULT_MESSAGES = {
  en: "I'll pass you to a member of our team, who will reply here as soon as they can.",
  "zh-TW": "我會請團隊成員來協助您，他們會盡快在這裡回覆。",
  "zh-CN": "我会请团队成员来协助您，他们会尽快在这里回复。",
  ja: "担当者におつなぎします。こちらでできるだけ早くお返事いたします。",
};

const OUTSIDE_HOURS_MESSAGES: InLanguages = {
  en: "Our team is away right now. I've passed your message on, and a member of our team will reply here when we open.",
  "zh-TW": "我們的團隊目前不在線上。我已轉交您的訊息，團隊成員會在營業時間於這裡回覆您。",
  "zh-CN": "我们的团队目前不在线。我已转交您的消息，团队成员会在营业时间在这里回复您。",
  ja: "ただいま営業時間外です。メッセージはお預かりしましたので、営業開始後に担当者がこちらでお返事いたします。",
};

/** Texts of the assistant's side in the languages it picks from the visitor's words. */
export type InLanguages = typeof DEFAULT_MESSAGES;

/** A default in the language the visitor wrote in: Japanese by its kana, else as the built-in model replies
 * (`earlier`: the visitor's earlier messages, oldest first, for the script of Chinese). */
export function inLanguage(messages: InLanguages, text: string, earlier: readonly string[] = []) {
  if (/[\u3040-\u30ff]/.test(text)) return messages.ja;
  return messages[({ en: "en", zh: "zh-CN", zhTW: "zh-TW" } as const)[replyLanguage(text, earlier)]];
}

/** What the assistant says as it hands off (`outsideHours`: the inbox's team is away). */
export const handoffMessage = (settings: HandoffSettings, incoming: VisitorWords, outsideHours = false) =>
  outsideHours
    ? settings.outsideHoursMessage?.trim() || inLanguage(OUTSIDE_HOURS_MESSAGES, incoming.content, incoming.earlier)
    : settings.message?.trim() || inLanguage(DEFAULT_MESSAGES, incoming.content, incoming.earlier);

/** The visitor's message, and what they wrote before it (oldest first): the handoff message is in their language. */
export type VisitorWords = Pick<MessageRow, "content"> & { earlier?: readonly string[] };

/** When the handoff happens outside the inbox's business hours: the team's next opening (ms; null: none within two
 * weeks). */
export interface OutsideHours {
  nextOpeningAt: number | null;
}

/**
 * Whether the inbox's team is away at `now` (its business hours; the clock's time, lib/clock.ts), read only as the
 * assistant hands off: every handoff, in a turn or outside one (the visitor's dislikes), says the same message.
 */
export async function outsideHours(db: Db, inboxId: string, now: number): Promise<OutsideHours | undefined> {
  const [inbox] = await db.select({ hours: inboxes.businessHours }).from(inboxes).where(eq(inboxes.id, inboxId));
  if (!inbox?.hours || isOpen(inbox.hours, now)) return undefined;
  return { nextOpeningAt: nextOpening(inbox.hours, now) };
}

/**
 * The assistant's last reply before a person takes over: `reply` (none: only the handoff message)
 * and the message, marked with the reason (and, outside business hours, the next opening).
 */
export function handoffReply(
  settings: HandoffSettings,
  reason: HandoffReason,
  incoming: VisitorWords,
  reply?: Reply,
  outside?: OutsideHours,
): Reply {
  const said = handoffMessage(settings, incoming, !!outside);
  const base: Reply = reply ?? { content: "", citations: [], citationNodes: [], usage: null };
  const handoff = outside
    ? {
        reason,
        outsideHours: true,
        nextOpeningAt: outside.nextOpeningAt === null ? null : String(outside.nextOpeningAt),
      }
    : { reason };
  return {
    ...base,
    content: base.content ? `${base.content}\n\n${said}` : said,
    contentPayload: { ...base.contentPayload, handoff },
  };
}

/** Whether a stored message is an assistant's handoff (its reply queues the conversation). */
export const handsOff = (message: Pick<NewMessage, "senderType" | "contentPayload">) =>
  message.senderType === "chatbot" && !!(message.contentPayload as { handoff?: unknown } | null | undefined)?.handoff;
