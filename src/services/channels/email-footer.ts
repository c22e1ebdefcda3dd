// The line a mail app writes under its user's words (docs/decisions.md, "Messaging channels", E-mail's history).

/** A device or app as footers name it: "iPhone", "Samsung Galaxy smartphone", "Mail for Windows 10". */
const DEVICE = String.raw`[\p{L}\p{N}®™ .!'’-]{1,40}`;
/** The same in Latin letters, where the words around it would otherwise match a sentence ("明日から送信"). */
const LATIN_DEVICE = String.raw`[\p{Script=Latin}\p{N} .!-]{1,30}`;
const MAIL_APP = "mail|outlook|yahoo mail|aol|gmail|proton ?mail|samsung (e-?mail|mail)|spark|blue ?mail|aqua ?mail";

/**
 * "Sent from my iPhone", "Get Outlook for iOS", "Sent from Mail for Windows" and what the common clients write in
 * their users' languages: the whole line, so a sentence that only starts so stays.
 */
const FOOTERS = [
  `sent from my ${DEVICE}`,
  `sent (from|with|via|using) (${MAIL_APP})( ${DEVICE})?`,
  "get outlook for (ios|android)",
  `von meinem ${DEVICE} gesendet`,
  `gesendet (von|mit|vom) (meinem |der )?${DEVICE}`,
  "outlook für (ios|android) (beziehen|herunterladen)",
  `envoyé (de|depuis) (mon )?${DEVICE}`,
  "(obtenir|obtener|scarica|baixe o) outlook (pour|para|per) (ios|android)",
  `enviado (desde|de|do) (mi |meu |o meu )?${DEVICE}`,
  `inviato (da|dal) (mio )?${DEVICE}`,
  `(verzonden|verstuurd) (vanaf|van|met) (mijn )?${DEVICE}`,
  `(skickat|skickad) från (min )?${DEVICE}`,
  `(wysłane|wysłano) z (mojego )?${DEVICE}`,
  `отправлено (с|из) (моего )?${DEVICE}`,
  String.raw`${LATIN_DEVICE}\s?から送信`,
  String.raw`從我的\s?${DEVICE}\s?傳送`,
  String.raw`(发自|來自|来自)我的\s?${DEVICE}`,
  String.raw`(나의\s?${DEVICE}|${LATIN_DEVICE})에서\s?(보냄|보냈습니다)`,
].map((p) => new RegExp(`^(${p})[.。]?$`, "iu"));

/** `line` as compared: the links an app puts in its footer ("Mail<https://...> for Windows") taken out. */
const bare = (line: string) =>
  line
    .replace(/\s*[<(]https?:\/\/[^\s>)]*[>)]/g, "")
    .replace(/[\s\u00a0]+/g, " ")
    .trim();

export const isFooter = (line: string) => FOOTERS.some((p) => p.test(bare(line)));

/**
 * `lines` without the mail app's footer at their end (the blank lines around it too), and without the "-- " that was
 * left with nothing under it. A signature (under "-- ") stays: a phone number or a company is the visitor's to give.
 */
export function withoutFooter(lines: string[]): string[] {
  const out = [...lines];
  const last = () => (out.at(-1) ?? "").trim();
  let cut = false;
  for (;;) {
    if (out.length && !last()) out.pop();
    else if (out.length && isFooter(last())) {
      out.pop();
      cut = true;
    } else break;
  }
  if (cut && last() === "--") out.pop();
  return out;
}
