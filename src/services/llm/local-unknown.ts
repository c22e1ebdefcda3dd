// What the built-in model says when its sources do not answer, apart from the model itself: the reply path
// (services/conversation/replies.ts) recognizes it without loading the model, which a worker loads on its
// first use of it (services/llm/index.ts; docs/decisions.md, "Cold start").
import { replyLanguage } from "./local-small-talk";

/** Said plainly when the sources do not answer: a nearby fact would read as an answer and mislead. */
const UNKNOWN = {
  en: "I don't know the answer to that from my sources.",
  zh: "我的资料里没有这个问题的答案。",
  zhTW: "我的資料裡沒有這個問題的答案。",
};

export const unknownAnswer = (question: string, earlier: readonly string[] = []) =>
  UNKNOWN[replyLanguage(question, earlier)];

/** Whether the built-in model's answer is that its sources do not answer (a handoff counts it:
 * services/conversation/handoff.ts). */
export const saysUnknown = (answer: string) =>
  Object.values(UNKNOWN).some((unknown) => answer.trimEnd().endsWith(unknown));
