import { contentTerms } from "../knowledge/retrieval/terms";
import { conceptsIn } from "./local-concepts";
import { holds, type Unit } from "./local-terms";

/**
 * "Yes," or "No," before the sentence that answers a yes/no question, where the sentence says so
 * (docs/decisions.md, "The built-in model's answer composition"):
 * - No: the sentence denies ("We do not offer support by telephone."), or the question names a place
 *   or thing (a capitalised name) the sentence leaves out while it names others in its place ("Do you
 *   ship to the United States?" against "… to the European Union and to the United Kingdom": a list
 *   of where we ship is the whole list). Countries of the European Union are the Union's
 *   (local-concepts.ts), so Germany is not left out.
 * - Yes: the sentence holds everything the question asks about, and denies nothing.
 * - Otherwise the sentence alone: it answers in part, and the visitor can judge.
 */

const YES_NO_EN = new RegExp(
  String.raw`^(?:(?:hi|hello|hey|ok|okay|so|and|also|please|sorry)[\s,]+)?` +
    String.raw`(?:do|does|did|is|are|was|were|can|could|will|would|should|have|has|had|may|must|shall|am)\s+` +
    // Not a request put as a question ("can you tell me …", "may I ask …").
    String.raw`(?!you\s+(?:tell|give|explain|help|send|show|let|describe|list|recommend|suggest)\b)` +
    String.raw`(?!i\s+(?:ask|know)\b)`,
  "iu",
);
const WH_ZH = /什麼|什么|哪|幾|几|多少|怎|為何|为何|誰|谁|何時|何时/u;
const YES_NO_ZH = /[嗎吗][？?！!。.]*$|是否|有沒有|有没有|能不能|可不可以|會不會|会不会|是不是|可否/u;
const DENIES_EN =
  /(?<![\p{L}\p{N}])(?:not|no|never|cannot|none|nor|neither|nothing)(?![\p{L}\p{N}])|n['’]t(?![\p{L}])/iu;
// Words, not characters: 未使用 is "unused", 不客氣 "you're welcome".
const DENIES_ZH =
  /不(?:提供|支援|支持|接受|可以|可|能|會|会|包含|含|予|退|收|開放|开放|營業|营业|寄|送|出租|是)|無法|无法|沒有|没有|暫不|暂不|恕不|並不|并不|不行/u;
const CJK = /[\u3400-\u9fff]/u;

/** Whether the question asks for a yes or a no ("Do you ship to the United States?", "可以退貨嗎？"). */
export function isYesNo(question: string): boolean {
  const text = question.normalize("NFKC").trim();
  if (CJK.test(text)) return YES_NO_ZH.test(text) && !WH_ZH.test(text);
  // "Do you ship by DHL or UPS?" asks which.
  return YES_NO_EN.test(text) && !/\bor\b/i.test(text);
}

/** Capitalised words of a text after its first word ("I" aside): the names it says. */
const capitalised = (text: string) =>
  text
    .split(/\s+/)
    .slice(1)
    .map((w) => w.replace(/[^\p{L}\p{N}-]/gu, ""))
    .filter((w) => /^\p{Lu}/u.test(w) && w !== "I");

/** Whether the sentence speaks of the name: its word, or the concept it belongs to. */
const speaksOf = (held: Set<string>, name: string) =>
  contentTerms(name).some((t) => held.has(t)) || [...conceptsIn(name).keys()].some((id) => held.has(`@${id}`));

/** The sentence as the answer to `question`: with "Yes, " or "No, " before it when it says so. */
export function yesOrNo(
  question: string,
  units: Unit[],
  sentence: string,
  held: Set<string>,
  inherited: Set<string>,
  names: Set<string>,
): string {
  if (!isYesNo(question)) return sentence;
  const chinese = CJK.test(question);
  const denies = chinese ? DENIES_ZH : DENIES_EN;
  // "Don't you …?" is answered by the sentence alone: a bare yes or no to it is ambiguous.
  if (denies.test(question) || /^(?:yes|no)\b|^(?:是的|不是|不)/iu.test(sentence)) return sentence;
  let answer: "yes" | "no" | null = null;
  // The denial must be the sentence's own, early on ("We do not offer …"), not a clause at its end ("… damage is not").
  const opening = chinese ? sentence.slice(0, 12) : sentence.split(/\s+/).slice(0, 8).join(" ");
  if (denies.test(opening)) answer = "no";
  else if (!chinese) {
    const asked = capitalised(question);
    const missing = asked.filter((n) => !speaksOf(held, n));
    const others = capitalised(sentence).filter((n) => !asked.includes(n));
    if (missing.length && others.length) answer = "no";
  }
  if (!answer && units.every((u) => holds(held, u) || holds(inherited, u))) answer = "yes";
  if (!answer) return sentence;
  if (chinese) return `${answer === "yes" ? "是的" : "不"}，${sentence}`;
  const first = sentence.split(/\s/, 1)[0];
  // "We ship …" reads "Yes, we ship …"; a name keeps its capital ("Yes, Acme products …").
  const lowered = !names.has(first) && first !== "I" ? sentence[0].toLowerCase() + sentence.slice(1) : sentence;
  return `${answer === "yes" ? "Yes" : "No"}, ${lowered}`;
}
