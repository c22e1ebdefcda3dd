import type { Schemas } from "../../api/client";

export type WebChat = Schemas["WebChat"];
export type Theme = WebChat["theme"];

/** The switches of the record, in the order the form shows them. */
export const FLAGS = [
  "enableSpeech",
  "enableFileUpload",
  "enableDisplayCitations",
  "enableDownloadCitations",
  "enableDisplayToolResults",
  "enableShareConversation",
  "enableLocation",
  "enableAnonymous",
  "enableThemeModeToggle",
  "enableDisplayChatbotAvatar",
  "enableDisplayChatbotName",
  "enableShowPoweredBy",
] as const;

export const COLOURS = [
  "primaryColor",
  "navbarTextColor",
  "conversationBackgroundColor",
  "chatbotMessageTextColor",
  "chatbotMessageBackgroundColor",
  "userMessageTextColor",
  "userMessageBackgroundColor",
] as const;
export const SHADOWS = ["chatbotMessageBackgroundShadowEnabled", "userMessageBackgroundShadowEnabled"] as const;
export const IMAGES = ["avatar", "logo", "cover", "poweredByLogo"] as const;

export const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** What the designer edits: the record, with the starters as lines and the domain as text. */
export interface Draft extends WebChat {
  startersText: string;
  domain: string;
}

export const draftOf = (chat: WebChat): Draft => ({
  ...chat,
  startersText: chat.displayConversationStarters.join("\n"),
  domain: chat.customDomain?.domain ?? "",
});

const starters = (d: Draft) =>
  d.startersText
    .split("\n")
    .map((s) => s.trim())
    .filter(Boolean);
const orNull = (s: string | null | undefined) => (s?.trim() ? s.trim() : null);

/** The configuration the widget reads from `public/config/`, made from the unsaved draft (the preview's input). */
export function previewConfig(d: Draft, assistantName: string | null) {
  const colours = (theme: Theme) =>
    Object.fromEntries(Object.entries(theme).filter(([, v]) => typeof v === "boolean" || HEX.test(String(v))));
  return {
    id: d.id,
    name: d.name,
    description: orNull(d.description),
    backUrl: orNull(d.backUrl),
    ...Object.fromEntries(IMAGES.map((k) => [k, orNull(d[k])])),
    isActive: d.isActive,
    accessType: d.accessType,
    assistantName,
    displayGreeting: d.displayGreeting,
    displayConversationStarters: starters(d),
    theme: colours(d.theme),
    darkTheme: colours(d.darkTheme),
    defaultThemeMode: d.defaultThemeMode ?? "system",
    ...Object.fromEntries(FLAGS.map((k) => [k, d[k]])),
  };
}

/** Every key of a theme: what is unset is sent as null (PATCH removes it). */
const themeWrite = (theme: Theme) =>
  Object.fromEntries(
    [...COLOURS, ...SHADOWS].map((k) => [
      k,
      typeof theme[k] === "string" ? orNull(theme[k] as string) : (theme[k] ?? null),
    ]),
  );

/** The PATCH body that saves the whole draft. */
export function patchOf(d: Draft) {
  return {
    name: d.name.trim(),
    description: orNull(d.description),
    backUrl: orNull(d.backUrl),
    ...Object.fromEntries(IMAGES.map((k) => [k, orNull(d[k])])),
    isActive: d.isActive,
    accessType: d.accessType,
    defaultThemeMode: d.defaultThemeMode,
    displayGreeting: d.displayGreeting,
    displayConversationStarters: starters(d),
    theme: themeWrite(d.theme),
    darkTheme: themeWrite(d.darkTheme),
    customDomain: orNull(d.domain) ? { domain: d.domain.trim() } : null,
    ...Object.fromEntries(FLAGS.map((k) => [k, d[k]])),
  };
}

/** The script tag that embeds the web chat; `lang` ("en", "zh-TW") fixes the widget's language, else browsers do. */
export const snippetOf = (id: string, lang = "") =>
  `<script src="${location.origin}/widget.js" data-web-chat-id="${id}"${lang ? ` data-lang="${lang}"` : ""} async>` +
  "</script>";
