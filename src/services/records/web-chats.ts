import { z } from "@hono/zod-openapi";
import { THEME_MODES, WEB_CHAT_ACCESS_TYPES } from "../../db/schema";
import { IdName, Timestamps } from "../../lib/openapi";
import { timestampsOf } from "../../lib/time";
import type { WebChatView } from "../inboxes";

// The route schemas take these enums from here (routes do not import db/schema).
export { THEME_MODES, WEB_CHAT_ACCESS_TYPES };

/** The eleven feature switches of a web chat; all false when unset except `enableShowPoweredBy`. */
export const WEB_CHAT_FLAGS = [
  "enableFileUpload",
  "enableDisplayCitations",
  "enableDisplayToolResults",
  "enableShareConversation",
  "enableLocation",
  "enableShowPoweredBy",
  "enableAnonymous",
  "enableThemeModeToggle",
  "enableDownloadCitations",
  "enableDisplayChatbotAvatar",
  "enableDisplayChatbotName",
] as const;
export type WebChatFlag = (typeof WEB_CHAT_FLAGS)[number];
const FLAG_DEFAULTS: Partial<Record<WebChatFlag, boolean>> = { enableShowPoweredBy: true };

/** The keys a theme may carry; both `theme` and `darkTheme` have them. */
export const themeFields = <C extends z.ZodType, F extends z.ZodType>(
  colour: (d: string) => C,
  flag: (d: string) => F,
) => ({
  primaryColor: colour("Main colour: buttons and highlights"),
  navbarTextColor: colour("Text of the navigation bar"),
  conversationBackgroundColor: colour("Background of the conversation"),
  chatbotMessageTextColor: colour("Text of the assistant's messages"),
  userMessageTextColor: colour("Text of the visitor's messages"),
  chatbotMessageBackgroundColor: colour("Bubble of the assistant's messages"),
  userMessageBackgroundColor: colour("Bubble of the visitor's messages"),
  chatbotMessageBackgroundShadowEnabled: flag("Shadow under the assistant's bubbles"),
  userMessageBackgroundShadowEnabled: flag("Shadow under the visitor's bubbles"),
});

export const ThemeSchema = z
  .object(
    themeFields(
      (description) => z.string().optional().openapi({ description, example: "#3366FF" }),
      (description) => z.boolean().optional().openapi({ description, example: true }),
    ),
  )
  .openapi("WebChatTheme", {
    description:
      "Colours of the chat window: `theme` in light mode, `darkTheme` in dark mode; a key left out is the default",
  });

const flag = (description: string, example = false) => z.boolean().openapi({ description, example });

/** The eleven feature switches (`WEB_CHAT_FLAGS`); all false when unset except `enableShowPoweredBy`; new web chats
 * store `enableAnonymous: true`. */
export const WebChatFlags = z.object({
  enableFileUpload: flag("Visitors may attach files"),
  enableDisplayCitations: flag("Show the sources of answers"),
  enableDisplayToolResults: flag("Show the results of tool calls"),
  enableShareConversation: flag("Visitors may share a conversation"),
  enableLocation: flag("Send the visitor's location with messages"),
  enableShowPoweredBy: flag("Show the powered-by logo (default true)", true),
  enableAnonymous: flag(
    "Visitors may chat without identifying themselves (no pre-chat form); true for new web chats, false for " +
      "those created before it was the default and never set",
    true,
  ),
  enableThemeModeToggle: flag("Visitors may switch between light and dark"),
  enableDownloadCitations: flag("Visitors may download cited files"),
  enableDisplayChatbotAvatar: flag("Show the assistant's avatar"),
  enableDisplayChatbotName: flag("Show the assistant's name"),
} satisfies Record<WebChatFlag, z.ZodBoolean>);

export const text = (description: string, example: string | null) =>
  z.string().nullable().openapi({ description, example });

/** What the web chat record and the widget's configuration both show of the chat's voice, first words and look. */
export const chatDisplayFields = {
  enableSpeech: z.boolean().openapi({ description: "Voice input and read-aloud", example: false }),
  displayGreeting: z.string().openapi({ description: "First message shown", example: "Hello! How can I help?" }),
  displayConversationStarters: z
    .array(z.string())
    .openapi({ description: "Suggested first questions", example: ["Opening hours?"] }),
  theme: ThemeSchema,
  darkTheme: ThemeSchema,
};

export const CustomDomainSchema = z
  .object({
    id: z.string().openapi({ description: "The custom domain's id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    domain: z.string().openapi({ description: "The host name serving the widget", example: "chat.example.com" }),
    status: z.enum(["pending", "active", "failed"]).openapi({ description: "Verification state", example: "pending" }),
  })
  .openapi("WebChatCustomDomain");

export const WebChatSchema = z
  .object({
    id: z.string().openapi({ description: "The web chat's id", example: "0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d" }),
    name: z.string().openapi({ description: "The web chat's name", example: "Website chat" }),
    avatar: text("Avatar image URL", "https://cdn.example.com/avatar.png"),
    logo: text("Logo URL", "https://cdn.example.com/logo.png"),
    cover: text("Cover image URL", null),
    poweredByLogo: text("Powered-by logo URL", null),
    description: text("Text under the title", "Ask us anything"),
    backUrl: text("Where the back button leads", "https://example.com"),
    isActive: z.boolean().openapi({ description: "Whether the widget answers (default true)", example: true }),
    ...chatDisplayFields,
    accessType: z.enum(WEB_CHAT_ACCESS_TYPES).openapi({ description: "public or private", example: "public" }),
    defaultThemeMode: z
      .enum(THEME_MODES)
      .nullable()
      .openapi({ description: "light, dark or system", example: "system" }),
    // A union, not `.nullable()`, so that the OpenAPI document shows the null.
    customDomain: z.union([CustomDomainSchema, z.null()]).openapi({ description: "Custom domain serving the widget" }),
    inbox: IdName,
    ...Timestamps,
  })
  .extend(WebChatFlags.shape)
  .openapi("WebChat");

export type WebChatRecord = z.infer<typeof WebChatSchema>;

export function webChatRecord({ webChat, inbox }: WebChatView): WebChatRecord {
  const s = webChat.settings;
  const flags = Object.fromEntries(WEB_CHAT_FLAGS.map((k) => [k, s[k] ?? FLAG_DEFAULTS[k] ?? false])) as Record<
    WebChatFlag,
    boolean
  >;
  return {
    id: webChat.id,
    name: webChat.name,
    avatar: s.avatar ?? null,
    logo: s.logo ?? null,
    cover: s.cover ?? null,
    poweredByLogo: s.poweredByLogo ?? null,
    description: s.description ?? null,
    backUrl: s.backUrl ?? null,
    isActive: webChat.isActive,
    enableSpeech: s.enableSpeech ?? false,
    displayGreeting: s.displayGreeting ?? "",
    displayConversationStarters: s.displayConversationStarters ?? [],
    theme: s.theme ?? {},
    darkTheme: s.darkTheme ?? {},
    accessType: webChat.accessType,
    defaultThemeMode: s.defaultThemeMode ?? null,
    customDomain: s.customDomain ?? null,
    inbox,
    ...timestampsOf(webChat),
    ...flags,
  };
}
