// Every kind of message Messenger, Instagram and WhatsApp send, batched the way Meta batches them (several entries,
// several items each), through the webhook and the channel queue: each is kept as text, a file or a placeholder
// naming it; receipts, echoes, unsends and system notices are left out on purpose (docs/decisions.md, "Messaging
// channels", "What a visitor sends is kept").
import { describe, expect, it } from "vitest";
import { graph, META_ACCOUNTS, metaInbox, newId, signed } from "./meta-support";
import * as sample from "./meta-samples";
import { reactionKept } from "./scenes";
import { contactLines, messagesOf, messagesWhen, onlyConversation, post, storedEvents } from "./support";

/** A builder of messaging items from `sender` to `recipient`: each `offset` ms after `at`, with its `fields`. */
const messagingItem = (sender: string, recipient: string, at: number) => (offset: number, fields: object) => ({
  sender: { id: sender },
  recipient: { id: recipient },
  timestamp: at + offset,
  ...fields,
});

const { messenger, instagram, whatsapp } = META_ACCOUNTS;

describe("Messenger: what a visitor sends is kept", () => {
  it("a batch of entries and items: texts, postbacks, edits, shares and unsupported messages, in order", async () => {
    const { owner, inbox } = await metaInbox(messenger);
    const at = Date.now();
    const item = messagingItem(sample.PSID, sample.PAGE_ID, at);
    const first = newId("m_");
    const body = {
      object: "page",
      entry: [
        {
          id: sample.PAGE_ID,
          time: at,
          messaging: [
            item(0, { message: { mid: first, text: "Hi" } }),
            item(1, { postback: { mid: newId("m_"), title: "Get Started", payload: "GET_STARTED" } }),
            item(2, { postback: { title: "Track my order", payload: "TRACK" } }),
            item(3, { delivery: { mids: [first], watermark: at } }),
          ],
        },
        {
          id: sample.PAGE_ID,
          time: at + 10,
          messaging: [
            item(4, { message: { mid: newId("m_"), is_unsupported: true } }),
            item(5, { message: { mid: newId("m_"), attachments: [{ type: "fallback", title: "A shared post" }] } }),
            item(6, {
              message: {
                mid: newId("m_"),
                attachments: [
                  { type: "template", payload: { product: { elements: [{ id: "1", title: "Blue mug" }] } } },
                ],
              },
            }),
            item(7, { message_edit: { mid: first, text: "Hi there", num_edit: 1 } }),
            item(8, { read: { watermark: at } }),
          ],
        },
      ],
    };
    expect((await post(inbox.path, await signed(body))).status).toBe(200);
    const conversation = await onlyConversation(owner, inbox.inboxId);
    const messages = await messagesWhen(owner, conversation.id, (m) => m.length >= 14);
    expect(contactLines(messages)).toEqual([
      "Hi",
      "Get Started",
      "Track my order",
      "[unsupported Messenger message]",
      "[fallback] A shared post",
      "[product] Blue mug",
      "[edited] Hi there",
    ]);
    // Meta's retry of the whole batch is the same events.
    expect((await post(inbox.path, await signed(body))).status).toBe(200);
    expect(await storedEvents(owner.organizationId, inbox.inboxId)).toBe(7);
  });

  it("a reaction is kept in the open conversation without an answer; one taken back is nothing new", async () => {
    const { owner, token, inbox, say } = await metaInbox(messenger);
    const reaction = (action: string) => ({
      object: "page",
      entry: [
        {
          id: sample.PAGE_ID,
          time: Date.now(),
          messaging: [
            {
              sender: { id: sample.PSID },
              recipient: { id: sample.PAGE_ID },
              timestamp: Date.now(),
              reaction: { mid: "m_answer", action, emoji: "❤️", reaction: "love" },
            },
          ],
        },
      ],
    });
    await reactionKept(owner, inbox, {
      say,
      react: async () => {
        await post(inbox.path, await signed(reaction("react")));
        await post(inbox.path, await signed(reaction("unreact")));
      },
      shown: "[reaction ❤️]",
    });
    // Connect asked Meta for the Page's reactions and edits too.
    const [subscribe] = (await graph.requests(token)).filter((r) => r.path.endsWith("/subscribed_apps"));
    expect(subscribe.query.subscribed_fields).toBe("messages,messaging_postbacks,message_reactions,message_edits");
  });
});

describe("Instagram: what a visitor sends is kept", () => {
  it("story mentions, unsupported messages and reactions are kept; an unsend is not a message", async () => {
    const { owner, inbox, say } = await metaInbox(instagram);
    await say("Do you have it in blue?");
    const conversation = await onlyConversation(owner, inbox.inboxId);
    await messagesWhen(owner, conversation.id, (m) => m.length >= 2);
    const at = Date.now();
    const item = messagingItem(sample.IGSID, sample.IG_ID, at);
    const story = "https://lookaside.fbsbx.com/ig_messaging_cdn/?asset_id=17&signature=abc";
    const body = {
      object: "instagram",
      entry: [
        {
          id: sample.IG_ID,
          time: at,
          messaging: [
            item(0, {
              message: { mid: newId("m_"), attachments: [{ type: "story_mention", payload: { url: story } }] },
            }),
            item(1, { message: { mid: newId("m_"), is_unsupported: true } }),
            item(2, { reaction: { mid: "m_answer", action: "react", reaction: "love", emoji: "❤️" } }),
            item(3, { message: { mid: newId("m_"), is_deleted: true } }),
          ],
        },
      ],
    };
    expect((await post(inbox.path, await signed(body))).status).toBe(200);
    const messages = await messagesWhen(owner, conversation.id, (m) => contactLines(m).length >= 4);
    expect(contactLines(messages)).toEqual([
      "Do you have it in blue?",
      `[story_mention] ${story}`,
      "[unsupported Instagram message]",
      "[reaction ❤️]",
    ]);
  });
});

describe("WhatsApp: what a visitor sends is kept", () => {
  it("contacts, orders, forms, reactions and unsupported types are kept; system notices are not", async () => {
    const { owner, inbox } = await metaInbox(whatsapp);
    const at = Math.floor(Date.now() / 1000);
    let n = 0;
    const message = (type: string, fields: object) => ({
      from: "16505551234",
      id: `wamid.${newId("k")}`,
      timestamp: String(at + n++),
      type,
      ...fields,
    });
    const first = message("text", { text: { body: "Hello" } });
    const body = sample.whatsappMessages([
      first,
      message("contacts", {
        contacts: [
          {
            name: { formatted_name: "Barbara Johnson", first_name: "Barbara" },
            phones: [{ phone: "+1 940-555-1234" }],
          },
        ],
      }),
      message("order", {
        order: {
          catalog_id: "cat1",
          text: "Gift wrap, please",
          product_items: [{ product_retailer_id: "MUG-BLUE", quantity: 2, item_price: 12.5, currency: "USD" }],
        },
      }),
      message("interactive", {
        interactive: {
          type: "nfm_reply",
          nfm_reply: { name: "flow", body: "Sent", response_json: '{"size":"M","flow_token":"t1"}' },
        },
      }),
      message("unsupported", {
        errors: [{ code: 131051, title: "Message type unknown", message: "Message type unknown" }],
        unsupported: { type: "poll_creation" },
      }),
      message("reaction", { reaction: { message_id: first.id, emoji: "👍" } }),
      message("reaction", { reaction: { message_id: first.id } }),
      message("system", {
        system: { body: "User changed from +1 650 to +1 651", wa_id: "16515551234", type: "user_changed_number" },
      }),
      message("hologram", { hologram: {} }),
    ]);
    expect((await post(inbox.path, await signed(body))).status).toBe(200);
    const conversation = await onlyConversation(owner, inbox.inboxId);
    const messages = await messagesWhen(owner, conversation.id, (m) => contactLines(m).length >= 7);
    await new Promise((r) => setTimeout(r, 1000));
    expect(contactLines(messages)).toEqual([
      "Hello",
      "[contact] Barbara Johnson +1 940-555-1234",
      "[order] 2 × MUG-BLUE (12.5 USD)\nGift wrap, please",
      '[form] {"size":"M","flow_token":"t1"}',
      "[unsupported WhatsApp message: poll_creation]",
      "[reaction 👍]",
      "[WhatsApp message: hologram]",
    ]);
    const replies = (await messagesOf(owner, conversation.id)).filter((m) => m.senderType === "chatbot");
    expect(replies.map((m) => m.content)).not.toContain('You said: "[reaction 👍]".');
  });
});
