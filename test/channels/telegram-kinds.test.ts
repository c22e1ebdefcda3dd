// Every kind of update a Telegram visitor can send, through the webhook and the channel queue: each is kept as text,
// a file or a placeholder naming it, never passed over; what is no one writing (a member joining, a live location
// moving) is left out on purpose (docs/decisions.md, "Messaging channels", "What a visitor sends is kept").
import { describe, expect, it } from "vitest";
import { CORRECTED, editedOnce, reactionKept, TYPO } from "./scenes";
import { contactLines, messagesWhen, onlyConversation, setAside, storedEvents } from "./support";
import { sent, telegramInbox, textUpdate } from "./telegram-support";

/** An update of Olivia's private chat whose message carries `fields` instead of a text. */
function messageUpdate(fields: Record<string, unknown>, key: "message" | "edited_message" = "message") {
  const { text: _text, ...message } = textUpdate("").message;
  return { update_id: textUpdate("").update_id, [key]: { ...message, ...fields } };
}

describe("Telegram: what a visitor sends is kept", () => {
  it("polls, dice, venues, games, stories and kinds we do not know are kept as placeholders naming them", async () => {
    const { owner, inbox, postUpdate } = await telegramInbox();
    const updates = [
      messageUpdate({
        poll: {
          id: "5",
          question: "Which colour?",
          options: [
            { text: "Red", voter_count: 0 },
            { text: "Blue", voter_count: 0 },
          ],
          total_voter_count: 0,
          is_closed: false,
          is_anonymous: true,
          type: "regular",
          allows_multiple_answers: false,
        },
      }),
      messageUpdate({ dice: { emoji: "🎲", value: 4 } }),
      messageUpdate({
        venue: {
          location: { latitude: 35.6595, longitude: 139.7005 },
          title: "Shibuya Station",
          address: "Dogenzaka, Tokyo",
        },
        location: { latitude: 35.6595, longitude: 139.7005 },
      }),
      messageUpdate({ game: { title: "Tetris", description: "Blocks", photo: [] } }),
      messageUpdate({ story: { chat: { id: 7, type: "channel", title: "News" }, id: 3 } }),
      messageUpdate({ checklist: { title: "Packing", tasks: [{ id: 1, text: "Passport" }] } }),
    ];
    for (const update of updates) expect((await postUpdate(update)).status).toBe(200);
    const conversation = await onlyConversation(owner, inbox.inboxId);
    const messages = await messagesWhen(owner, conversation.id, (m) => m.length >= 12);
    expect(contactLines(messages)).toEqual([
      "[poll] Which colour? (Red / Blue)",
      "[dice 🎲 4]",
      "[venue] Shibuya Station, Dogenzaka, Tokyo (35.6595, 139.7005)",
      "[game] Tetris",
      "[story]",
      "[Telegram message: checklist]",
    ]);
  });

  it("a sticker is said by its emoji; a still one is also its picture, a sticker attachment", async () => {
    const { owner, inbox, postUpdate } = await telegramInbox();
    const sticker = (emoji: string, moving: boolean) => ({
      file_id: `sticker-${emoji}`,
      file_unique_id: emoji,
      type: "regular",
      width: 512,
      height: 512,
      is_animated: moving,
      is_video: false,
      emoji,
    });
    expect((await postUpdate(messageUpdate({ sticker: sticker("😀", false) }))).status).toBe(200);
    const conversation = await onlyConversation(owner, inbox.inboxId);
    expect((await postUpdate(messageUpdate({ sticker: sticker("🎉", true) }))).status).toBe(200);
    const messages = await messagesWhen(owner, conversation.id, (m) => contactLines(m).length >= 2);
    // The still one came as an image with no words: what the person meant was lost.
    expect(contactLines(messages)).toEqual(["[sticker 😀]", "[sticker 🎉]"]);
    const [still, moving] = messages.filter((m) => m.senderType === "contact");
    expect(still.attachments).toMatchObject([{ type: "sticker", contentType: "image/webp", filename: "sticker.webp" }]);
    expect(moving.attachments).toEqual([]);
  });

  it("an edited message is kept as its new text, marked; a live location moving is not a message", async () => {
    const { owner, token, inbox, postUpdate } = await telegramInbox();
    const [webhook] = await sent(token, "setWebhook");
    expect(webhook.body.allowed_updates).toEqual(["message", "edited_message", "callback_query", "message_reaction"]);
    await editedOnce(owner, inbox, {
      say: () => postUpdate(textUpdate(TYPO)),
      edit: async () => {
        const edit = messageUpdate({ text: CORRECTED, edit_date: Math.floor(Date.now() / 1000) }, "edited_message");
        expect((await postUpdate(edit)).status).toBe(200);
        const moved = messageUpdate({ location: { latitude: 1, longitude: 2, live_period: 900 } }, "edited_message");
        expect((await postUpdate(moved)).status).toBe(200);
      },
    });
  });

  it("a reaction is kept in the open conversation, unanswered; with none open it is set aside", async () => {
    const { owner, inbox, postUpdate } = await telegramInbox();
    const olivia = textUpdate("").message.from;
    const reaction = (emoji: string, old: string[] = []) => ({
      update_id: textUpdate("").update_id,
      message_reaction: {
        chat: { id: olivia.id, type: "private", first_name: olivia.first_name },
        message_id: 42,
        user: olivia,
        date: Math.floor(Date.now() / 1000),
        old_reaction: old.map((e) => ({ type: "emoji", emoji: e })),
        new_reaction: [...old, emoji].map((e) => ({ type: "emoji", emoji: e })),
      },
    });
    // Before any conversation: nothing to add it to, kept aside as ignored with the reason.
    expect((await postUpdate(reaction("👀"))).status).toBe(200);
    await reactionKept(owner, inbox, {
      say: (text) => postUpdate(textUpdate(text)),
      react: async () => expect((await postUpdate(reaction("👍"))).status).toBe(200),
      shown: "[reaction 👍]",
    });
    expect(await setAside(owner.organizationId, inbox.inboxId)).toEqual([
      { error: expect.stringMatching(/no open conversation/) },
    ]);
  });

  it("a photo album comes as one update per photo, each kept; a member joining a group is no message", async () => {
    const { owner, inbox, postUpdate } = await telegramInbox();
    const photo = (id: string, caption?: string) =>
      messageUpdate({
        media_group_id: "13579",
        photo: [{ file_id: id, file_unique_id: id, width: 800, height: 600 }],
        ...(caption ? { caption } : {}),
      });
    await postUpdate(photo("front", "Both sides of the box"));
    await postUpdate(photo("back"));
    await postUpdate(
      messageUpdate({
        chat: { id: -100777, type: "supergroup", title: "Buyers" },
        new_chat_members: [{ id: 8, is_bot: false, first_name: "Ken" }],
      }),
    );
    const conversation = await onlyConversation(owner, inbox.inboxId);
    const messages = await messagesWhen(owner, conversation.id, (m) => m.length >= 4);
    const incoming = messages.filter((m) => m.senderType === "contact");
    expect(incoming.map((m) => [m.content, m.attachments.length])).toEqual([
      ["Both sides of the box", 1],
      ["", 1],
    ]);
    expect(await storedEvents(owner.organizationId, inbox.inboxId)).toBe(2);
  });
});
