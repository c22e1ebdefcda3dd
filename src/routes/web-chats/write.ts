import { z } from "@hono/zod-openapi";
import { IdRef, NameField } from "../../lib/openapi";
import { isImageRef } from "../../services/uploads/web-chat-images";
import { THEME_MODES, WEB_CHAT_ACCESS_TYPES, WebChatFlags, themeFields } from "../../services/records/web-chats";

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

/** What the write endpoints say about images. */
export const IMAGE_NOTE =
  "`avatar` and `logo` take a URL, or the key of an image uploaded through `upload-presigned-url/` (modelName " +
  "`web-chat`, fieldName `avatar` or `logo`), " +
  "which is then served publicly under `/api/v1/files/public/` and its URL stored.";

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
              "A hostname you own, kept in lower case (409 if another web chat has it); a new one is `pending` " +
              "until `POST /web-chats/{id}/custom-domain/verify/` finds its TXT record",
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
