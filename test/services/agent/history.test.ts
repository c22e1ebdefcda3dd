import { describe, expect, it } from "vitest";
import { toolTurns } from "../../../src/services/agent/history";
import { db } from "../../harness";

type Reply = Parameters<typeof toolTurns>[1];

/** A stored agent reply whose rounds called tools with these ids (a model's ids are unique per round only). */
const replyCalling = (callIds: string[]) =>
  ({
    organizationId: "org",
    contentPayload: {
      toolCalls: callIds.map((callId, i) => ({
        callId,
        name: `tool_${i}`,
        input: { i },
        status: "success",
        output: i,
      })),
    },
  }) as unknown as Reply;

describe("toolTurns: an earlier reply's tool calls in the model's history", () => {
  it("gives every call a distinct id, each result answering its own call, when rounds repeated an id", async () => {
    const [assistant, ...results] = await toolTurns(db(), replyCalling(["call_1", "call_1", "call_1_2", "call_2"]));
    const ids = assistant.toolCalls!.map((c) => c.id);
    expect(new Set(ids).size).toBe(4);
    expect(ids[0]).toBe("call_1");
    expect(ids[3]).toBe("call_2");
    expect(results.map((r) => r.toolCallId)).toEqual(ids);
    expect(results.map((r) => r.content)).toEqual(["0", "1", "2", "3"]);
    expect(assistant.toolCalls!.map((c) => c.name)).toEqual(["tool_0", "tool_1", "tool_2", "tool_3"]);
  });
});
