// The web chat's colours, light or dark: CSS variables on the shadow host, read by the stylesheet
// (styles.ts), which has its own defaults for whatever the theme leaves unset.
import type { Config } from "./api";
import { textOn } from "./styles";

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i;

/** Dark or light at start: the visitor's own choice (stored), else the web chat's default mode. */
export const startsDark = (storedMode: string | undefined, c: Config) =>
  storedMode === "dark" ||
  (storedMode !== "light" &&
    (c.defaultThemeMode === "dark" ||
      (c.defaultThemeMode === "system" && matchMedia("(prefers-color-scheme: dark)").matches)));

/** Sets the theme's colours on `host` (a value that is not a hex colour is left to the stylesheet). */
export function applyTheme(host: HTMLElement, config: Config, dark: boolean) {
  host.classList.toggle("dark", dark);
  const t = (dark ? config.darkTheme : config.theme) ?? {};
  const set = (name: string, value: unknown) => {
    if (typeof value === "string" && HEX.test(value)) host.style.setProperty(name, value);
    else host.style.removeProperty(name);
  };
  set("--p", t.primaryColor);
  set(
    "--pt",
    typeof t.primaryColor === "string" && HEX.test(t.primaryColor) ? textOn(t.primaryColor) : dark ? "#0f172a" : null,
  );
  set(
    "--nav",
    t.navbarTextColor ??
      (typeof t.primaryColor === "string" && HEX.test(t.primaryColor)
        ? textOn(t.primaryColor)
        : dark
          ? "#0f172a"
          : null),
  );
  set("--bg", t.conversationBackgroundColor);
  set("--bt", t.chatbotMessageTextColor);
  set("--bb", t.chatbotMessageBackgroundColor);
  set(
    "--ut",
    t.userMessageTextColor ??
      (typeof t.userMessageBackgroundColor === "string" && HEX.test(t.userMessageBackgroundColor)
        ? textOn(t.userMessageBackgroundColor)
        : null),
  );
  set("--ub", t.userMessageBackgroundColor);
  host.style.setProperty("--bs", t.chatbotMessageBackgroundShadowEnabled ? "0 1px 3px rgba(0,0,0,.18)" : "none");
  host.style.setProperty("--us", t.userMessageBackgroundShadowEnabled ? "0 1px 3px rgba(0,0,0,.18)" : "none");
}
