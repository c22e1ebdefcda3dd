// What a Slack user sends, through the webhook and the channel queue: edits (message_changed), /me messages and
// files Slack gives no URL for in the event (Slack Connect's, asked of files.info) are kept; a file Slack will not
// give is said in the message; edits that change no text (a link unfurled) and other apps' messages are left out on
// purpose (docs/decisions.md, "Messaging channels", "What a visitor sends is kept").
import { describe, expect, it } from "vitest";
import { messagesWhen, onlyConversation, post, storedEvents } from "./support";
import { dm, envelope, nextTs, signed, slack, slackInbox } from "./slack-support";

const EGON = "U2147483697";

describe("Slack: what a visitor sends is kept", () => {
  it("an edit is kept as its new text; an unfurl and another app's edit are not edits of the visitor", async () => {
    const { owner, inbox } = await slackInbox();
    const first = dm("Do you ship to Osakka?");
    await post(inbox.path, await signed(first));
    const conversation = await onlyConversation(owner, inbox.inboxId);
    await messagesWhen(owner, conversation.id, (m) => m.length >= 2);
    const original = { type: "message", user: EGON, text: "Do you ship to Osakka?", ts: first.event.ts };
    const changed = (message: object, previous: object = original) => {
      const ts = nextTs();
      return envelope({
        type: "message",
        subtype: "message_changed",
        hidden: true,
        channel: "D024BE91L",
        channel_type: "im",
        ts,
        event_ts: ts,
        message,
        previous_message: previous,
      });
    };
    const edit = changed({ ...original, text: "Do you ship to Osaka?", edited: { user: EGON, ts: nextTs() } });
    await post(inbox.path, await signed(edit));
    // Slack tries again (the same event): one edit.
    await post(inbox.path, await signed(edit, { retryNum: 1, retryReason: "http_timeout" }));
    // A link unfurled: the same text, attachments added.
    await post(inbox.path, await signed(changed({ ...original, attachments: [{ from_url: "https://a.example" }] })));
    const bot = { type: "message", user: "U0BOTU5ER", bot_id: "B0BOT1D00", text: "Hi", ts: nextTs() };
    await post(
      inbox.path,
      await signed(changed({ ...bot, text: "Hi!", edited: { user: "U0BOTU5ER", ts: nextTs() } }, bot)),
    );
    const messages = await messagesWhen(owner, conversation.id, (m) => m.length >= 4);
    expect(messages.map((m) => [m.senderType, m.content])).toEqual([
      ["contact", "Do you ship to Osakka?"],
      ["chatbot", 'You said: "Do you ship to Osakka?".'],
      ["contact", "[edited] Do you ship to Osaka?"],
      ["chatbot", 'You said: "[edited] Do you ship to Osaka?".'],
    ]);
    expect(await storedEvents(owner.organizationId, inbox.inboxId)).toBe(2);
  });

  it("a /me message is kept; a Slack Connect file is asked of files.info; a withheld file is said", async () => {
    const { owner, token, inbox } = await slackInbox();
    await post(inbox.path, await signed(dm("waves hello", { subtype: "me_message" })));
    const connect = { id: "F0CONNECT1", mode: "file_access", file_access: "check_file_info", created: 0, user: "" };
    await post(inbox.path, await signed(dm("", { subtype: "file_share", files: [connect] })));
    const hidden = { id: "F0HIDDEN1", mode: "hidden_by_limit", name: "plan.pdf" };
    await post(inbox.path, await signed(dm("", { subtype: "file_share", files: [hidden] })));
    const conversation = await onlyConversation(owner, inbox.inboxId);
    const messages = await messagesWhen(owner, conversation.id, (m) => m.length >= 6);
    expect(
      messages.filter((m) => m.senderType === "contact").map((m) => [m.content, m.attachments.map((a) => a.filename)]),
    ).toEqual([
      ["waves hello", []],
      ["", ["f0connect1.png"]],
      ["[file not received: plan.pdf (hidden by the workspace's plan limit)]", []],
    ]);
    const info = (await slack.requests(token)).filter((r) => r.path === "/api/files.info");
    expect(info.map((r) => r.query.file)).toEqual(["F0CONNECT1"]);
  });
});
