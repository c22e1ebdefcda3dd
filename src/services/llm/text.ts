/** Words for usage counts: a run of letters/digits is one word, each CJK character is one. */
const CJK_RANGES = String.raw`\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af`;
const CJK = new RegExp(`[${CJK_RANGES}]`, "u");
// A Latin word stops where CJK text starts ("API密钥" is one word and two characters).
const TOKEN = new RegExp(String.raw`[${CJK_RANGES}]|(?:(?![${CJK_RANGES}])[\p{L}\p{N}])+(?:['’][\p{L}]+)*`, "gu");
/** A CJK character, or a run of other non-space characters with the spaces after it, or spaces. */
const STREAM_PIECE = new RegExp(String.raw`[${CJK_RANGES}]|[^\s${CJK_RANGES}]+\s*|\s+`, "gu");

export const countWords = (text: string) => text.match(TOKEN)?.length ?? 0;

/** Lower-cased terms for overlap scoring: words, and CJK characters with their bigrams. */
export function terms(text: string): string[] {
  const out: string[] = [];
  const tokens = text.toLowerCase().match(TOKEN) ?? [];
  for (let i = 0; i < tokens.length; i++) {
    out.push(tokens[i]);
    if (CJK.test(tokens[i]) && i + 1 < tokens.length && CJK.test(tokens[i + 1])) out.push(tokens[i] + tokens[i + 1]);
  }
  return out;
}

/** Splits text into sentences, keeping CJK and Latin sentence ends. */
export function sentences(text: string): string[] {
  return (text.match(/[^.!?。！？\n]+[.!?。！？]*/gu) ?? []).map((s) => s.trim()).filter(Boolean);
}

/** Splits an answer into stream pieces: a word with its following space, or one CJK character. */
export function streamPieces(text: string): string[] {
  return text.match(STREAM_PIECE) ?? [];
}
