// Outbound requests answered in the test itself: fetch is spied on, and each URL prefix given answers as told.
import { vi } from "vitest";

export type Answered = { url: string; authorization: string | null; body: string | null };

const routes = new Map<string, { answer: () => Response; seen: Answered[] }>();

/**
 * Answers every outbound request whose URL starts with `base` with `answer()` (fetch is spied on), recording what
 * each carried; other requests go out as before. `forgetAnswers()` (after each test) ends it.
 */
export function answerAt(base: string, answer: () => Response): Answered[] {
  const seen: Answered[] = [];
  if (!routes.size) {
    const real = globalThis.fetch;
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const request = new Request(input, init);
      const route = [...routes].find(([prefix]) => request.url.startsWith(prefix))?.[1];
      if (!route) return real(input, init);
      route.seen.push({
        url: request.url,
        authorization: request.headers.get("Authorization"),
        body: init?.body ? String(init.body) : null,
      });
      return route.answer();
    });
  }
  routes.set(base, { answer, seen });
  return seen;
}

/** Ends answerAt's answers: fetch goes out as before. */
export function forgetAnswers() {
  vi.restoreAllMocks();
  routes.clear();
}

/** An event-stream answer of `text`. */
export const sse = (text: string) => new Response(text, { headers: { "Content-Type": "text/event-stream" } });

/** One OpenAI chat completion chunk as an event, with `delta` and the finish reason (none by default). */
export const completionChunk = (delta: Record<string, unknown>, finish: string | null = null) => {
  const body = { object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] };
  return `data: ${JSON.stringify(body)}\n\n`;
};
