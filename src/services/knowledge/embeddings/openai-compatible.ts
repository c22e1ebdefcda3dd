import { providerText } from "../../llm/errors";
import { ModelError } from "../../llm/types";
import type { EmbeddingModel } from "./types";

export interface OpenAiCompatibleEmbeddingOptions {
  /** Up to and including the version segment, e.g. `https://api.openai.com/v1`. */
  baseUrl: string;
  apiKey: string | null;
  /** Model name at the provider. */
  model: string;
  /** Length of the vectors the model returns, as its record says. */
  dimensions: number;
  /** Limit for one request (default 30 s). */
  timeoutMs?: number;
}

/** Providers cap inputs per request (Cohere 96, OpenAI 2048); the lowest common cap is safe everywhere. */
export const EMBEDDING_BATCH_SIZE = 96;

/** Any `/embeddings` endpoint speaking OpenAI's protocol (OpenAI, Jina, Ollama, vLLM, TEI, ...). */
export function openAiCompatibleEmbeddingModel(o: OpenAiCompatibleEmbeddingOptions): EmbeddingModel {
  return {
    dimensions: o.dimensions,
    async embed(texts) {
      const out: number[][] = [];
      for (let i = 0; i < texts.length; i += EMBEDDING_BATCH_SIZE) {
        const input = texts.slice(i, i + EMBEDDING_BATCH_SIZE);
        const body = await postJson(
          `${o.baseUrl.replace(/\/+$/, "")}/embeddings`,
          o.apiKey,
          { model: o.model, input },
          "data",
          o.timeoutMs,
        );
        out.push(...readEmbeddings(body, input.length, o.dimensions));
      }
      return out;
    },
  };
}

// biome-ignore lint/suspicious/noExplicitAny: a provider's JSON, each field read with a check of its own
type Json = Record<string, any>;

/** `data[].embedding` in input order (by `index`: the protocol does not promise array order). */
function readEmbeddings(body: Json, expected: number, dimensions: number): number[][] {
  const data = Array.isArray(body.data) ? (body.data as Json[]) : null;
  if (!data || data.length !== expected)
    throw new ModelError(`The embedding provider returned ${data?.length ?? "no"} vectors for ${expected} texts.`, 502);
  const sorted = data.every((d) => typeof d?.index === "number") ? [...data].sort((a, b) => a.index - b.index) : data;
  return sorted.map((d) => checkedVector(d?.embedding, dimensions));
}

/** A unit vector of the declared length; the interface promises unit length and not every provider normalises. */
export function checkedVector(values: unknown, dimensions: number): number[] {
  if (!Array.isArray(values) || !values.every((x) => typeof x === "number" && Number.isFinite(x))) {
    throw new ModelError("The embedding provider returned a malformed vector.", 502);
  }
  if (values.length !== dimensions) {
    // The record is wrong, not the provider: the model cannot be used as configured.
    throw new ModelError(
      `The embedding model returned ${values.length} dimensions; its record says ${dimensions}.`,
      400,
    );
  }
  const norm = Math.hypot(...values);
  return norm > 0 ? values.map((x) => x / norm) : values;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * POSTs JSON and returns the JSON answer, which holds its list in `answerField` (`data`, `results`); every failure is
 * a ModelError that never shows the key.
 */
export async function postJson(
  url: string,
  apiKey: string | null,
  payload: unknown,
  answerField: string,
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<Json> {
  // Upstream messages may echo what they were sent; the key must never reach our callers.
  const scrub = (text: string) => providerText(text, apiKey);
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json" };
  if (apiKey) headers.Authorization = `Bearer ${apiKey}`;
  const timeout = AbortSignal.timeout(timeoutMs);
  let res: Response;
  try {
    res = await fetch(url, { method: "POST", headers, body: JSON.stringify(payload), signal: timeout });
  } catch (err) {
    throw timeout.aborted
      ? new ModelError(`The model provider did not answer within ${timeoutMs / 1000} s.`, 504)
      : new ModelError(`Could not reach the model provider: ${scrub(String((err as Error)?.message ?? err))}`, 502);
  }
  const text = await res.text().catch(() => "");
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // Reported below with the status or as a malformed answer.
  }
  if (!res.ok) {
    const detail = errorMessage(body) ?? text.trim();
    throw new ModelError(`The model provider answered ${res.status}${detail ? `: ${scrub(detail)}` : "."}`, 502);
  }
  if (!body || typeof body !== "object")
    throw new ModelError("The model provider answered with something other than a JSON object.", 502);
  const answer = body as Json;
  // Some providers (and proxies in front of them) answer a failure with a 200 and an error body: read as an answer, it
  // had no vectors or scores, and the provider's words were lost.
  if (answer.error && !Array.isArray(answer[answerField]))
    throw new ModelError(
      `The model provider failed: ${scrub(errorMessage(answer) ?? JSON.stringify(answer.error))}`,
      502,
    );
  return answer;
}

/** The message of a provider's error body: `{error: {message}}`, `{error: "..."}`, `{detail: "..."}`. */
function errorMessage(body: unknown): string | undefined {
  const e = (body as Json | null)?.error ?? body;
  const message = typeof e === "string" ? e : (e?.message ?? e?.detail);
  return typeof message === "string" ? message : undefined;
}
