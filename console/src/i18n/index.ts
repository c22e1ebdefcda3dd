// Strings live beside what shows them (each page's strings.ts, the shell's, the components'): a
// table per language, English complete and zh-TW required key for key by the types. The language
// is the user's choice, else the browser's; reading `t()` during render re-renders on a switch.
import { effect, signal } from "@preact/signals";
import { fill, type Vars } from "./fill";

export type { Vars } from "./fill";

export const LOCALES = [
  { id: "en", name: "English" },
  { id: "zh-TW", name: "繁體中文" },
] as const;
export type Locale = (typeof LOCALES)[number]["id"];

const STORAGE_KEY = "console.locale";

function initialLocale(): Locale {
  const saved = localStorage.getItem(STORAGE_KEY);
  if (LOCALES.some((l) => l.id === saved)) return saved as Locale;
  // Traditional Chinese is our only Chinese: any zh-* browser gets it before English.
  for (const wanted of navigator.languages ?? [navigator.language]) {
    if (/^zh\b/i.test(wanted)) return "zh-TW";
    if (/^en\b/i.test(wanted)) return "en";
  }
  return "en";
}

export const locale = signal<Locale>(initialLocale());

export function setLocale(next: Locale) {
  localStorage.setItem(STORAGE_KEY, next);
  locale.value = next;
}

effect(() => {
  document.documentElement.lang = locale.value;
});

/**
 * A module's strings: `const t = defineStrings({ en: {...}, "zh-TW": {...} })`, then `t("key", {n: 2})`; placeholders
 * and plural forms as ./fill.ts reads them.
 * The zh-TW table must carry every English key (a missing one is a type error).
 */
export function defineStrings<T extends Record<string, string>>(
  tables: { en: T } & { [L in Exclude<Locale, "en">]: { [K in keyof T]: string } },
) {
  return (key: keyof T & string, vars?: Vars): string =>
    fill((tables[locale.value] as Record<string, string>)[key] ?? tables.en[key], vars, locale.value);
}

// One formatter per language: making one costs more than formatting (a list page formats 20 times).
const timeFormats = new Map<Locale, Intl.DateTimeFormat>();

/** Dates and times as the chosen language writes them (record timestamps are epoch ms, as strings). */
export function formatTime(ms: string | number | null | undefined): string {
  if (ms === null || ms === undefined || ms === "") return "—";
  let format = timeFormats.get(locale.value);
  if (!format)
    timeFormats.set(
      locale.value,
      (format = new Intl.DateTimeFormat(locale.value, { dateStyle: "medium", timeStyle: "short" })),
    );
  return format.format(new Date(Number(ms)));
}

const BYTE_UNITS = ["byte", "kilobyte", "megabyte", "gigabyte", "terabyte"] as const;

/** A size as the chosen language writes it, in the largest unit of 1,000 it reaches: "68 bytes", "12.5 MB". */
export function formatBytes(bytes: number): string {
  let unit = 0;
  let value = bytes;
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  // Chromium's zh-TW has no word of its own for a byte, and wrote "0 byte".
  if (!unit && locale.value === "zh-TW") return `${new Intl.NumberFormat(locale.value).format(value)} 位元組`;
  return new Intl.NumberFormat(locale.value, {
    style: "unit",
    unit: BYTE_UNITS[unit],
    unitDisplay: unit ? "short" : "long",
    maximumFractionDigits: unit && value < 100 ? 1 : 0,
  }).format(value);
}

const dateFormats = new Map<Locale, Intl.DateTimeFormat>();

/** A record's day as the chosen language writes it, without the time (a list's column of creation dates). */
export function formatDate(ms: string | number | null | undefined): string {
  if (ms === null || ms === undefined || ms === "") return "—";
  let format = dateFormats.get(locale.value);
  if (!format) dateFormats.set(locale.value, (format = new Intl.DateTimeFormat(locale.value, { dateStyle: "medium" })));
  return format.format(new Date(Number(ms)));
}
