// A local OpenAI-compatible upstream for tests and benchmarks: plain Node, no dependencies.
//
// POST /v1/chat/completions answers deterministically: `max_tokens` words (default 20) "word1 word2 ...",
// streamed one word per SSE event with `tokenDelayMs` between them (stream true), or at once (stream
// false). It checks `Authorization: Bearer <UPSTREAM_API_KEY>` (401 otherwise, echoing the key it got, as
// careless providers do, so callers can prove they never pass it on). The model name steers behaviour:
//   fail-500          500 with an OpenAI-style error body
//   fail-midstream    streams three words, then drops the connection (not streamed: half the answer, then drops it)
//   fail-truncated    streams three words, then ends the response cleanly but early (no finish, no [DONE];
//                     not streamed: half the answer)
//   delay-<ms>        uses <ms> instead of tokenDelayMs between words; embeddings and rerank answer after <ms> (there
//                     the name may carry a suffix, `delay-600-<id>`, so a test can count its own requests)
//   story-<ms>        the same when the last user message asks for a story, tokenDelayMs otherwise: a long reply to
//                     write behind, and quick answers to the rest of the conversation
//   fail-429          429 with `Retry-After: 1` (seconds) and an OpenAI-style rate-limit body
//   fail-connect      drops the connection before answering (a connection error before the first token;
//                     workerd logs an "uncaught exception: Network connection lost" of its own for it)
//   hang              never answers (until the client goes away): the caller's time-out must end it
//   malformed         200 with JSON of the wrong shapes (choices holding null, tool_calls not a list, embeddings'
//                     data holding null), streamed or not: the caller keeps what it can read and fails cleanly
//   empty             a complete chat answer with no text (streamed or not)
//   stray-tool        a chat answer that only calls a tool `lookup_order`, whether the request offered tools or not
//   error-200         a request answered 200 with a JSON error body `{error: {message, type, code}}` (chat, streamed
//                     or not; embeddings; rerank), as some OpenAI-compatible providers (and proxies in front of them)
//                     answer
//   error-200-text    the same body as text/plain (chat, streamed or not), as providers that do not label their JSON
//                     answer: the body tells, not the Content-Type
// A fault name may carry `x<N>` and any suffix (`fail-429x2-<id>`): only the first N requests with
// that exact model name fail, the later ones are answered normally (a fault the caller's retries
// outlast); with `from<N>` instead (`fail-500from2-<id>`) the first N-1 are answered and the later ones fail
// (a model that dies between an agent's rounds). GET /request-count?model=<name> says how many requests that name
// has received. A name ending in `-pace-<ms>` (`parallel-tools-pace-5`, `echo-<id>-pace-5`) behaves as the name would
// and puts <ms> between words and argument fragments: for tests whose long answers ("Result: " and every tool's
// error) say what they check in the words, not in their pace.
// When the request carries `tools`, the answer is a call of a tool, its arguments streamed in fragments:
// the tool `tool_choice` names, else the first tool whose name the last user message mentions, else the
// first tool; arguments are the JSON after `ARGS ` in the user message (default {"city": "Paris"}); the
// model `parallel-tools` calls every tool at once. When the last message is a tool result, the answer is
// text instead: "Result: <each tool message's content>", one word per event. POST /v1/embeddings answers, per input, a
// deterministic vector of `dimensions` (default 8)
// numbers derived from the text's characters, not normalised. POST /v1/rerank (Cohere/Jina shape) scores
// each document by the share of the query's words it contains, best first, `top_n` of them. Both check
// the key and honour fail-500 as chat does. GET /last-request?model=<name> returns the last request for
// that model name (or the last of all without `model`): {headers: {authorization}, body, aborted (the
// client left mid-stream), arrivedAt, firstWordAt}; in-process users (the benchmarks) read `requests`,
// where the two times (performance.now()) split a caller's latency at the model.

import { createServer } from "node:http";

export const UPSTREAM_API_KEY = "sk-test-upstream-0123456789";
export const DEFAULT_TOKENS = 20;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The deterministic answer for `n` tokens, as stream pieces: "word1", " word2", ... */
export const answerPieces = (n = DEFAULT_TOKENS) => Array.from({ length: n }, (_, i) => `${i ? " " : ""}word${i + 1}`);

function readBody(req) {
  return new Promise((resolve, reject) => {
    const parts = [];
    req.on("data", (p) => parts.push(p));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

function sendJson(res, status, body) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

const promptTokens = (messages) =>
  (messages ?? []).reduce(
    (n, m) =>
      n +
      String(typeof m.content === "string" ? m.content : JSON.stringify(m.content ?? ""))
        .split(/\s+/)
        .filter(Boolean).length,
    0,
  );

const ROUTES = { "/v1/chat/completions": "chat", "/v1/embeddings": "embeddings", "/v1/rerank": "rerank" };

/** Vector component i of a text: a sum over its characters, so equal texts get equal vectors. */
function upstreamEmbedding(text, dimensions = 8) {
  const v = Array.from({ length: dimensions }, (_, i) => i + 1);
  [...String(text)].forEach((ch, k) => {
    v[(k + ch.codePointAt(0)) % dimensions] += (ch.codePointAt(0) % 7) + 1;
  });
  return v;
}

function embeddings(body) {
  const inputs = Array.isArray(body.input) ? body.input : [body.input];
  const data = inputs.map((text, index) => ({
    object: "embedding",
    index,
    embedding: upstreamEmbedding(text, body.dimensions ?? 8),
  }));
  const tokens = inputs.reduce((n, t) => n + String(t).split(/\s+/).filter(Boolean).length, 0);
  return { object: "list", data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } };
}

function rerank(body) {
  const words = (t) => String(t).toLowerCase().split(/\W+/).filter(Boolean);
  const query = new Set(words(body.query));
  const results = (body.documents ?? []).map((doc, index) => {
    const text = typeof doc === "string" ? doc : doc?.text;
    const hits = new Set(words(text).filter((w) => query.has(w))).size;
    return { index, relevance_score: query.size ? hits / query.size : 0 };
  });
  results.sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index);
  return { model: body.model, results: results.slice(0, body.top_n ?? results.length) };
}

// `error-200-text` before `error-200`, which would take "-text" for a suffix.
const FAULTS = [
  "fail-500|fail-429|fail-connect|hang|malformed|empty|stray-tool|fail-midstream|fail-truncated",
  "error-200-text|error-200",
].join("|");
const FAULT = new RegExp(`^(${FAULTS})(?:x(\\d+)|from(\\d+))?(?:-.*)?$`);

/**
 * A complete answer with no text (`empty`: content "" streamed, null whole), or only a call of a tool `lookup_order`
 * whether or not the request offered tools (`stray-tool`), as models do.
 */
function sendNoText(res, stream, strayTool) {
  const toolCalls = strayTool
    ? [{ index: 0, id: "call_1", type: "function", function: { name: "lookup_order", arguments: '{"id": 7}' } }]
    : undefined;
  const finish = strayTool ? "tool_calls" : "stop";
  const usage = { prompt_tokens: 5, completion_tokens: 0, total_tokens: 5 };
  if (!stream) {
    const message = { role: "assistant", content: null, ...(toolCalls ? { tool_calls: toolCalls } : {}) };
    return sendJson(res, 200, {
      object: "chat.completion",
      choices: [{ index: 0, message, finish_reason: finish }],
      usage,
    });
  }
  res.writeHead(200, { "Content-Type": "text/event-stream" });
  const chunk = (delta, finish_reason = null) =>
    `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason }] })}\n\n`;
  res.write(chunk({ role: "assistant", content: "" }));
  if (toolCalls) res.write(chunk({ tool_calls: toolCalls }));
  res.write(chunk({}, finish));
  res.write(`data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [], usage })}\n\n`);
  res.end("data: [DONE]\n\n");
}

/** Answers of the right status and the wrong shapes (see `malformed` above). */
function sendMalformed(res, route, stream) {
  if (route === "embeddings") return sendJson(res, 200, { object: "list", data: [null] });
  const choices = [null, "text", { index: 0, message: { content: "still here", tool_calls: { id: 1 } } }];
  if (!stream) return sendJson(res, 200, { choices, usage: "many" });
  res.writeHead(200, { "Content-Type": "text/event-stream" });
  res.write(`data: ${JSON.stringify({ choices: { 0: "not a list" } })}\n\n`);
  res.write(
    `data: ${JSON.stringify({ choices: [null, { index: 0, delta: { content: "still here", tool_calls: 7 } }] })}\n\n`,
  );
  res.end("data: [DONE]\n\n");
}

/** The fault a request for `model` suffers, the `seen`-th with that name: null once a `x<N>` fault is spent, or before
 * a `from<N>` one starts. */
function faultOf(model, seen) {
  const match = FAULT.exec(model);
  if (!match) return null;
  if (match[2] !== undefined && seen > Number(match[2])) return null;
  return match[3] !== undefined && seen < Number(match[3]) ? null : match[1];
}

/** Starts the server on 127.0.0.1 and a random port (or `port`). */
export async function startUpstream({ tokenDelayMs = 50, port: listenOn = 0 } = {}) {
  const requests = [];
  /** Requests received per model name (GET /request-count). */
  const counts = new Map();

  const server = createServer(async (req, res) => {
    const arrivedAt = performance.now();
    try {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      if (req.method === "GET" && url.pathname === "/last-request") {
        const model = url.searchParams.get("model");
        const found = [...requests].reverse().find((r) => !model || r.body?.model === model);
        return found ? sendJson(res, 200, found) : sendJson(res, 404, { error: { message: "No such request." } });
      }
      if (req.method === "GET" && url.pathname === "/request-count")
        return sendJson(res, 200, { count: counts.get(url.searchParams.get("model")) ?? 0 });
      const route = req.method === "POST" ? ROUTES[url.pathname] : undefined;
      if (!route) return sendJson(res, 404, { error: { message: "Not found." } });

      const text = await readBody(req);
      let body;
      try {
        body = JSON.parse(text);
      } catch {
        return sendJson(res, 400, { error: { message: "Invalid JSON.", type: "invalid_request_error" } });
      }
      const entry = { headers: { authorization: req.headers.authorization ?? null }, body, aborted: false, arrivedAt };
      requests.push(entry);
      if (requests.length > 500) requests.shift();

      const auth = req.headers.authorization ?? "";
      if (auth !== `Bearer ${UPSTREAM_API_KEY}`) {
        return sendJson(res, 401, {
          error: {
            message: `Incorrect API key provided: ${auth.replace(/^Bearer\s+/i, "")}`,
            type: "invalid_request_error",
            code: "invalid_api_key",
          },
        });
      }
      const model = String(body.model ?? "");
      const seen = (counts.get(model) ?? 0) + 1;
      counts.set(model, seen);
      const fault = faultOf(model, seen);
      if (fault === "fail-500")
        return sendJson(res, 500, { error: { message: "The upstream fell over.", type: "server_error" } });
      if (fault === "fail-429") {
        res.writeHead(429, { "Content-Type": "application/json", "Retry-After": "1" });
        return res.end(
          JSON.stringify({
            error: { message: "Rate limit reached for requests.", type: "requests", code: "rate_limit_exceeded" },
          }),
        );
      }
      if (fault === "fail-connect") return req.socket.destroy();
      if (fault === "hang") return; // the socket stays open, unanswered, until the client leaves
      if (fault === "malformed") return sendMalformed(res, route, body.stream === true);
      if (fault === "error-200" || fault === "error-200-text") {
        const error = { message: "The provider is overloaded, try later.", type: "server_error", code: "overloaded" };
        if (fault === "error-200") return sendJson(res, 200, { error });
        res.writeHead(200, { "Content-Type": "text/plain; charset=utf-8" });
        return res.end(JSON.stringify({ error }));
      }
      if ((fault === "empty" || fault === "stray-tool") && route === "chat")
        return sendNoText(res, body.stream === true, fault === "stray-tool");
      if (route !== "chat") {
        const wait = /^delay-(\d+)(?:-.*)?$/.exec(model);
        if (wait) await sleep(Number(wait[1]));
        return sendJson(res, 200, route === "embeddings" ? embeddings(body) : rerank(body));
      }

      const messages = Array.isArray(body.messages) ? body.messages : [];
      const userText = String([...messages].reverse().find((m) => m.role === "user")?.content ?? "");
      const paced = /^(delay|story)-(\d+)$/.exec(model);
      const pace = /-pace-(\d+)$/.exec(model);
      const delay = pace
        ? Number(pace[1])
        : paced && (paced[1] === "delay" || /story/i.test(userText))
          ? Number(paced[2])
          : tokenDelayMs;
      // `words-<N>`: an answer of N words, for benches that want replies of a realistic length.
      const words = /^words-(\d+)$/.exec(model);
      const n = words
        ? Number(words[1])
        : Number.isInteger(body.max_tokens) && body.max_tokens > 0
          ? body.max_tokens
          : DEFAULT_TOKENS;
      const pieces = answerPieces(n);
      const lastMessage = messages[messages.length - 1];
      const afterTools = lastMessage?.role === "tool";
      const tools = !afterTools && Array.isArray(body.tools) ? body.tools.map((t) => t.function) : [];
      const forced = body.tool_choice?.function?.name;
      // Like a model, it hands off (the built-in `handoff` tool) only when asked to by name, never by default.
      const chosen =
        tools.find((t) => t.name === forced) ??
        tools.find((t) => userText.includes(t.name)) ??
        tools.find((t) => t.name !== "handoff") ??
        null;
      const called = /^parallel-tools(-pace-\d+)?$/.test(model)
        ? tools.filter((t) => t.name !== "handoff" || userText.includes("handoff"))
        : chosen
          ? [chosen]
          : [];
      const tool = called[0] ?? null;
      const argsText = /ARGS (\{.*\})/.exec(userText)?.[1] ?? '{"city": "Paris"}';
      if (afterTools) {
        const results = [];
        for (let i = messages.length - 1; i >= 0 && messages[i].role === "tool"; i--)
          results.unshift(String(messages[i].content));
        pieces.splice(0, pieces.length, ...`Result: ${results.join(" | ")}`.split(/(?= )/));
      }
      const usage = {
        prompt_tokens: promptTokens(body.messages),
        completion_tokens: tool ? 0 : n,
        total_tokens: promptTokens(body.messages) + (tool ? 0 : n),
      };
      const id = `chatcmpl-upstream-${requests.length}`;
      const created = Math.floor(Date.now() / 1000);
      const toolCalls = called.map((t, i) => ({
        id: `call_${i + 1}`,
        type: "function",
        function: { name: t.name, arguments: argsText },
      }));

      if (!body.stream) {
        const message = tool
          ? { role: "assistant", content: null, tool_calls: toolCalls }
          : { role: "assistant", content: pieces.join("") };
        const answer = {
          id,
          object: "chat.completion",
          created,
          model,
          choices: [{ index: 0, message, finish_reason: tool ? "tool_calls" : "stop" }],
          usage,
        };
        if (fault !== "fail-midstream" && fault !== "fail-truncated") return sendJson(res, 200, answer);
        // Half the answer, then the connection drops (or the response ends early).
        const text = JSON.stringify(answer);
        res.writeHead(200, { "Content-Type": "application/json" });
        res.write(text.slice(0, text.length >> 1));
        return fault === "fail-midstream" ? setTimeout(() => res.destroy(), 5) : res.end();
      }

      res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
      res.flushHeaders();
      // A client that went away (aborted, timed out) ends the answer, so no timer outlives it.
      let gone = false;
      res.on("close", () => {
        gone = true;
        entry.aborted = !res.writableEnded;
      });
      const chunk = (delta, finish = null, extra = {}) => {
        const choices = [{ index: 0, delta, finish_reason: finish }];
        const body = { id, object: "chat.completion.chunk", created, model, choices, ...extra };
        return `data: ${JSON.stringify(body)}\n\n`;
      };
      res.write(": upstream comment\n\n");
      res.write(chunk({ role: "assistant", content: "" }));
      if (tool) {
        const third = Math.ceil(argsText.length / 3);
        for (const [index, call] of toolCalls.entries()) {
          res.write(
            chunk({
              tool_calls: [
                { index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } },
              ],
            }),
          );
          for (const part of [argsText.slice(0, third), argsText.slice(third, 2 * third), argsText.slice(2 * third)]) {
            await sleep(delay);
            if (gone) return;
            res.write(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
          }
        }
      } else {
        for (let i = 0; i < pieces.length; i++) {
          await sleep(delay);
          if (gone) return;
          if (fault === "fail-midstream" && i === 3) return res.destroy();
          if (fault === "fail-truncated" && i === 3) return res.end();
          if (i === 0) entry.firstWordAt = performance.now();
          res.write(chunk({ content: pieces[i] }));
        }
      }
      res.write(chunk({}, tool ? "tool_calls" : "stop"));
      if (body.stream_options?.include_usage)
        res.write(
          `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [], usage })}\n\n`,
        );
      res.end("data: [DONE]\n\n");
    } catch (err) {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(err) } });
      else res.destroy();
    }
  });

  await new Promise((resolve) => server.listen(listenOn, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    port,
    requests,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
