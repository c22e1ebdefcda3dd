import { LOCALES, locale, setLocale, type Locale } from "../../i18n";

/** The language, before anyone is signed in (labelled in both, for whoever cannot read the other). */
export function LanguagePicker() {
  return (
    <label class="compact language">
      <span>Language · 語言</span>
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
