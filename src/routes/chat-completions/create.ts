import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponsesOf, jsonBody } from "../../lib/openapi";
import { gatewayAccess } from "../../services/gateway/access";
import { answerChatCompletion } from "../../services/gateway/answer";
import {
  AI_GATEWAY_TAG,
  ChatCompletion,
  ChatCompletionRequest,
  ChatCompletionStream,
  GatewayError,
} from "../../services/gateway/schema";

const route = createRoute({
  method: "post",
  path: "/chat/completions/",
  tags: [AI_GATEWAY_TAG],
  summary: "Create a chat completion (OpenAI-compatible)",
  description:
    "OpenAI's chat completions protocol in front of the organization's large language models, so OpenAI SDKs " +
    "work unchanged " +
    "(`baseURL` `https://<host>/api/v1`, the API key as `apiKey`: `Authorization: Bearer <key>` is accepted). " +
    "`model` is the id or the name of a built-in model or one of the organization's. Allowed when the organization's " +
    "`canUseAiGateway` is on (403 otherwise); any member may call it. Responses use OpenAI's snake_case; " +
    "error bodies carry " +
    "`{detail, code}` and OpenAI's `error: {message, type, code}`. The words of each answer count towards the " +
    "organization's usage and its plan's monthly words: once those are used, 403 until the next month; " +
    "403 too once the organization's plan has expired (`organizationPlan.expiredAt`), until it is renewed.",
  request: jsonBody(ChatCompletionRequest),
  responses: {
    200: {
      description: "The answer: JSON, or server-sent events when `stream` is true",
      content: {
        "application/json": { schema: ChatCompletion },
        "text/event-stream": { schema: ChatCompletionStream },
      },
    },
    ...errorResponsesOf(GatewayError, 400, 403, 404, 502, 504),
  },
});

export const registerCreateChatCompletion = (r: Router) =>
  r.openapi(route, async (c) => {
    const access = await gatewayAccess(c);
    const req = {
      organizationId: access.organizationId,
      userId: c.var.principal.userId,
      requestId: c.var.requestId,
      path: c.req.path,
      waitUntil: (p: Promise<unknown>) => c.executionCtx.waitUntil(p),
    };
    const answer = await answerChatCompletion(c.env, c.var.db, c.var.data, req, c.req.valid("json"));
    return answer instanceof Response ? answer : c.json(answer, 200);
  });
