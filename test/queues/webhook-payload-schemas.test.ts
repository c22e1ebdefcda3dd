// What outgoing webhooks send, as a real receiver gets it, against the schemas the OpenAPI document's `webhooks` name
// for it (WebhookMessage, WebhookLegacyMessage, WebhookConversationEvent): a receiver may generate its types from
// the document, so the bodies must be what it says.
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { seedOwner, waitFor } from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import { bodyOf, documentOf } from "../support/api";
import { SchemaKit, type Schema } from "../support/openapi-sweep/schema";
import { addWebhook } from "./webhook-fixtures";
import { receivedAt } from "../support/received";

let kit: SchemaKit;
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
/** Each webhook's body schema as the document's `webhooks` give it. */
const bodySchemas: Record<string, Schema> = {};

beforeAll(async () => {
  const doc = await documentOf(await SELF.fetch("https://example.com/api/v1/openapi.json"));
  kit = new SchemaKit(doc.components);
  for (const name of ["message", "conversation.updated"])
    bodySchemas[name] = doc.webhooks![name].post!.requestBody!.content["application/json"].schema;
});

/** The body is valid against the schema named for it and against its webhook's body schema. */
function expectDocumented(webhook: string, name: string, body: unknown) {
  expect(kit.valid(ref(name), body), `${name}: ${JSON.stringify(body)}`).toBe(true);
  expect(kit.valid(bodySchemas[webhook], body), `${webhook}: ${JSON.stringify(body)}`).toBe(true);
}

describe("outgoing webhooks' bodies, as the OpenAPI document types them", () => {
  it("a reply in the standard and the legacy body, and a takeover as a lifecycle event", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const inbox = bot.defaultInbox!.id;
    const standard = (await addWebhook(owner, inbox, { conversationEvents: true })).path;
    const legacy = (await addWebhook(owner, inbox, { templatePreset: "legacy" })).path;
    const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "hello" } });
    expect(res.status).toBe(200);
    const { conversationId } = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res);
    expect((await owner.fetch("POST", `/conversations/${conversationId}/take-over/`)).status).toBe(200);

    const bodies = async (path: string) => (await receivedAt(path)).map((r) => JSON.parse(r.body));
    const sent = await waitFor(
      () => bodies(standard),
      (b) => b.some((x) => x.event === "conversation.updated") && b.some((x) => x.type === "outgoing"),
    );
    const message = sent.find((b) => b.type === "outgoing");
    const event = sent.find((b) => b.event === "conversation.updated");
    expectDocumented("message", "WebhookMessage", message);
    expectDocumented("conversation.updated", "WebhookConversationEvent", event);
    expect(event).toMatchObject({ reason: "operator", conversation: { progress_status: "human_serving" } });
    const [old] = await waitFor(
      () => bodies(legacy),
      (b) => b.length > 0,
    );
    expectDocumented("message", "WebhookLegacyMessage", old);
    expect(old).toMatchObject({ conversation: conversationId, type: "outgoing" });

    // The schemas are not vacuous: a body without its sender, or an event without its reason, is refused.
    const { sender: _, ...unsent } = message;
    expect(kit.valid(ref("WebhookMessage"), unsent)).toBe(false);
    const { reason: __, ...unreasoned } = event;
    expect(kit.valid(bodySchemas["conversation.updated"], unreasoned)).toBe(false);
  });
});
