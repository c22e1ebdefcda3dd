// A chat's events are taken in in the order the platform says they happened, whichever request or
// queue message brought them first (services/channels/intake.ts).
import { describe, expect, it } from "vitest";
import { data, db, seedOwner, unique } from "../harness";
import { keep } from "../../src/services/channels/inbound";
import { env } from "cloudflare:workers";
import { channelInbox, contactLines, messagesWhen, onlyConversation } from "./support";

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
});
