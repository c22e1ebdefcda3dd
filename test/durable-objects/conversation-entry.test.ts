// The exported conversation class imports its body on first use: every method a caller may reach must be forwarded.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { Conversation as Body } from "../../durable-objects/conversation";
import { FORWARDED } from "../../durable-objects/conversation-entry";

describe("the conversation object's entry class", () => {
  it("forwards every public method of the body, and answers through the stub", async () => {
    const methods = Object.getOwnPropertyNames(Body.prototype).filter((n) => n !== "constructor" && n !== "alarm");
    expect([...FORWARDED].sort()).toEqual(methods.sort());
    const stub = env.CONVERSATION.get(env.CONVERSATION.newUniqueId());
    await expect(stub.warm()).resolves.toBeUndefined();
  });
});
