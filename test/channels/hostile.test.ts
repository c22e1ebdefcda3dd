// The platforms' webhook (`/channels/{platform}/{inboxId}`) against what anyone on the internet may
// send it: forged, oversized, malformed and replayed requests are 401, 413 or 400, never a 5xx, and
// store nothing (CONTRACT section 17).
import { describe, expect, it } from "vitest";
import { type Actor, NO_SUCH_ID, seedOwner, unique } from "../harness";
import { CHANNEL_FIELDS } from "../../src/services/channels/fields";
import { CHANNEL_PLATFORMS } from "../../src/services/channels/types";
import { messagesWhen, onlyConversation, post, standIn, storedEvents } from "./support";
import { newLineInbox, newUser, signed, textEvent } from "./line-support";
import { bodyOf } from "../support/api";

const send = (path: string, body: BodyInit, headers: Record<string, string> = { "content-type": "application/json" }) =>
  post(path, { headers, body });

/** A new inbox of `platform`, its channel not saved yet: its id. */
const newInbox = async (owner: Actor, platform: string) =>
  (
    await bodyOf<"POST /inboxes/">(
      await owner.fetch("POST", "/inboxes/", { name: unique(platform), channelType: platform }),
    )
  ).id;

const WEBHOOK_PLATFORMS = CHANNEL_PLATFORMS.filter((p) => p !== "email");

describe("the platforms' webhook refuses what the platform did not send", () => {
  it.each(WEBHOOK_PLATFORMS)(
    "%s: forged, unsigned, oversized and wrongly addressed requests are 401, 413 or 404 and store nothing",
    async (platform) => {
      const owner = await seedOwner();
      const inbox = await newInbox(owner, platform);
      const credentials = Object.fromEntries(CHANNEL_FIELDS[platform].map((f) => [f.name, `${f.name}-${unique("v")}`]));
      expect((await owner.fetch("PUT", `/inboxes/${inbox}/channel/`, credentials)).status).toBe(200);
      const path = `/channels/${platform}/${inbox}`;
      const forged = {
        "x-line-signature": "bm90IGEgc2lnbmF0dXJl",
        "x-telegram-bot-api-secret-token": "guessed",
        "x-hub-signature-256": `sha256=${"0".repeat(64)}`,
        "x-slack-signature": `v0=${"0".repeat(64)}`,
        "x-slack-request-timestamp": String(Math.floor(Date.now() / 1000)),
      };
      const body = JSON.stringify({
        events: [],
        update_id: 1,
        object: "page",
        entry: [],
        type: "event_callback",
        event_id: "Ev1",
        event: { type: "message", text: "hi" },
      });
      for (const headers of [
        { "content-type": "application/json" },
        { "content-type": "application/json", ...forged },
      ]) {
        const res = await send(path, body, headers);
        expect(res.status, `${platform} ${JSON.stringify(headers)}`).toBe(401);
        expect(await res.json()).toMatchObject({ code: "not_authenticated" });
      }
      expect((await send(path, "x".repeat(1_048_577))).status).toBe(413);
      expect((await send(path, "{not json", forged)).status).toBe(401);
      expect((await send(path, new Uint8Array([0xff, 0xfe, 0x00]), forged)).status).toBeLessThan(500);
      expect((await send(`/channels/${platform}/${NO_SUCH_ID}`, body, forged)).status).toBe(404);
      expect((await send(`/channels/${platform}/not-an-id`, body, forged)).status).toBe(404);
      const other = WEBHOOK_PLATFORMS.find((p) => p !== platform)!;
      expect((await send(`/channels/${other}/${inbox}`, body, forged)).status).toBe(404);
      expect(
        (
          await post(
            `${path}?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=42`,
            { headers: {}, body: "" },
            "GET",
          )
        ).status,
      ).toBeGreaterThanOrEqual(400);
      expect(await storedEvents(owner.organizationId, inbox)).toBe(0);
    },
  );

  it(
    "an unknown platform, e-mail (which comes by the e-mail handler) and an inbox without a channel " + "are 404",
    async () => {
      const owner = await seedOwner();
      const inbox = await newInbox(owner, "telegram");
      for (const path of [`/channels/teams/${inbox}`, `/channels/email/${inbox}`, `/channels/telegram/${inbox}`]) {
        expect((await send(path, "{}")).status, path).toBe(404);
      }
    },
  );

  it("signed but malformed bodies are 400; a replayed event is one event", async () => {
    const owner = await seedOwner();
    const token = `9:${unique("t").replace(/[^A-Za-z0-9]/g, "")}`;
    const inbox = await newInbox(owner, "telegram");
    await owner.fetch("PUT", `/inboxes/${inbox}/channel/`, { botToken: token });
    expect((await owner.fetch("POST", `/inboxes/${inbox}/channel/connect/`)).status).toBe(200);
    const { headers } = await standIn("telegram").sign({ token, update: {} });
    const path = `/channels/telegram/${inbox}`;
    for (const body of [
      "{not json",
      "[]",
      "null",
      '"text"',
      '{"update_id":"1"}',
      `${"[".repeat(200)}${"]".repeat(200)}`,
    ]) {
      const res = await send(path, body, headers);
      expect(res.status, body.slice(0, 20)).toBe(400);
    }
    expect((await send(path, new Uint8Array([0x7b, 0xff, 0x7d]), headers)).status).toBe(400);
    // Shaped otherwise than the Bot API writes an update: refused, the field named.
    const from = { id: 3, is_bot: false, first_name: "R" };
    for (const [update, field] of [
      [{ update_id: 2, message: { message_id: 1, date: 1, chat: null, from, text: "x" } }, "message.chat"],
      [{ update_id: 3, message: { message_id: 1, chat: { id: 3, type: "private" }, from, text: "x" } }, "message.date"],
      [{ update_id: 4, callback_query: { id: "q", data: "csat:5", message: { chat: { id: 3 } } } }, "callback_query"],
      [
        { update_id: 4, message_reaction: { chat: { id: 3, type: "private" }, date: 1, new_reaction: "👍" } },
        "message_reaction",
      ],
    ] as const) {
      const res = await send(path, JSON.stringify(update), headers);
      expect(res.status, field).toBe(400);
      expect((await res.json<{ detail: string }>()).detail).toContain(`(${field}`);
    }
    // Not a visitor's message (an update with no sender): 200 and nothing kept.
    expect(
      (
        await send(
          path,
          JSON.stringify({
            update_id: 5,
            edited_message: { message_id: 1, date: 1, chat: { id: 1, type: "private" }, text: "x" },
          }),
          headers,
        )
      ).status,
    ).toBe(200);
    expect(await storedEvents(owner.organizationId, inbox)).toBe(0);
    const update = JSON.stringify({
      update_id: 6,
      message: {
        message_id: 1,
        date: 1,
        chat: { id: 3, type: "private" },
        from: { id: 3, is_bot: false, first_name: "R" },
        text: "once",
      },
    });
    const answers = await Promise.all([1, 2, 3].map(() => send(path, update, headers)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await storedEvents(owner.organizationId, inbox)).toBe(1);
  });

  it("LINE: a signed event shaped otherwise is left out alone; the events beside it are kept", async () => {
    const { owner, creds, inbox } = await newLineInbox();
    const user = newUser();
    const { message: _, ...withoutMessage } = textEvent(user, "lost");
    const delivery = await signed(
      creds.channelSecret,
      withoutMessage,
      { ...textEvent(user, "no time"), timestamp: "yesterday" },
      { ...textEvent(user, "x"), type: "postback" },
      textEvent(user, "kept"),
    );
    expect((await post(inbox.path, delivery)).status).toBe(200);
    const conversation = await onlyConversation(owner, inbox.inboxId);
    const messages = await messagesWhen(owner, conversation.id, (m) => m.some((x) => x.content === "kept"));
    expect(messages.filter((m) => m.senderType === "contact").map((m) => m.content)).toEqual(["kept"]);
    expect(await storedEvents(owner.organizationId, inbox.inboxId)).toBe(1);
  });
});
