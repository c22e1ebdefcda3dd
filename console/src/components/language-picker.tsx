import { LOCALES, locale, setLocale, type Locale } from "../i18n";

/**
 * The console's language, each named in itself. Labelled in both by default (before anyone is signed in, for
 * whoever cannot read the other); the banner's label is in the current language.
 */
export function LanguagePicker({ label = "Language · 語言" }: { label?: string }) {
  return (
    <label class="compact language">
      <span>{label}</span>
      <select value={locale.value} onChange={(e) => setLocale(e.currentTarget.value as Locale)}>
        {LOCALES.map((l) => (
          <option key={l.id} value={l.id} lang={l.id}>
            {l.name}
          </option>
        ))}
      </select>
    </label>
  );
}
