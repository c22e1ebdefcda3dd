// The gateway's request and answer schemas (OpenAI's chat completions), shared by its route and
// its service.
import { z } from "@hono/zod-openapi";
import { ErrorSchema } from "../../lib/openapi";

/**
 * OpenAI's chat completions format. Requests arrive camelized by the JSON middleware (`max_tokens`
 * is read as `maxTokens`); responses keep OpenAI's snake_case, since OpenAI clients parse them.
 */
export const AI_GATEWAY_TAG = "AI gateway";

const TextPart = z
  .object({
    type: z.literal("text").openapi({ description: "Only text parts are supported", example: "text" }),
    text: z.string().openapi({ description: "The text of this part", example: "What are your opening hours?" }),
  })
  .openapi("ChatCompletionTextPart");

const RequestMessage = z
  .object({
    role: z
      .enum(["system", "developer", "user", "assistant"])
      .openapi({ description: "`developer` is read as `system`", example: "user" }),
    content: z.union([z.string(), z.array(TextPart).min(1)]).openapi({
      description: "Text, or an array of text parts (joined by new lines)",
      example: "What are your opening hours?",
    }),
  })
  .openapi("ChatCompletionRequestMessage");

const JsonSchemaFormat = z.object({
  name: z.string().max(64).optional().openapi({ description: "Name of the output format", example: "answer" }),
  description: z.string().optional().openapi({ description: "What the output is for", example: "A short answer" }),
  schema: z.record(z.string(), z.unknown()).openapi({
    description: "JSON Schema the answer must be valid against",
    example: { type: "object", properties: { answer: { type: "string" } } },
  }),
  strict: z.boolean().nullable().optional().openapi({ description: "Passed on as given", example: false }),
});

const ResponseFormat = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("text").openapi({ description: "Plain text (the default)", example: "text" }) }),
    z.object({ type: z.literal("json_object").openapi({ description: "Any JSON object", example: "json_object" }) }),
    z.object({
      type: z
        .literal("json_schema")
        .openapi({ description: "JSON valid against `json_schema.schema`", example: "json_schema" }),
      jsonSchema: JsonSchemaFormat.openapi({ description: "`json_schema` in snake_case" }),
    }),
  ])
  .openapi("ChatCompletionResponseFormat");

const Tool = z
  .object({
    type: z.literal("function").openapi({ description: "Only function tools", example: "function" }),
    function: z
      .object({
        name: z
          .string()
          .regex(/^[a-zA-Z0-9_-]{1,64}$/)
          .openapi({ description: "Function name (letters, digits, _ and -)", example: "get_weather" }),
        description: z
          .string()
          .optional()
          .openapi({ description: "What the function does", example: "Current weather of a city" }),
        parameters: z
          .record(z.string(), z.unknown())
          .optional()
          .openapi({
            description: "JSON Schema of the arguments",
            example: { type: "object", properties: { city: { type: "string" } } },
          }),
        strict: z.boolean().nullable().optional().openapi({ description: "Passed on as given", example: false }),
      })
      .openapi({ description: "The function the model may call: its name, what it does and its arguments' schema" }),
  })
  .openapi("ChatCompletionTool");

export const ChatCompletionRequest = z
  .object({
    model: z.string().min(1).openapi({
      description: "Id or name of a large language model usable by the organization",
      example: "Local LLM",
    }),
    messages: z.array(RequestMessage).min(1).openapi({ description: "The conversation so far" }),
    stream: z.boolean().nullable().optional().openapi({ description: "Answer as server-sent events", example: false }),
    streamOptions: z
      .object({
        includeUsage: z
          .boolean()
          .optional()
          .openapi({ description: "`include_usage`: send a usage chunk before `[DONE]`", example: true }),
      })
      .nullable()
      .optional()
      .openapi({ description: "`stream_options`" }),
    temperature: z
      .number()
      .min(0)
      .max(2)
      .nullable()
      .optional()
      .openapi({ description: "Sampling temperature", example: 0.2 }),
    maxTokens: z
      .number()
      .int()
      .min(1)
      .nullable()
      .optional()
      .openapi({ description: "`max_tokens`: length limit of the answer", example: 512 }),
    maxCompletionTokens: z
      .number()
      .int()
      .min(1)
      .nullable()
      .optional()
      .openapi({ description: "`max_completion_tokens`, the newer name of `max_tokens` (wins over it)", example: 512 }),
    responseFormat: ResponseFormat.nullable().optional().openapi({ description: "`response_format`" }),
    tools: z
      .array(Tool)
      .max(128)
      .optional()
      .openapi({ description: "Functions the model may call; passed to the provider (the local model ignores them)" }),
  })
  .openapi("ChatCompletionRequest");

export type ChatCompletionInput = z.infer<typeof ChatCompletionRequest>;

const ToolCallOut = z
  .object({
    id: z.string().openapi({ description: "The call's id, as the provider gave it", example: "call_1" }),
    type: z.literal("function").openapi({ description: "Always `function`", example: "function" }),
    function: z
      .object({
        name: z
          .string()
          .openapi({ description: "Name of the function called, one of `tools`", example: "get_weather" }),
        arguments: z.string().openapi({ description: "JSON text written by the model", example: '{"city": "Paris"}' }),
      })
      .openapi({ description: "The function the model calls and its arguments" }),
  })
  .openapi("ChatCompletionToolCall");

export const CompletionUsage = z
  .object({
    prompt_tokens: z.number().int().openapi({ description: "Tokens of the request's messages", example: 12 }),
    completion_tokens: z.number().int().openapi({ description: "Tokens of the answer", example: 20 }),
    total_tokens: z.number().int().openapi({ description: "prompt_tokens + completion_tokens", example: 32 }),
  })
  .openapi("CompletionUsage", {
    description: "Tokens the provider reported; for a model that reports none (the local one), words counted by us",
  });

export const ChatCompletion = z
  .object({
    id: z.string().openapi({
      description: "The answer's id, `chatcmpl-` and a UUID",
      example: "chatcmpl-0190a5c2-7d1e-7c55-9a0b-3f6c0a1b2c3d",
    }),
    object: z
      .literal("chat.completion")
      .openapi({ description: "Always `chat.completion`", example: "chat.completion" }),
    created: z.number().int().openapi({ description: "Unix seconds", example: 1767225600 }),
    model: z.string().openapi({ description: "Name of the model that answered", example: "Local LLM" }),
    choices: z
      .array(
        z.object({
          index: z.number().int().openapi({ description: "Always 0: there is one choice", example: 0 }),
          message: z
            .object({
              role: z.literal("assistant").openapi({ description: "Always `assistant`", example: "assistant" }),
              content: z
                .string()
                .nullable()
                .openapi({ description: "null when the model only calls tools", example: "We are open 9 to 5." }),
              tool_calls: z
                .array(ToolCallOut)
                .optional()
                .openapi({ description: "Present when the model calls tools" }),
            })
            .openapi({ description: "The model's answer" }),
          finish_reason: z.enum(["stop", "length", "tool_calls", "content_filter"]).openapi({
            description:
              "`length` when the provider stopped at `max_tokens` (or its own limit), `content_filter` when its " +
              "filter cut the answer; else `tool_calls` when the model calls tools, and `stop`",
            example: "stop",
          }),
        }),
      )
      .openapi({ description: "The answer, as one choice" }),
    usage: CompletionUsage,
  })
  .openapi("ChatCompletion");

export type ChatCompletionRecord = z.infer<typeof ChatCompletion>;

export const ChatCompletionStream = z.string().openapi({
  description:
    'Server-sent events: `data: {"id", "object": "chat.completion.chunk", "created", "model", "choices": ' +
    '[{"index": 0, "delta": {"role"?, "content"}, "finish_reason": null}]}` per delta, a chunk with ' +
    '`finish_reason` "stop" (or "tool_calls", or "length" / "content_filter" when the provider cut the answer), ' +
    "a usage chunk (`choices: []`) when " +
    "`stream_options.include_usage`, then `data: [DONE]`. A failure after the stream started is `event: " +
    'error` with `data: {"detail", "code", "error": {"message", "type", "code"}}`.',
  example:
    'data: {"id":"chatcmpl-…","object":"chat.completion.chunk","created":1767225600,"model":"Local ' +
    'LLM","choices":[{"index":0,"delta":{"role":"assistant","content":"We "},"finish_reason":null}]}\n\ndata: ' +
    "[DONE]\n\n",
});

/** The gateway's error body: the contract's `{detail, code, ...}` and OpenAI's `error` (src/lib/openai-errors.ts). */
export const GatewayError = ErrorSchema.extend({
  error: z
    .object({
      message: z.string().openapi({ description: "The same text as `detail`", example: "Not found." }),
      type: z.string().openapi({
        description:
          "OpenAI's error type for the status: `invalid_request_error`, `authentication_error`, " +
          "`permission_error`, `rate_limit_error` or `server_error`",
        example: "invalid_request_error",
      }),
      code: z.string().openapi({ description: "The same code as `code`", example: "not_found" }),
    })
    .openapi({ description: "The error as OpenAI's SDKs read it (`error.message`)" }),
}).openapi("GatewayError");
