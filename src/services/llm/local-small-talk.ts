/**
 * Small talk the built-in model answers politely instead of looking it up: a greeting, thanks, a
 * farewell, "how are you" or "are you a bot", said on its own or strung together ("Thanks, bye!"),
 * with a name or a word of emphasis at most. "Hello!" used to get `I have no information in my
 * sources about "Hello!"`. A message that also asks something ("Hi, can I pay by card?") is not
 * small talk. A visitor asking for a person is handed off before any model is asked
 * (services/conversation/handoff.ts). English and
 * Chinese; a reply in Traditional characters to a message written in them (docs/decisions.md, "The
 * built-in model's answer composition").
 */

type Kind = "greeting" | "thanks" | "farewell" | "wellbeing" | "bot";
type Language = "en" | "zh" | "zhTW";

const ENGLISH: [Kind, RegExp][] = [
  [
    "wellbeing",
    /^(?:(?:hi|hello|hey)\s+)?(?:how\s+are\s+you(?:\s+doing)?(?:\s+today)?|how's\s+it\s+going|how\s+do\s+you\s+do)$/,
  ],
  [
    "bot",
    new RegExp(
      String.raw`^(?:are\s+you\s+(?:a\s+|an\s+)?` +
        String.raw`(?:bot|robot|chatbot|machine|ai|computer|program|human|real(?:\s+person)?|person)` +
        String.raw`|am\s+i\s+(?:talking|chatting|speaking)\s+(?:to|with)\s+` +
        String.raw`(?:a\s+)?(?:bot|robot|human|machine|real\s+person|person)` +
        String.raw`|is\s+this\s+(?:a\s+)?(?:bot|robot|chatbot|human|real\s+person))$`,
    ),
  ],
  [
    "greeting",
    new RegExp(
      String.raw`^(?:hi+|hello+|hey+|hiya|howdy|greetings|yo|good\s+(?:morning|afternoon|evening|day))` +
        String.raw`(?:\s+(?:there|all|everyone|everybody|team|bot|friend))?$`,
    ),
  ],
  [
    "thanks",
    new RegExp(
      String.raw`^(?:(?:ok(?:ay)?|great|perfect|cool|awesome|nice)\s+)?` +
        String.raw`(?:thanks?|thank\s+you|thx|ty|cheers|many\s+thanks)` +
        String.raw`(?:\s+(?:a\s+lot|so\s+much|very\s+much|again|a\s+bunch|for\s+(?:the|your)\s+help))?$`,
    ),
  ],
  [
    "farewell",
    new RegExp(
      String.raw`^(?:bye+|goodbye|good\s+bye|bye\s+bye|see\s+you(?:\s+later|\s+soon)?|see\s+ya|take\s+care` +
        String.raw`|good\s+night` +
        String.raw`|have\s+a\s+(?:nice|good|great)\s+day)$`,
    ),
  ],
];

const CHINESE: [Kind, RegExp][] = [
  ["wellbeing", /^(?:你好)?(?:你好[吗嗎]|最近好[吗嗎]|最近怎[么麼][样樣])$/],
  ["bot", /^(?:你|您)?(?:是|是不是)(?:真人|机器人|機器人|ai|人工智[能慧]|聊天机器人|聊天機器人|真的人)(?:吗|嗎|吧)?$/],
  [
    "greeting",
    /^(?:你好|您好|嗨|哈喽|哈囉|哈啰|早上好|上午好|下午好|晚上好|早安|午安|在吗|在嗎|有人吗|有人嗎)(?:呀|啊|哇)?$/,
  ],
  [
    "thanks",
    /^(?:好的)?(?:谢谢|謝謝|多谢|多謝|感谢|感謝|谢啦|謝啦|谢了|謝了|非常感谢|非常感謝|太感谢了|太感謝了|谢谢你|謝謝你|谢谢您|謝謝您)(?:啦|了|你|您)?$/,
  ],
  ["farewell", /^(?:再见|再見|拜拜|掰掰|回头见|回頭見|晚安)(?:啦|了)?$/],
];

const REPLIES: Record<Kind, Record<Language, string>> = {
  greeting: {
    en: "Hello! How can I help you today?",
    zh: "您好！请问有什么可以帮您？",
    zhTW: "您好！請問有什麼可以幫您？",
  },
  thanks: {
    en: "You're welcome! Is there anything else I can help you with?",
    zh: "不客气！还有什么可以帮您的吗？",
    zhTW: "不客氣！還有什麼可以幫您的嗎？",
  },
  farewell: { en: "Goodbye, and have a nice day!", zh: "再见，祝您生活愉快！", zhTW: "再見，祝您有美好的一天！" },
  wellbeing: {
    en: "I'm doing well, thank you for asking! How can I help you today?",
    zh: "我很好，谢谢关心！请问有什么可以帮您？",
    zhTW: "我很好，謝謝關心！請問有什麼可以幫您？",
  },
  bot: {
    en:
      "I'm an automated assistant: I answer from this service's sources. If you would rather talk to a person, " +
      "say so and I'll pass your message on.",
    zh: "我是自动回复的助理，根据本服务的资料回答。如需真人协助，请告诉我，我会为您转达。",
    zhTW: "我是自動回覆的助理，根據本服務的資料回答。如需真人協助，請告訴我，我會為您轉達。",
  },
};

/** Thanks and goodbye in one breath ("Thanks, bye!") get one reply that says both. */
const THANKS_AND_FAREWELL: Record<Language, string> = {
  en: "You're welcome! Goodbye, and have a nice day!",
  zh: "不客气！再见，祝您生活愉快！",
  zhTW: "不客氣！再見，祝您有美好的一天！",
};

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/u;
/** Characters written only in Traditional Chinese, among those a customer's message is likely to hold. */
const TRADITIONAL =
  /[們個這說請問謝見嗎麼樣幫電話號碼聯絡繫轉為會對還與關開門時間費貨運寄點裡邊機器專員態辦讓後來實際應該買賣沒過發現給東車錢單訂帳戶務質確認處題]/gu;
/** Their Simplified forms (none of them written in Traditional Chinese). */
const SIMPLIFIED =
  /[们个这说请问谢见吗样帮电话号码联络转为会对还与关开门时间费货运点边机专员态办让实际应该买卖没过发现给东车钱单订账户务质确认处题]/gu;

/** Which script a Chinese text is written in: the one it holds more marked characters of; null when neither. */
function scriptOf(text: string): "zh" | "zhTW" | null {
  const traditional = text.match(TRADITIONAL)?.length ?? 0;
  const simplified = text.match(SIMPLIFIED)?.length ?? 0;
  if (traditional === simplified) return null;
  return traditional > simplified ? "zhTW" : "zh";
}

/**
 * The language a reply to the message is written in: English unless it is Chinese. Chinese in the script the visitor
 * writes: the message's, else that of the latest of their `earlier` messages (oldest first) that shows one, else
 * Traditional, the Chinese the product speaks (docs/decisions.md, "The reply's script").
 */
export function replyLanguage(message: string, earlier: readonly string[] = []): Language {
  if (!CJK.test(message)) return "en";
  for (const text of [message, ...[...earlier].reverse()]) {
    const script = scriptOf(text);
    if (script) return script;
  }
  return "zhTW";
}

/** The message without punctuation, emoji or extra spacing, lower case; and whether it is Chinese. */
function bareOf(message: string): { segments: string[]; chinese: boolean } {
  const text = message.normalize("NFKC").toLowerCase();
  const chinese = CJK.test(text);
  // Punctuation separates pieces of small talk ("Thanks, bye!"); spacing and emoji say nothing.
  const segments = text
    .split(/[,.!?;:，。！？；：、~～]+|\s+(?:and|&)\s+/u)
    .map((s) => (chinese ? s.replace(/[^\p{L}\p{N}]+/gu, "") : s.replace(/[^\p{L}\p{N}']+/gu, " ").trim()))
    .filter(Boolean);
  return { segments, chinese };
}

/** The polite reply to a message that is only small talk, else null (`earlier`: the visitor's earlier messages, for
 * the script of the reply: `replyLanguage`). */
export function smallTalkReply(message: string, earlier: readonly string[] = []): string | null {
  const { segments, chinese } = bareOf(message);
  if (!segments.length || segments.join(" ").length > 60 || segments.length > 3) return null;
  const kinds: Kind[] = [];
  for (const segment of segments) {
    const kind = (chinese ? CHINESE : ENGLISH).find(([, pattern]) => pattern.test(segment))?.[0];
    if (!kind) return null;
    kinds.push(kind);
  }
  const language = replyLanguage(message, earlier);
  if (kinds.includes("thanks") && kinds.includes("farewell")) return THANKS_AND_FAREWELL[language];
  // The last word is what the visitor is doing now: "Hi, how are you?" asks how we are, "Great, thanks, bye" leaves.
  const order: Kind[] = ["greeting", "wellbeing", "bot", "thanks", "farewell"];
  const kind = kinds.reduce((a, b) => (order.indexOf(b) > order.indexOf(a) ? b : a));
  return REPLIES[kind][language];
}
