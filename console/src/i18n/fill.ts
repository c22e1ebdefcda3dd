// A string's placeholders: `{name}` is the value of `name`; `{n, plural, one {# item} other {# items}}` is the form the
// language uses for the number `n` (`#` is the number, and a form may hold `{name}` placeholders too). Kept apart from
// the language's state (./index.ts) so that it is a plain function.

/** One rule set per language: making one costs more than using it. */
const rules = new Map<string, Intl.PluralRules>();

const PLURAL = /\{(\w+), plural, one \{((?:[^{}]|\{\w+\})*)\} other \{((?:[^{}]|\{\w+\})*)\}\}/g;
const PLACEHOLDER = /\{(\w+)\}/g;

export type Vars = Record<string, string | number>;

/** `text` with its placeholders filled from `vars`, plurals as `locale` forms them; unknown names stay as written. */
export function fill(text: string, vars: Vars | undefined, locale: string): string {
  if (!vars) return text;
  const plural = (n: number) => {
    let rule = rules.get(locale);
    if (!rule) rules.set(locale, (rule = new Intl.PluralRules(locale)));
    return rule.select(n);
  };
  return text
    .replace(PLURAL, (whole, name: string, one: string, other: string) =>
      name in vars ? (plural(Number(vars[name])) === "one" ? one : other).replaceAll("#", String(vars[name])) : whole,
    )
    .replace(PLACEHOLDER, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
