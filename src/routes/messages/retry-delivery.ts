import { createRoute, z } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { IdParams, errorResponses, json } from "../../lib/openapi";
import { dataParts } from "../../services/shards/parts";
import { authorize } from "../../services/access";
import { retryDelivery } from "../../services/channels/outbound";

const route = createRoute({
  method: "post",
  path: "/messages/{id}/channel-delivery/retry/",
  tags: ["Conversations"],
  summary: "Send a failed reply to its messaging platform again",
  description:
    "Needs `conversation.manage`. For an outgoing message of a messaging inbox whose " +
    "`metadata.channelDelivery.status` is `failed`: " +
    "it is sent again, before the conversation's later replies still on their way. 409 when it is sent or on " +
    "its way, or when the inbox's channel was disconnected since it was queued (it was written for the chat of " +
    "the connection before, and is never sent through another bot or account); 404 for a message with no " +
    "delivery (web and API conversations) or one sent more than 30 days ago (a sent delivery is kept a month).",
  request: { params: IdParams },
  responses: {
    202: json(
      z
        .object({
          status: z
            .literal("pending")
            .openapi({ description: "Always `pending`: the reply is queued to be sent again" }),
        })
        .openapi("DeliveryRetry"),
      "Queued",
    ),
    ...errorResponses(403, 404, 409),
  },
});

export const registerRetryDelivery = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await authorize(c, "conversation.manage");
    await retryDelivery(
      c.env,
      c.var.db,
      await dataParts(c.env, access.organizationId),
      access.organizationId,
      c.req.valid("param").id,
    );
    return c.json({ status: "pending" as const }, 202);
  });
