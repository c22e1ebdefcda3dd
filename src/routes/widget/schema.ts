import { z } from "@hono/zod-openapi";
import { uuidParam } from "../../lib/openapi";

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

export const SessionBody = z
  .object({
    token: z.string().max(1000).optional().openapi({
      description: "A token this web chat issued before (even expired, within 30 days): resumes that visitor",
      example: "v1.eyJ3Ijo...abc",
    }),
    contact: z
      .object({
        sourceId: z
          .string()
          .min(1)
          .max(200)
          .optional()
          .openapi({ description: "The visitor's id in the site (with identityToken)", example: "user-42" }),
        identityToken: z.string().max(200).optional().openapi({
          description:
            "hex HMAC-SHA256 of sourceId (or `sourceId:identityExpiresAt`) with the web chat's identity secret",
          example: "9f2c...e1",
        }),
        identityExpiresAt: z.number().int().positive().optional().openapi({
          description:
            "Seconds since the epoch after which the identity lapses (then signed as `sourceId:identityExpiresAt`)",
          example: 1767225600,
        }),
        name: z.string().max(200).optional().openapi({ description: "The visitor's name", example: "Ada" }),
        email: z
          .email()
          .max(254)
          .optional()
          .openapi({ description: "The visitor's e-mail", example: "ada@example.com" }),
      })
      .optional()
      .openapi({ description: "Who the visitor is: a signed identity, or a name/e-mail from the pre-chat form" }),
  })
  .openapi("WidgetSessionRequest");

export const SSE_EXAMPLE =
  'id: 0190...:2\ndata: {"conversationId":"0190...","messageId":"0190...","content":"We","done":false}';
