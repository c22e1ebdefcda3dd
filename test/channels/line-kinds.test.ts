// Every kind of event a LINE user makes, several in one webhook request as LINE sends them, through the webhook and
// the channel queue: each message and each postback is kept (text, file or a placeholder naming it), in the order
// they happened; follows, unsends and other events that are no one writing are left out on purpose
// (docs/decisions.md, "Messaging channels", "What a visitor sends is kept").
import { describe, expect, it } from "vitest";
import { hex, newLineInbox, messageEvent, newUser, signed, textEvent } from "./line-support";
import { contactLinesWithFiles, messagesWhen, onlyConversation, post, storedEvents } from "./support";

describe("LINE: what a visitor sends is kept", () => {
  it("one request's events are each kept in order: messages, postbacks, kinds we do not know", async () => {
    const { owner, creds, inbox } = await newLineInbox();
    const user = newUser();
    const source = { type: "user", userId: user };
    const at = Date.now();
    const other = (type: string, fields: Record<string, unknown>, offset: number) => ({
      type,
      mode: "active",
      timestamp: at + offset,
      source,
      webhookEventId: `01J${hex(22).toUpperCase()}`,
      deliveryContext: { isRedelivery: false },
      ...fields,
    });
    const timed = (event: ReturnType<typeof messageEvent>, offset: number) => ({ ...event, timestamp: at + offset });
    const events = [
      other("follow", { replyToken: hex(32), follow: { isUnblocked: false } }, 0),
      timed(textEvent(user, "Hello"), 1),
      timed(
        messageEvent(user, { type: "sticker", packageId: "446", stickerId: "1988", stickerResourceType: "STATIC" }),
        2,
      ),
      timed(
        messageEvent(user, {
          type: "location",
          title: "Tokyo Tower",
          address: "4-2-8 Shibakoen, Minato-ku",
          latitude: 35.6586,
          longitude: 139.7454,
        }),
        3,
      ),
      timed(messageEvent(user, { type: "file", fileName: "scan.png", fileSize: 70 }), 4),
      other("postback", { replyToken: hex(32), postback: { data: "action=reserve&table=4" } }, 5),
      other(
        "postback",
        { replyToken: hex(32), postback: { data: "pick-date", params: { datetime: "2026-08-01T10:00" } } },
        6,
      ),
      timed(messageEvent(user, { type: "poll", question: "Tea or coffee?" }), 7),
      other("unsend", { unsend: { messageId: "325708" } }, 8),
    ];
    expect((await post(inbox.path, await signed(creds.channelSecret, ...events))).status).toBe(200);
    const conversation = await onlyConversation(owner, inbox.inboxId);
    const messages = await messagesWhen(owner, conversation.id, (m) => m.length >= 14);
    expect(contactLinesWithFiles(messages)).toEqual([
      ["Hello", []],
      ["[sticker]", []],
      ["[location] Tokyo Tower, 4-2-8 Shibakoen, Minato-ku (35.6586, 139.7454)", []],
      ["", ["scan.png"]],
      ["[postback] action=reserve&table=4", []],
      ["[postback] pick-date (datetime: 2026-08-01T10:00)", []],
      ["[LINE message: poll]", []],
    ]);
    expect(await storedEvents(owner.organizationId, inbox.inboxId)).toBe(7);
  });
});
