/**
 * Small talk the built-in model answers politely instead of looking it up: a greeting, thanks, a
 * farewell or "how are you", said on its own (with a name or a word of emphasis at most). "Hello!"
 * used to get `I have no information in my sources about "Hello!"` (issue 25). A message that also
 * asks something ("Hi, can I pay by card?") is not small talk.
 */

type Kind = "greeting" | "thanks" | "farewell" | "wellbeing";

const ENGLISH: [Kind, RegExp][] = [
  ["wellbeing", /^(?:(?:hi|hello|hey)\s+)?(?:how\s+are\s+you(?:\s+doing)?(?:\s+today)?|how's\s+it\s+going|how\s+do\s+you\s+do)$/],
  ["greeting", /^(?:hi+|hello+|hey+|hiya|howdy|greetings|yo|good\s+(?:morning|afternoon|evening|day))(?:\s+(?:there|all|everyone|everybody|team|bot|friend))?$/],
  ["thanks", /^(?:(?:ok(?:ay)?|great|perfect|cool|awesome|nice)\s+)?(?:thanks?|thank\s+you|thx|ty|cheers|many\s+thanks)(?:\s+(?:a\s+lot|so\s+much|very\s+much|again|a\s+bunch|for\s+(?:the|your)\s+help))?$/],
  ["farewell", /^(?:bye+|goodbye|good\s+bye|bye\s+bye|see\s+you(?:\s+later|\s+soon)?|see\s+ya|take\s+care|good\s+night|have\s+a\s+(?:nice|good|great)\s+day)$/],
];

const CHINESE: [Kind, RegExp][] = [
  ["wellbeing", /^(?:你好)?(?:你好吗|最近好吗|最近怎么样)$/],
  ["greeting", /^(?:你好|您好|嗨|哈喽|哈啰|早上好|上午好|下午好|晚上好|早安|在吗|有人吗)(?:呀|啊|哇)?$/],
  ["thanks", /^(?:好的)?(?:谢谢|多谢|感谢|谢啦|谢了|非常感谢|太感谢了|谢谢你|谢谢您)(?:啦|了|你|您)?$/],
  ["farewell", /^(?:再见|拜拜|回头见|晚安)(?:啦|了)?$/],
];

const REPLIES: Record<Kind, { en: string; zh: string }> = {
  greeting: { en: "Hello! How can I help you today?", zh: "您好！请问有什么可以帮您？" },
  thanks: { en: "You're welcome! Is there anything else I can help you with?", zh: "不客气！还有什么可以帮您的吗？" },
  farewell: { en: "Goodbye, and have a nice day!", zh: "再见，祝您生活愉快！" },
  wellbeing: { en: "I'm doing well, thank you for asking! How can I help you today?", zh: "我很好，谢谢关心！请问有什么可以帮您？" },
};

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/u;

/** The polite reply to a message that is only small talk, else null. */
export function smallTalkReply(message: string): string | null {
  const text = message.normalize("NFKC").toLowerCase();
  const chinese = CJK.test(text);
  // Punctuation, emoji and spacing say nothing here.
  const bare = chinese ? text.replace(/[^\p{L}\p{N}]+/gu, "") : text.replace(/[^\p{L}\p{N}']+/gu, " ").trim();
  if (!bare || bare.length > 40) return null;
  for (const [kind, pattern] of chinese ? CHINESE : ENGLISH) if (pattern.test(bare)) return REPLIES[kind][chinese ? "zh" : "en"];
  return null;
}
