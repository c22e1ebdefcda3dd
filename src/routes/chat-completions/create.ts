import { createRoute } from "@hono/zod-openapi";
import type { Router } from "../../lib/openapi";
import { errorResponsesOf, jsonBody } from "../../lib/openapi";
import { ApiError } from "../../lib/errors";
import { chatModelFor, complete, modelApiError } from "../../services/llm";
import { requireAssistantAnswers } from "../../services/assistant-refusal";
import { gatewayAccess, findChatModel } from "../../services/gateway/access";
import {
  chatRequest,
  completionHead,
  completionRecord,
  streamChunks,
  usageOf,
} from "../../services/gateway/completion";
import { eventStream } from "../../services/gateway/event-stream";
import { type GatewayAnswer, recordGatewayAnswer } from "../../services/gateway/usage";
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
    const body = c.req.valid("json");
    // Its words count towards the month's, so once they are used (or the plan lapsed) it is refused as a completion is.
    const [row] = await Promise.all([
      findChatModel(c.var.db, access.organizationId, body.model),
      requireAssistantAnswers(c.env, c.var.db, access.organizationId),
    ]);
    const model = await chatModelFor(c.env, row).catch((err) => {
      throw modelApiError(err);
    });
    const abort = new AbortController();
    const request = chatRequest(body, abort.signal);
    const head = completionHead(row.name);
    const caller = { organizationId: access.organizationId, userId: c.var.principal.userId, modelId: row.id };
    const record = (answer: GatewayAnswer) => recordGatewayAnswer(c.var.data, caller, answer);

    if (!body.stream) {
      const answer = await complete(model, request).catch((err) => {
        throw modelApiError(err);
      });
      c.executionCtx.waitUntil(record(answer));
      return c.json(completionRecord(head, answer, usageOf(answer.usage, request, answer.content)), 200);
    }

    const unexpected = (err: unknown) => {
      console.error(
        JSON.stringify({
          level: "error",
          requestId: c.var.requestId,
          path: c.req.path,
          message: String(err),
          stack: (err as Error)?.stack,
        }),
      );
      return new ApiError(500, "server_error", "A server error occurred.");
    };
    const includeUsage = body.streamOptions?.includeUsage === true;
    const { response, finished } = eventStream(abort, (send) =>
      streamChunks(model, request, head, includeUsage, send, unexpected),
    );
    c.executionCtx.waitUntil(finished.then(record));
    return response;
  });
