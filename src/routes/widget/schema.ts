import { z } from "@hono/zod-openapi";
import { nameText, uuidParam } from "../../lib/openapi";
import { wellFormed } from "../../lib/text";

export const WIDGET_TAG = "Web chat widget";
/** Routes that need the visitor token of the session endpoint. */
export const VISITOR_SECURITY = [{ WidgetToken: [] }];

export const WebChatParams = z.object({ id: uuidParam("id", "Web chat id") });
export const ConversationParams = WebChatParams.extend({
  conversationId: uuidParam("conversationId", "One of the visitor's conversations"),
});
export const MessageParams = WebChatParams.extend({
  messageId: uuidParam("messageId", "A message of one of the visitor's conversations"),
});

export const UploadBody = z
  .object({
    // A file name is a name: on one line, as every file name written in JSON.
    filename: nameText(255).transform(wellFormed).openapi({
      description: "Name of the file; its extension must be allowed by allowed-file-specs `attachment`",
      example: "notes.txt",
    }),
    fileSize: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).openapi({
      description: "Size of the file in bytes, at most the `attachment` spec's max_size; an empty file is refused",
      example: 1024,
    }),
  })
  .openapi("WidgetUploadRequest");

export const CsatBody = z
  .object({
    rating: z.number().int().min(1).max(5).openapi({ description: "1 (poor) to 5 (excellent)", example: 4 }),
    comment: z.string().max(1000).transform(wellFormed).nullable().optional().openapi({
      description: "What the visitor adds, up to 1,000 characters; null or left out for none",
      example: "Quick and friendly.",
    }),
  })
  .openapi("WidgetCsat");
