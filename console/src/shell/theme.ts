// Light, dark or the system's choice (the default), remembered in this browser. The stylesheet
// follows `prefers-color-scheme` until <html data-theme> names a choice.
import { effect, signal } from "@preact/signals";

export type Theme = "system" | "light" | "dark";
const STORAGE_KEY = "console.theme";
const saved = localStorage.getItem(STORAGE_KEY);

export const theme = signal<Theme>(saved === "light" || saved === "dark" ? saved : "system");

export function setTheme(next: Theme) {
  localStorage.setItem(STORAGE_KEY, next);
  theme.value = next;
}

effect(() => {
  document.documentElement.dataset.theme = theme.value;
});
