import { z } from "@hono/zod-openapi";
import { THEME_MODES, WEB_CHAT_ACCESS_TYPES } from "../../db/schema";
import { IdName, IdRef, NameField, Timestamps } from "../../lib/openapi";
import { timestampsOf } from "../../lib/time";
import type { WebChatView } from "../inboxes";
import { isImageRef } from "../uploads/web-chat-images";

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

// Request bodies, beside the record (docs/decisions.md, "One word per concept, and where a record's shape is
// written").
const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
// At least two labels, each 1..63 letters, digits or inner hyphens; no IP addresses.
// Checked after lower-casing; no regex flags, so the pattern stays valid in the OpenAPI document.
const HOSTNAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Theme keys; unknown keys are refused and `null` removes a key (PATCH merges key by key). */
const ThemeWrite = z.strictObject(
  themeFields(
    (description) =>
      z
        .string()
        .regex(HEX, "Must be a HEX colour such as #3366FF")
        .nullable()
        .optional()
        .openapi({ description, example: "#3366FF" }),
    (description) => z.boolean().nullable().optional().openapi({ description, example: true }),
  ),
);

const link = (description: string) =>
  z.httpUrl().max(2000).nullable().optional().openapi({ description, example: "https://cdn.example.com/logo.png" });
/** An image URL, or the key of a `web-chat` upload for the field, which the write publishes
 * (services/uploads/web-chat-images.ts). */
const image = (description: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(2000)
    .refine(isImageRef, "Must be an http(s) URL or the key of an uploaded image")
    .nullable()
    .optional()
    .openapi({
      description:
        `${description}: an http(s) URL, or the \`fields.key\` of an upload-presigned-url/ upload (modelName ` +
        `web-chat), which is stored and replaced by its public URL`,
      example: "https://cdn.example.com/logo.png",
    });

/** PUT body: the spec's required fields are required; fields left out keep their value. */
export const WebChatReplace = z
  .object({
    name: NameField(
      "The web chat's name, 1-200 characters after trimming; the widget's title, and the name its replies go by " +
        "when no assistant is attached",
      "Website chat",
    ),
    enableSpeech: z.boolean().openapi({ description: "Voice input and read-aloud", example: false }),
    displayGreeting: z
      .string()
      .max(2000)
      .openapi({ description: "First message shown", example: "Hello! How can I help?" }),
    displayConversationStarters: z
      .array(z.string().max(200).openapi({ example: "Opening hours?" }))
      .max(10)
      .openapi({
        description: "At most 10 suggested first questions, each up to 200 characters",
        example: ["Opening hours?"],
      }),
    theme: ThemeWrite.openapi({ description: "Light theme", example: { primaryColor: "#3366FF" } }),
    darkTheme: ThemeWrite.openapi({ description: "Dark theme", example: { primaryColor: "#99BBFF" } }),
    accessType: z.enum(WEB_CHAT_ACCESS_TYPES).openapi({ description: "public or private", example: "public" }),
    inbox: IdRef.openapi({ description: "The web chat's inbox; cannot change" }),
    avatar: image("Avatar image"),
    logo: image("Logo"),
    cover: link("Cover image URL (http or https)"),
    poweredByLogo: link("Powered-by logo URL (http or https)"),
    description: z
      .string()
      .max(2000)
      .nullable()
      .optional()
      .openapi({ description: "Text under the title", example: "Ask us anything" }),
    backUrl: z
      .string()
      .max(2000)
      .regex(/^(?:[hH][tT][tT][pP][sS]?:\/\/|\/|$)/, "Must be an http(s) URL or a path")
      .nullable()
      .optional()
      .openapi({ description: "Where the back button leads", example: "https://example.com" }),
    isActive: z.boolean().optional().openapi({ description: "Whether the widget answers", example: true }),
    defaultThemeMode: z
      .enum(THEME_MODES)
      .nullable()
      .optional()
      .openapi({ description: "light, dark or system", example: "system" }),
    customDomain: z
      .object({
        domain: z
          .string()
          .trim()
          .toLowerCase()
          .regex(HOSTNAME, "Must be a hostname such as chat.example.com")
          .openapi({
            description:
              "A hostname you own, kept in lower case (409 if another web chat serves it, its claim verified); a " +
              "new one is `pending` until `POST /web-chats/{id}/custom-domain/verify/` finds its TXT record",
            example: "chat.example.com",
          }),
      })
      .nullable()
      .optional()
      .openapi({ description: "Only `domain` is read; the server assigns `id` and status `pending`. null removes it" }),
  })
  .extend(WebChatFlags.partial().shape);

export const WebChatPatch = WebChatReplace.partial();
export const WebChatCreate = WebChatPatch.extend({
  inbox: IdRef.openapi({ description: "A web inbox without a web chat" }),
});
