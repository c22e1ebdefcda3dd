// Mail no person wrote, which an inbox never answers (docs/decisions.md, "What a visitor sends is kept", E-mail).
import type { Email } from "postal-mime";
import { isMachineAddress } from "./email-address";

/**
 * What auto-responders that set no header at all put first in the subject: Outlook's "Automatic reply:" in the
 * languages of the common clients, the older "Abwesenheitsnotiz:", Lotus Notes' "Auto:", "Out of Office" and
 * "Autoreply" of the rest. Each followed by a colon or by nothing, or in brackets ("[Auto-Reply]", "【自动回复】"):
 * "Autoreply settings", "Out of office hours?" or "Auto insurance" is someone asking. "Auto:" counts only before the
 * "Re:" of the mail it answers (ours always has one, `replySubject`): in German and Dutch it is "car", and
 * "Auto: Reparaturtermin" is someone asking.
 */
const AUTO_REPLY_WORDS = [
  "auto[- ]?(reply|response|responder)",
  "automatic (reply|response)",
  "out of (the )?office( (auto[- ]?)?reply)?",
  "abwesenheitsnotiz",
  "automatische antwort",
  "réponse automatique( d['’]absence du bureau)?",
  "respuesta automática",
  "resposta automática",
  "risposta automatica",
  "automatisch antwoord",
  "automatiskt svar|automatisk svar|automaattinen vastaus",
  "automatyczna odpowiedź|automatická odpověď|otomatik yanıt|автоматический ответ",
  String.raw`自动回复|自動回覆|自动答复|自動応答|自動返信|자동\s?응답|자동\s?회신`,
].join("|");
const NOTES_AUTO = String.raw`auto\s*[:：]\s*re\s*(?:\[\d+\])?\s*[:：]`;
const AUTO_REPLY_SUBJECT = new RegExp(
  String.raw`^(?:[\[【(（]\s*(?:${AUTO_REPLY_WORDS})\s*[\]】)）]|(?:${AUTO_REPLY_WORDS})\s*(?:[:：]|$)|${NOTES_AUTO})`,
  "iu",
);

/**
 * Messages nobody should answer automatically: auto-replies and out-of-office notes (RFC 3834
 * Auto-Submitted, Microsoft's X-Auto-Response-Suppress, the X-Autoreply/X-Autorespond of responders
 * older than RFC 3834, and the subject of those that mark nothing), bulk and list mail, bounces. Answering them is
 * how two robots write to each other forever. Every report is a machine's (RFC 6522 multipart/report: delivery
 * reports, read receipts, abuse feedback), whatever address it names: an Exchange server's bounce comes from
 * "MicrosoftExchange...@", no mailer-daemon, and a read receipt from the visitor's own address.
 */
export function automatic(mail: Email): boolean {
  const header = (name: string) =>
    mail.headers
      .find((h) => h.key === name)
      ?.value.trim()
      .toLowerCase();
  const submitted = header("auto-submitted");
  if (submitted && submitted !== "no") return true;
  if (/\b(all|oof|autoreply)\b/.test(header("x-auto-response-suppress") ?? "")) return true;
  if (/^(bulk|junk|list|auto_reply)$/.test(header("precedence") ?? "")) return true;
  if (/^multipart\/report\b/.test(header("content-type") ?? "")) return true;
  if (header("x-autoreply") || header("x-autorespond")) return true;
  if (AUTO_REPLY_SUBJECT.test((mail.subject ?? "").normalize("NFC").trim())) return true;
  const from = mail.from && "address" in mail.from ? (mail.from.address ?? "") : "";
  return isMachineAddress(from) || !!header("list-id");
}
