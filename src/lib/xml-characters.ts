// Bundled into the spreadsheet writer (src/vendor/xlsx.js) in place of write-excel-file's own remover
// (scripts/build-vendor.mjs), so it imports nothing.

/** Any character XML 1.0 does not allow: C0 controls but tab, LF and CR, lone surrogates, U+FFFE, U+FFFF. */
const NOT_XML = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * The text with each character XML 1.0 does not allow replaced by U+FFFD, so a cell shows where one was; every
 * other character is kept. write-excel-file's remover dropped them silently, and with them U+FFFD itself, the C1
 * controls and the noncharacters, which XML allows (and a lone low surrogate took the character before it along).
 */
export default function replaceNonXmlCharacters(text: string): string {
  return text.replace(NOT_XML, "\uFFFD");
}
