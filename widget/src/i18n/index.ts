// The widget's language and its text. A web chat has no language setting (spec and CONTRACT give it
// none), so the embed may name one (`data-lang`, settings `lang`, `?lang=` on the full-page chat) and
// otherwise the visitor's browser decides: the first tag the widget speaks wins, Traditional Chinese
// (zh-TW, zh-HK, zh-MO, zh-Hant) or English; none of them (zh-CN, ja, ...) gives English. Texts the
// business configured (greeting, starters, names) are shown as written.
import { en } from "./en";
import { zhTW } from "./zh-TW";

export type Language = "en" | "zh-TW";
export type TextKey = keyof typeof en;

const TABLES: Record<Language, Record<TextKey, string>> = { en, "zh-TW": zhTW };

/** The language the widget speaks for one tag (`zh_TW` as a locale writes it too), if it speaks it. */
function spoken(tag: string): Language | undefined {
  if (/^zh[-_](tw|hk|mo|hant)(?![a-z])/i.test(tag)) return "zh-TW";
  // Simplified Chinese is not Traditional: a later choice of the visitor's may still be one we speak.
  if (/^en(?![a-z])/i.test(tag)) return "en";
}

/** The widget's language for tags in order of preference (the embed's, then the browser's). */
export function pickLanguage(tags: readonly string[]): Language {
  for (const tag of tags) {
    const found = spoken(tag);
    if (found) return found;
  }
  return "en";
}

const browserTags = () => (navigator.languages?.length ? navigator.languages : [navigator.language]);

let chosen: Language | undefined;

/**
 * Chooses the widget's language, once, before anything is drawn: `wanted` (the embed's) when the widget speaks
 * it, else the browser's. Read once: the widget is drawn in one language; a change shows on the next page.
 */
export function chooseLanguage(wanted?: string | null): Language {
  chosen = pickLanguage(wanted ? [wanted, ...browserTags()] : browserTags());
  return chosen;
}

/** The widget's language. */
export const language = (): Language => chosen ?? chooseLanguage();

/**
 * The tag speech is heard and read aloud in: the visitor's own regional tag of the widget's language when the
 * browser has one (en-GB, zh-HK: recognition follows their accent), else the widget's language.
 */
export const speechLanguage = (): string =>
  browserTags().find((tag) => /^[a-z]{2}-[a-z]{2}$/i.test(tag) && spoken(tag) === language()) ?? language();

/** A text in the visitor's language, its `{name}` placeholders filled from `vars`. */
export function t(key: TextKey, vars?: Record<string, string | number>): string {
  const text = TABLES[language()][key];
  return vars ? text.replace(/\{(\w+)\}/g, (m, k: string) => (k in vars ? String(vars[k]) : m)) : text;
}

// Made once: a formatter costs more to make than to use, and a long history formats every row.
let formats: { time: Intl.DateTimeFormat; dateTime: Intl.DateTimeFormat } | undefined;

/** When a message was written, as the visitor's language writes it: the time today, else the date and time too. */
export function formatTime(ms: number, now = Date.now()): string {
  formats ??= {
    time: new Intl.DateTimeFormat(language(), { timeStyle: "short" }),
    dateTime: new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" }),
  };
  const sameDay = new Date(ms).toDateString() === new Date(now).toDateString();
  return (sameDay ? formats.time : formats.dateTime).format(ms);
}
