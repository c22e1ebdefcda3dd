// What a Slack user sends, through the webhook and the channel queue: edits (message_changed), /me messages,
// reactions (reaction_added, in the conversation of the message's DM or thread, unanswered) and files Slack gives no
// URL for in the event (Slack Connect's, asked of files.info) are kept; a file Slack will not give is said in the
// message; edits that change no text (a link unfurled), other apps' messages, reactions taken back and the bot's own
// are left out on purpose (docs/decisions.md, "Messaging channels", "What a visitor sends is kept").
import { describe, expect, it } from "vitest";
import { CORRECTED, editedOnce, reactionKept, TYPO } from "./scenes";
import {
  contactLinesWithFiles,
  eventually,
  messagesOf,
  messagesWhen,
  onlyConversation,
  post,
  setAside,
  settledLines,
  someSent,
  storedEvents,
} from "./support";
import { dm, envelope, nextTs, posted, signed, slack, slackInbox } from "./slack-support";

const EGON = "U2147483697";
const BOT_USER = "U0BOTU5ER";

/** `user`'s reaction `name` added to (or, `removed`, taken back from) the message `ts` of `channel`, by
 * `itemUser`. */
const reaction = (
  channel: string,
  ts: string,
  { name = "thumbsup", user = EGON, itemUser = BOT_USER, removed = false } = {},
) =>
  envelope({
    type: removed ? "reaction_removed" : "reaction_added",
    user,
    reaction: name,
    item: { type: "message", channel, ts },
    item_user: itemUser,
    event_ts: nextTs(),
  });

/**
 * A file as a Slack Connect message event carries it: its id alone, the rest asked of files.info. Without `id`, one
 * no other test has shared (the stand-in remembers where each file was shared).
 */
const connectFile = (id = `F${crypto.randomUUID().replace(/-/g, "").slice(0, 10).toUpperCase()}`) => ({
  id,
  mode: "file_access",
  file_access: "check_file_info",
  created: 0,
  user: "",
});

/** Egon's reaction `name` to the file `file` itself (from the file's viewer): the event names the file alone. */
const fileReaction = (file: string, name = "thumbsup") =>
  envelope({
    type: "reaction_added",
    user: EGON,
    reaction: name,
    item: { type: "file", file },
    item_user: EGON,
    event_ts: nextTs(),
  });

describe("Slack: what a visitor sends is kept", () => {
  it("an edit is kept as its new text; an unfurl and another app's edit are not edits of the visitor", async () => {
    const { owner, inbox } = await slackInbox();
    const first = dm(TYPO);
    const original = { type: "message", user: EGON, text: TYPO, ts: first.event.ts };
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
    await editedOnce(owner, inbox, {
      say: async () => post(inbox.path, await signed(first)),
      edit: async () => {
        const edit = changed({ ...original, text: CORRECTED, edited: { user: EGON, ts: nextTs() } });
        await post(inbox.path, await signed(edit));
        // Slack tries again (the same event): one edit.
        await post(inbox.path, await signed(edit, { retryNum: 1, retryReason: "http_timeout" }));
        // A link unfurled: the same text, attachments added.
        const unfurled = changed({ ...original, attachments: [{ from_url: "https://a.example" }] });
        await post(inbox.path, await signed(unfurled));
        const bot = { type: "message", user: "U0BOTU5ER", bot_id: "B0BOT1D00", text: "Hi", ts: nextTs() };
        await post(
          inbox.path,
          await signed(changed({ ...bot, text: "Hi!", edited: { user: "U0BOTU5ER", ts: nextTs() } }, bot)),
        );
      },
    });
  });

  it("a /me message is kept; a Slack Connect file is asked of files.info; a withheld file is said", async () => {
    const { owner, token, inbox } = await slackInbox();
    await post(inbox.path, await signed(dm("waves hello", { subtype: "me_message" })));
    const connect = connectFile("F0CONNECT1");
    await post(inbox.path, await signed(dm("", { subtype: "file_share", files: [connect] })));
    const hidden = { id: "F0HIDDEN1", mode: "hidden_by_limit", name: "plan.pdf" };
    await post(inbox.path, await signed(dm("", { subtype: "file_share", files: [hidden] })));
    const conversation = await onlyConversation(owner, inbox.inboxId);
    const messages = await messagesWhen(owner, conversation.id, (m) => m.length >= 6);
    expect(contactLinesWithFiles(messages)).toEqual([
      ["waves hello", []],
      ["", ["f0connect1.png"]],
      ["[file not received: plan.pdf (hidden by the workspace's plan limit)]", []],
    ]);
    const info = (await slack.requests(token)).filter((r) => r.path === "/api/files.info");
    expect(info.map((r) => r.query.file)).toEqual(["F0CONNECT1"]);
  });

  it(
    "a reaction to the reply in a DM is kept unanswered, once however often Slack sends it; with no open " +
      "conversation it is set aside; one taken back and the bot's own add nothing",
    async () => {
      const { owner, token, inbox, sayDm } = await slackInbox();
      // Before any conversation: nothing to add it to.
      await post(inbox.path, await signed(reaction("D024BE91L", nextTs(), { itemUser: EGON })));
      await reactionKept(owner, inbox, {
        say: sayDm,
        react: async (reply) => {
          const replyTs = reply.metadata.channelDelivery!.platformMessageIds[0];
          const thumbsUp = reaction("D024BE91L", replyTs);
          await post(inbox.path, await signed(thumbsUp));
          await post(inbox.path, await signed(thumbsUp, { retryNum: 1, retryReason: "http_timeout" }));
          await post(inbox.path, await signed(reaction("D024BE91L", replyTs, { removed: true })));
          await post(inbox.path, await signed(reaction("D024BE91L", replyTs, { user: BOT_USER, name: "eyes" })));
        },
        shown: "[reaction :thumbsup:]",
      });
      expect(await posted(token)).toHaveLength(1);
      // The reaction before the conversation, the message and the reaction: nothing kept of the others.
      expect(await storedEvents(owner.organizationId, inbox.inboxId)).toBe(3);
      expect(await setAside(owner.organizationId, inbox.inboxId)).toEqual([
        { error: expect.stringMatching(/no open conversation/) },
      ]);
    },
  );

  it("a reaction in a channel lands in the conversation of the thread its message is in, unanswered", async () => {
    const { owner, token, inbox } = await slackInbox();
    const ts = nextTs();
    const opening = { channel: "C024BE91L", user: EGON, text: "<@U0BOTU5ER> is the shop open?", ts, event_ts: ts };
    await post(inbox.path, await signed(envelope({ type: "message", ...opening, channel_type: "channel" })));
    const conversation = await onlyConversation(owner, inbox.inboxId);
    const [, reply] = await messagesWhen(owner, conversation.id, someSent);
    const replyTs = reply.metadata.channelDelivery!.platformMessageIds[0];
    // The event names the reply alone (no thread_ts): Slack's conversations.replies says which thread it is in.
    await post(inbox.path, await signed(reaction("C024BE91L", replyTs)));
    await messagesWhen(owner, conversation.id, (m) => m.length >= 3);
    // A reaction to the thread's first message, the visitor's own, with a skin tone.
    const wave = { name: "wave::skin-tone-3", itemUser: EGON };
    await post(inbox.path, await signed(reaction("C024BE91L", ts, wave)));
    expect(await settledLines(owner, conversation.id, 4)).toEqual([
      ["contact", "is the shop open?"],
      ["chatbot", 'You said: "is the shop open?".'],
      ["contact", "[reaction :thumbsup:]"],
      ["contact", "[reaction :wave::skin-tone-3:]"],
    ]);
    const requests = await slack.requests(token);
    expect(requests.filter((r) => r.path === "/api/conversations.replies").map((r) => r.query)).toEqual([
      { channel: "C024BE91L", ts: replyTs, limit: "1" },
      { channel: "C024BE91L", ts, limit: "1" },
    ]);
    expect(await posted(token)).toHaveLength(1);

    // A message Slack no longer has (deleted since): no thread to add the reaction to, set aside saying so.
    await slack.script(token, [{ status: 200, body: { ok: false, error: "thread_not_found" } }]);
    await post(inbox.path, await signed(reaction("C024BE91L", nextTs(), { itemUser: EGON })));
    const reasons = await eventually(async () => {
      const found = await setAside(owner.organizationId, inbox.inboxId);
      return found.length > 0 && found;
    });
    expect(reasons).toEqual([{ error: "Its chat is unknown: Slack answered thread_not_found" }]);
    expect(await messagesOf(owner, conversation.id)).toHaveLength(4);
  });

  it(
    "a reaction to a file lands where Slack says the file is shared (its DM) or, in a channel, in its thread; a file " +
      "shared nowhere the app sees is set aside saying so",
    async () => {
      const { owner, token, inbox } = await slackInbox();
      // A file Slack knows was shared in the DM (it sent the event): the reaction to the file itself names the file.
      const receipt = connectFile();
      const fileId = receipt.id;
      await post(inbox.path, await signed(dm("the receipt", { subtype: "file_share", files: [receipt] })));
      const conversation = await onlyConversation(owner, inbox.inboxId);
      await messagesWhen(owner, conversation.id, someSent);
      await post(inbox.path, await signed(fileReaction(fileId)));
      const lines = await settledLines(owner, conversation.id, 3);
      expect(lines.map(([by]) => by)).toEqual(["contact", "chatbot", "contact"]);
      expect(lines.at(-1)).toEqual(["contact", "[reaction :thumbsup:]"]);
      expect(await posted(token)).toHaveLength(1);

      // A file Slack shows shared nowhere the app is: no chat to add the reaction to.
      await post(inbox.path, await signed(fileReaction("F0NOWHERE1")));
      const reasons = await eventually(async () => {
        const found = await setAside(owner.organizationId, inbox.inboxId);
        return found.length > 0 && found;
      });
      expect(reasons).toEqual([
        { error: "Its chat is unknown: Slack shows the file F0NOWHERE1 shared in no conversation of the app" },
      ]);
      const asked = (await slack.requests(token)).filter((r) => r.path === "/api/files.info").map((r) => r.query.file);
      expect(asked).toEqual([fileId, fileId, "F0NOWHERE1"]);
      expect(await messagesOf(owner, conversation.id)).toHaveLength(3);
    },
  );

  it("a reaction to a file shared in a channel's thread lands in that thread's conversation", async () => {
    const { owner, inbox } = await slackInbox();
    const ts = nextTs();
    const opening = { channel: "C024BE91L", user: EGON, text: "<@U0BOTU5ER> is the shop open?", ts, event_ts: ts };
    await post(inbox.path, await signed(envelope({ type: "message", ...opening, channel_type: "channel" })));
    const conversation = await onlyConversation(owner, inbox.inboxId);
    await messagesWhen(owner, conversation.id, someSent);
    const photo = connectFile();
    const fileId = photo.id;
    const inThread = nextTs();
    const shared = { channel: "C024BE91L", user: EGON, text: "a photo", ts: inThread, event_ts: inThread };
    const share = { type: "message", subtype: "file_share", ...shared, thread_ts: ts, files: [photo] };
    await post(inbox.path, await signed(envelope({ ...share, channel_type: "channel" })));
    await messagesWhen(owner, conversation.id, (m) => m.length >= 4);
    await post(inbox.path, await signed(fileReaction(fileId, "heart")));
    const lines = await settledLines(owner, conversation.id, 5);
    expect(lines.at(-1)).toEqual(["contact", "[reaction :heart:]"]);
    expect(lines.filter(([by]) => by === "contact").map(([, text]) => text)).toEqual([
      "is the shop open?",
      "a photo",
      "[reaction :heart:]",
    ]);
  });
});
