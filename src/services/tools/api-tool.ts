import { readAtMost } from "../../lib/http";
import { describeFetchFailure, timedOutAfter } from "../../lib/outbound-errors";
import { keepsCredentials, redirectedMethod } from "../../lib/redirects";
import { outboundAllowedHosts, webhookUrlProblem } from "../../lib/ssrf";
import type { ToolRow } from "./access";
import type { AgentTool, ToolContext, ToolOutcome } from "../agent/types";
import { parametersOf, toolDescription } from "./definition";

export const API_TOOL_TIMEOUT_MS = 30_000;
export const MAX_RESPONSE_BYTES = 1024 * 1024;
/** What the model reads of a response at most; the record keeps up to MAX_RESPONSE_BYTES. */
const MODEL_CHARS = 16_000;
const MAX_REDIRECTS = 3;

/**
 * An api tool: one HTTP call per use, arguments as the query (GET, DELETE; beside the parameters fixed in its URL,
 * which they do not replace) or a JSON body.
 */
export function apiTool(row: ToolRow): AgentTool {
  return {
    name: row.name!,
    description: toolDescription(row),
    parameters: parametersOf(row),
    displayName: row.displayName,
    kind: "api",
    toolId: row.id,
    hints: `${row.name} ${row.displayName} ${row.description}`,
    run: (args, ctx) => callApi(row, args, ctx),
  };
}

export async function callApi(
  row: Pick<ToolRow, "apiUrl" | "httpMethod" | "rawHeaders">,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<ToolOutcome> {
  let method = (row.httpMethod ?? "get").toUpperCase();
  const timeoutMs = Number(ctx.env.TOOL_TIMEOUT_MS) || API_TOOL_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
  let url = new URL(row.apiUrl!);
  const headers: Record<string, string> = {
    Accept: "application/json, text/plain;q=0.9, */*;q=0.5",
    "User-Agent": "assistant-platform-tools/1",
  };
  for (const [k, v] of Object.entries(row.rawHeaders ?? {})) if (typeof v === "string") headers[k] = v;
  let body: string | undefined;
  if (method === "GET" || method === "DELETE") {
    // What the tool's author fixed in the URL (a key, a tenant, a mode) stays: the arguments come from a conversation
    // a visitor steers, so one of the same name is dropped rather than sent over it.
    const fixed = new Set(url.searchParams.keys());
    for (const [k, v] of Object.entries(args))
      if (v !== undefined && v !== null && !fixed.has(k))
        url.searchParams.set(k, typeof v === "string" ? v : JSON.stringify(v));
  } else {
    body = JSON.stringify(args);
    headers["Content-Type"] = "application/json";
  }
  const allowed = outboundAllowedHosts(ctx.env);
  try {
    for (let hop = 0; ; hop++) {
      const problem = webhookUrlProblem(url.toString(), allowed);
      if (problem) return { status: "failure", error: `Refused: ${problem}` };
      const res = await fetch(url.toString(), { method, headers, body, signal, redirect: "manual" });
      if (res.status >= 300 && res.status < 400 && res.headers.get("Location")) {
        await res.body?.cancel();
        if (hop >= MAX_REDIRECTS) return { status: "failure", error: `More than ${MAX_REDIRECTS} redirects.` };
        url = new URL(res.headers.get("Location")!, url);
        // A 303 (See Other) asks for the answer elsewhere by GET: the call's body stays behind (RFC 9110 15.4.4).
        method = redirectedMethod(res.status, method);
        if (method === "GET" && body !== undefined) {
          body = undefined;
          delete headers["Content-Type"];
        }
        if (!keepsCredentials(new URL(row.apiUrl!), url))
          for (const name of Object.keys(row.rawHeaders ?? {})) delete headers[name];
        continue;
      }
      const { text, truncated } = await readCapped(res, MAX_RESPONSE_BYTES);
      const output = parseBody(text, res.headers.get("Content-Type"));
      const note = truncated ? ` (response cut at ${MAX_RESPONSE_BYTES} bytes)` : "";
      const forModel = (typeof output === "string" ? output : JSON.stringify(output)).slice(0, MODEL_CHARS) + note;
      if (!res.ok)
        return {
          status: "failure",
          output,
          error: `The API answered ${res.status}${note}.`,
          forModel: `HTTP ${res.status}: ${forModel}`,
        };
      // An answer cut at the cap, or JSON that does not parse, is not one the model can rely on: a
      // failure, with what was read kept in the record and its beginning shown to the model.
      const unusable = truncated
        ? `The API's answer is larger than ${MAX_RESPONSE_BYTES} bytes; only its first ${MAX_RESPONSE_BYTES} ` +
          `bytes were read.`
        : isJson(res) && typeof output === "string" && text.trim()
          ? "The API's answer says it is JSON but is not valid JSON."
          : null;
      if (unusable)
        return {
          status: "failure",
          output: text,
          error: unusable,
          forModel: `Error (failure): ${unusable} It begins: ${text.slice(0, MODEL_CHARS)}`,
        };
      return { status: "success", output, forModel };
    }
  } catch (err) {
    // The record and the model read the same words: the host, the port, the time (lib/outbound-errors.ts).
    if (timeout.aborted) return { status: "timeout", error: `The API at ${url.host} ${timedOutAfter(timeoutMs)}.` };
    return { status: "failure", error: `Could not reach the API: ${await describeFetchFailure(err, url)}.` };
  }
}

async function readCapped(res: Response, cap: number): Promise<{ text: string; truncated: boolean }> {
  const { bytes, over } = await readAtMost(res.body, cap);
  return { text: new TextDecoder().decode(bytes), truncated: over };
}

const isJson = (res: Response) => /json/i.test(res.headers.get("Content-Type") ?? "");

function parseBody(text: string, contentType: string | null): unknown {
  if (/json/i.test(contentType ?? "") || /^\s*[[{]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}
