import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../env";
import { toolExecutionRecords, type messages } from "../../db/schema";
import type { ChatMessage } from "../llm";

type MessageRow = typeof messages.$inferSelect;
type StoredCall = {
  id?: string;
  callId?: string;
  name?: string;
  input?: unknown;
  status?: string;
  output?: unknown;
  error?: string | null;
};

const RESULT_CHARS = 4_000;

/**
 * The tool turns an earlier agent reply took, for the model's memory of the conversation: the
 * assistant's calls, then each result (a desktop call's from its record, since the client posts it
 * after the reply was stored). Calls still pending have no result yet and are left out.
 */
export async function toolTurns(db: Db, reply: MessageRow): Promise<ChatMessage[]> {
  const calls = ((reply.contentPayload as { toolCalls?: StoredCall[] } | null)?.toolCalls ?? []).filter(
    (c) => c.callId && c.name,
  );
  if (!calls.length) return [];
  const pendingIds = calls.filter((c) => c.status === "pending" && c.id).map((c) => c.id!);
  const posted = pendingIds.length
    ? await db
        .select()
        .from(toolExecutionRecords)
        .where(
          and(
            eq(toolExecutionRecords.organizationId, reply.organizationId),
            inArray(toolExecutionRecords.id, pendingIds.slice(0, 90)),
          ),
        )
    : [];
  const done = calls
    .map((c) => {
      const record = c.status === "pending" ? posted.find((r) => r.id === c.id) : undefined;
      return record ? { ...c, status: record.status, output: record.output, error: record.error } : c;
    })
    .filter((c) => c.status !== "pending");
  if (!done.length) return [];
  const text = (c: StoredCall) => {
    if (c.status !== "success") return `Error (${c.status}): ${c.error ?? "the tool failed"}`;
    const out = typeof c.output === "string" ? c.output : JSON.stringify(c.output ?? null);
    return out.length > RESULT_CHARS ? `${out.slice(0, RESULT_CHARS)} [truncated]` : out;
  };
  const ids = distinctIds(done.map((c) => c.callId!));
  return [
    {
      role: "assistant",
      content: "",
      toolCalls: done.map((c, i) => ({ id: ids[i], name: c.name!, arguments: JSON.stringify(c.input ?? {}) })),
    },
    ...done.map((c, i): ChatMessage => ({ role: "tool", toolCallId: ids[i], name: c.name, content: text(c) })),
  ];
}

/**
 * The calls' ids made distinct: the rounds of one reply are told here as one assistant message, and a model's ids
 * are unique per round only (`call_1` again in the next round, as the text protocol's and some servers' are), so
 * each result would answer two calls; a provider may refuse such a request.
 */
function distinctIds(ids: string[]): string[] {
  const seen = new Set<string>();
  return ids.map((id) => {
    let unique = id;
    for (let n = 2; seen.has(unique); n++) unique = `${id}_${n}`;
    seen.add(unique);
    return unique;
  });
}

/** Whether a stored reply still waits for a desktop client's results. */
export const pendingCalls = (reply: MessageRow): string[] =>
  ((reply.contentPayload as { pendingToolCalls?: string[] } | null)?.pendingToolCalls ?? []).filter(
    (x) => typeof x === "string",
  );
