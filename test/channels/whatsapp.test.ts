// WhatsApp end to end against the Graph stand-in: the shared scenarios (meta-support.ts) and what
// only the Cloud API has (the name in the payload, statuses in the same field).
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { conversationObject } from "../../src/services/conversations";
import { graph, META_ACCOUNTS, metaInbox, metaScenarios, sends, signed, type MetaCase } from "./meta-support";
import * as sample from "./meta-samples";
import { conversationsOf, messagesWhen, nthIs, onlyConversation, post } from "./support";

const whatsapp: MetaCase = {
  ...META_ACCOUNTS.whatsapp,
  name: "WhatsApp",
  image: (id) => sample.whatsappImage(id),
  sender: "16505551234",
  contactName: "Sheena Nelson", // from the payload's contacts: WhatsApp has no profile to ask
  sendPath: `/v24.0/${sample.PHONE_NUMBER_ID}/messages`,
  sendBody: (body) => ({
    messaging_product: "whatsapp",
    recipient_type: "individual",
    to: "16505551234",
    type: "text",
    text: { body, preview_url: true },
  }),
  typing: false,
};

describe("WhatsApp", () => {
  metaScenarios(whatsapp);

  it(
    "statuses make no conversation; connect checked the number and subscribed the app to the " + "business account",
    async () => {
      const { owner, token, inbox } = await metaInbox(whatsapp);
      expect((await post(inbox.path, await signed(sample.whatsappStatus))).status).toBe(200);
      await new Promise((r) => setTimeout(r, 1000));
      expect(await conversationsOf(owner, inbox.inboxId)).toEqual([]);
      const calls = (await graph.requests(token)).map((r) => `${r.method} ${r.path}`);
      expect(calls).toEqual([`GET /v24.0/${sample.PHONE_NUMBER_ID}`, `POST /v24.0/${sample.WABA_ID}/subscribed_apps`]);
    },
  );

  it("a reply past the person's 24-hour window is failed with the reason, not sent for WhatsApp to drop", async () => {
    const { owner, token, inbox, say } = await metaInbox(whatsapp);
    await say("Is my order ready?");
    const conversation = await onlyConversation(owner, inbox.inboxId);
    const [question] = await messagesWhen(owner, conversation.id, nthIs(1, "sent"));
    expect((await owner.fetch("POST", `/conversations/${conversation.id}/take-over/`)).status).toBe(200);
    // The person wrote 25 hours ago.
    const wrote = Date.now() - 25 * 3600_000;
    await runInDurableObject(conversationObject(env, conversation.id), (_object, state) => {
      state.storage.sql.exec("UPDATE messages SET created_at = ? WHERE id = ?", wrote, question.id);
    });
    const sent = await owner.fetch("POST", "/messages/outgoing/", { conversation: conversation.id, content: "Yes!" });
    expect(sent.status, await sent.clone().text()).toBe(201);
    const messages = await messagesWhen(owner, conversation.id, (m) =>
      m.some((x) => x.content === "Yes!" && x.metadata?.channelDelivery?.status === "failed"),
    );
    const since = new Date(wrote).toISOString().slice(0, 16).replace("T", " ");
    expect(messages.find((m) => m.content === "Yes!")!.metadata!.channelDelivery).toMatchObject({
      status: "failed",
      error:
        `outside WhatsApp's 24-hour customer service window (the person last wrote ${since} UTC): WhatsApp takes ` +
        "a reply again once they write",
    });
    // Only the assistant's first reply reached the Cloud API.
    expect(await sends(whatsapp, token)).toHaveLength(1);
  });
});
