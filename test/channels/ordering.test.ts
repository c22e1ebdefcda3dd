// A chat's events are taken in in the order the platform says they happened (then as their request listed them),
// whichever request or queue message brought them first (services/channels/intake.ts).
import { describe, expect, it } from "vitest";
import { data, db, seedOwner, unique } from "../harness";
import { keep } from "../../src/services/channels/inbound";
import { env } from "cloudflare:workers";
import * as sample from "./meta-samples";
import { META_ACCOUNTS, metaInbox, signed } from "./meta-support";
import { channelInbox, contactLines, messagesWhen, onlyConversation, post } from "./support";

describe("the order of a chat's messages", () => {
  it("events kept out of order (the later one first) are stored in the platform's order", async () => {
    const owner = await seedOwner();
    const token = `5:${unique("t").replace(/[^A-Za-z0-9]/g, "")}`;
    const inbox = await channelInbox(
      owner,
      "telegram",
      { botToken: token },
      { chatbot: { handoff: { enabled: false } } },
    );
    const t = Date.now() - 60_000;
    // Ids that sort against time, kept in one batch (one receiving time): only the platform's time orders them.
    const event = (id: string, text: string, at: number) => ({
      eventId: id,
      threadKey: "777",
      sender: { id: "777", name: "Mia" },
      text,
      attachments: [],
      at,
    });
    await keep(env, db(), await data(owner.organizationId), owner.organizationId, inbox.inboxId, [
      event("b", "second", t + 1000),
      event("a", "third", t + 2000),
      event("c", "first", t),
    ]);
    const conversation = await onlyConversation(owner, inbox.inboxId);
    const messages = await messagesWhen(
      owner,
      conversation.id,
      (m) => m.filter((x) => x.senderType === "contact").length === 3,
    );
    expect(contactLines(messages)).toEqual(["first", "second", "third"]);
  });

  it("messages of one second in one request are stored in the order the request lists them", async () => {
    // WhatsApp (as Telegram and e-mail) gives whole seconds, and one request's events share their receiving time.
    const { owner, inbox } = await metaInbox(META_ACCOUNTS.whatsapp);
    const at = String(Math.floor(Date.now() / 1000) - 5);
    const text = (id: string, body: string) => ({
      from: "16505551234",
      id,
      timestamp: at,
      type: "text",
      text: { body },
    });
    // Meta's ids: the first one happens to sort after the second.
    const body = sample.whatsappMessages([
      text("wamid.HBgLMTY1MDUwNzY1MjAVAgARGBJGQzVEMEQ5RkE0QjY2RjA2NTgA", "I ordered the blue one"),
      text("wamid.HBgLMTY1MDUwNzY1MjAVAgARGBI0QjE2QzY3MTBGQTQ3QkQ5NzQA", "but it arrived red, what now?"),
    ]);
    expect((await post(inbox.path, await signed(body))).status).toBe(200);
    const conversation = await onlyConversation(owner, inbox.inboxId);
    const messages = await messagesWhen(
      owner,
      conversation.id,
      (m) => m.filter((x) => x.senderType === "contact").length === 2,
    );
    expect(contactLines(messages)).toEqual(["I ordered the blue one", "but it arrived red, what now?"]);
  });
});
