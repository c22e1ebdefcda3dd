import { conceptSearchWords } from "./local-concepts";
import { keyUnits } from "./local-terms";
import { asksForPerson } from "../conversation/handoff";
import { smallTalkReply } from "./local-small-talk";

/**
 * A follow-up is read with the visitor's previous question: "How much is the deposit?" after "Do you
 * rent bikes?" asks about the bikes' deposit, though it names no bike. Retrieval then searches for
 * both, and the built-in model prefers, among sentences that answer the follow-up, those about the
 * earlier subject (docs/decisions.md, "The built-in model's answer composition").
 */

/** Words that point back at what was said before ("it", "that one", "and for e-bikes?", "那個呢"). */
const POINTS_BACK_EN = new RegExp(
  String.raw`^(?:and|also|so|but|what\s+about|how\s+about|and\s+what\s+about)\b` +
    String.raw`|\b(?:it|its|that|this|those|these|they|them|their|one|ones)\b`,
  "u",
);
const POINTS_BACK_ZH = /^(?:那|還有|还有|另外|那麼|那么)|(?:它|這個|这个|那個|那个|這些|这些|那些|呢)/u;
/** A question naming this many things or fewer leans on its context. */
const ELLIPTIC_UNITS = 2;

/** Whether the question leans on the conversation's earlier turns (short, or pointing back). */
export function isFollowUp(question: string): boolean {
  const text = question.normalize("NFKC").toLowerCase().trim();
  if (!text) return false;
  // Two Chinese characters make about one word.
  const units = keyUnits(text);
  const cjk = units.filter((u) => /^[\u3400-\u9fff]$/u.test(u.key)).length;
  return (
    POINTS_BACK_EN.test(text) || POINTS_BACK_ZH.test(text) || units.length - cjk + Math.ceil(cjk / 2) <= ELLIPTIC_UNITS
  );
}

/**
 * The visitor's question a follow-up continues: the latest earlier message that asked something
 * (small talk and requests for a person ask nothing). Null when `question` does not lean on it.
 */
export function previousQuestion(question: string, earlier: string[]): string | null {
  if (!isFollowUp(question)) return null;
  for (let i = earlier.length - 1; i >= 0; i--) {
    const message = earlier[i].trim();
    if (!message || smallTalkReply(message) !== null || asksForPerson(message)) continue;
    return keyUnits(message).length ? message : null;
  }
  return null;
}

/**
 * The text to search the knowledge bases with for a visitor's message: the message, the other
 * wordings of the concepts it names (a paraphrase finds its passage), and for a follow-up the
 * previous question (`earlier`: the visitor's earlier messages, oldest first).
 */
export function retrievalQuery(message: string, earlier: string[] = []): string {
  const previous = previousQuestion(message, earlier);
  return [message, previous ?? "", conceptSearchWords(previous ? `${message}\n${previous}` : message)]
    .filter((s) => s.trim())
    .join("\n");
}
