// What Messenger's, Instagram's and WhatsApp's end-to-end tests share: the same webhook signature
// and handshake, the same Graph stand-in (test/support/platforms/graph.mjs), the same scenarios of
// the issue (text in and reply out, an image, a redelivery, a bad signature, a takeover, 429 then
// 200, a 400), each platform giving its payloads and what its Send API body looks like.
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { seedOwner, unique } from "../harness";
import {
  channelInbox,
  eventually,
  messagesOf,
  messagesWhen,
  onlyConversation,
  post,
  standIn,
  type RecordedRequest,
} from "./support";
import { bodyOf } from "../support/api";

export const graph = standIn("graph");
export const APP_SECRET = "5f2b3c1d9e8a7f6b4c3d2e1f0a9b8c7d";
export const newToken = () => `EAAG${unique("tok").replace(/[^A-Za-z0-9]/g, "")}`;
export const newId = (prefix: string) => `${prefix}${unique("").replace(/[^A-Za-z0-9]/g, "")}`;

/** Meta's POST to our webhook, signed by the stand-in with the app secret. */
export const signed = (body: object) => graph.sign({ appSecret: APP_SECRET, body });

export interface MetaCase {
  platform: "messenger" | "instagram" | "whatsapp";
  /** How errors name it: "Messenger answered 400: ...". */
  name: string;
  credentials(token: string): Record<string, string>;
  /** A person's text message as Meta posts it, `id` its mid or wamid. */
  text(text: string, id: string): object;
  /** A person's image as Meta posts it (a file the stand-in serves). */
  image(id: string): object;
  /** The person's id on the platform: the contact's sourceId, the chat replies go to. */
  sender: string;
  /** The contact's name from the platform (profile or contacts). */
  contactName: string;
  /** Where replies are posted, and what a reply's body is apart from its text. */
  sendPath: string;
  sendBody(text: string): object;
  /** Whether "typing" is shown before a reply (a request before the reply's). */
  typing: boolean;
}

export const sends = async (c: MetaCase, token: string) =>
  (await graph.requests(token)).filter((r) => r.path === c.sendPath && !r.body.sender_action);

/** An inbox connected to a Meta platform through the stand-in, with its access token. */
export async function metaInbox(c: MetaCase) {
  const owner = await seedOwner();
  const token = newToken();
  const inbox = await channelInbox(owner, c.platform, c.credentials(token));
  return { owner, token, inbox };
}

/** The scenarios for one Meta platform. */
export function metaScenarios(c: MetaCase) {
  it("connects, answers Meta's GET handshake, takes a text in and sends the reply out", async () => {
    const { owner, token, inbox } = await metaInbox(c);
    const record = await bodyOf<"GET /inboxes/{id}/channel/">(
      await owner.fetch("GET", `/inboxes/${inbox.inboxId}/channel/`),
    );
    expect(record).toMatchObject({
      status: "connected",
      webhookUrl: expect.stringMatching(new RegExp(`${inbox.path}$`)),
    });
    expect(JSON.stringify(record)).not.toContain(token);
    const handshake = (verifyToken: string) =>
      post(
        `${inbox.path}?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=${verifyToken}`,
        { headers: {}, body: "" },
        "GET",
      );
    const accepted = await handshake(record.verifyToken!);
    expect([accepted.status, await accepted.text()]).toEqual([200, "1158201444"]);
    expect((await handshake("not-the-token")).status).toBe(403);

    const mid = newId("m_");
    expect((await post(inbox.path, await signed(c.text("Where is my parcel?", mid)))).status).toBe(200);
    const conversation = await onlyConversation(owner, inbox.inboxId);
    expect(conversation).toMatchObject({ type: "individual", contact: { name: c.contactName } });
    const messages = await messagesWhen(owner, conversation.id, (m) =>
      m.some((x) => x.metadata?.channelDelivery?.status === "sent"),
    );
    expect(messages.map((m) => [m.senderType, m.content])).toEqual([
      ["contact", "Where is my parcel?"],
      ["chatbot", 'You said: "Where is my parcel?".'],
    ]);
    expect(messages[0].metadata?.channel).toMatchObject({ type: c.platform, eventId: mid });
    const [reply] = await sends(c, token);
    expect(reply.method).toBe("POST");
    expect(reply.headers.authorization).toBe(`Bearer ${token}`);
    expect(reply.query.appsecret_proof).toMatch(/^[0-9a-f]{64}$/);
    expect(reply.body).toEqual(c.sendBody('You said: "Where is my parcel?".'));
    expect(messages[1].metadata?.channelDelivery).toMatchObject({
      status: "sent",
      attempts: 1,
      error: null,
      platformMessageIds: [expect.any(String)],
    });
    const contact = await bodyOf<"GET /contacts/{id}/">(
      await owner.fetch("GET", `/contacts/${conversation.contact!.id}/`),
    );
    expect(contact.sourceId).toBe(c.sender);
  });

  it("an image is downloaded into an attachment in R2", async () => {
    const { owner, inbox } = await metaInbox(c);
    await post(inbox.path, await signed(c.image(newId("m_"))));
    const conversation = await onlyConversation(owner, inbox.inboxId);
    const [incoming] = await messagesWhen(owner, conversation.id, (m) => m.length >= 1);
    expect(incoming.attachments).toMatchObject([{ type: "image", contentType: "image/png" }]);
    const attachment = await bodyOf<"GET /attachments/{id}/">(
      await owner.fetch("GET", `/attachments/${incoming.attachments![0].id}/`),
    );
    expect(attachment.size).toBe(70); // the stand-in's PNG
  });

  it("a redelivered event makes no second message; a bad or missing signature is 401 and stores nothing", async () => {
    const { owner, inbox } = await metaInbox(c);
    const event = await signed(c.text("Hello", newId("m_")));
    expect((await post(inbox.path, event)).status).toBe(200);
    expect((await post(inbox.path, event)).status).toBe(200);
    const conversation = await onlyConversation(owner, inbox.inboxId);
    await messagesWhen(owner, conversation.id, (m) => m.length === 2);
    await new Promise((r) => setTimeout(r, 500));
    expect((await messagesOf(owner, conversation.id)).filter((m) => m.senderType === "contact")).toHaveLength(1);

    const forged = await graph.sign({ appSecret: "not-the-app-secret", body: c.text("forged", newId("m_")) });
    expect((await post(inbox.path, forged)).status).toBe(401);
    const unsigned = await post(inbox.path, {
      headers: { "content-type": "application/json" },
      body: JSON.stringify(c.text("unsigned", newId("m_"))),
    });
    expect(unsigned.status).toBe(401);
    const rows = await env.DB.prepare("select count(*) as n from channel_events where inbox_id = ?")
      .bind(inbox.inboxId)
      .first<{ n: number }>();
    expect(rows?.n).toBe(1);
  });

  it("after a takeover the assistant is silent and the person's reply is delivered", async () => {
    const { owner, token, inbox } = await metaInbox(c);
    await post(inbox.path, await signed(c.text("Hello", newId("m_"))));
    const conversation = await onlyConversation(owner, inbox.inboxId);
    await messagesWhen(owner, conversation.id, (m) => m.length === 2);
    expect((await owner.fetch("POST", `/conversations/${conversation.id}/take-over/`)).status).toBe(200);
    await post(inbox.path, await signed(c.text("Are you a bot?", newId("m_"))));
    await messagesWhen(owner, conversation.id, (m) => m.length === 3);
    const content = "Hi, this is **Sam**, see [our FAQ](https://shop.example/faq).";
    const agent = await owner.fetch("POST", "/messages/outgoing/", { conversation: conversation.id, content });
    expect(agent.status, await agent.clone().text()).toBe(201);
    const messages = await messagesWhen(
      owner,
      conversation.id,
      (m) => m.at(-1)?.metadata?.channelDelivery?.status === "sent",
    );
    expect(messages.map((m) => m.senderType)).toEqual(["contact", "chatbot", "contact", "user"]);
    const replies = (await sends(c, token)).map((r: RecordedRequest) => r.body);
    expect(replies).toHaveLength(2);
    expect(replies[1]).toEqual(c.sendBody("Hi, this is Sam, see our FAQ (https://shop.example/faq)."));
  });

  it('resolve sends the rating question; the answer "4" is kept as the rating, not as a message', async () => {
    const { owner, token, inbox } = await metaInbox(c);
    await post(inbox.path, await signed(c.text("Hello", newId("m_"))));
    const conversation = await onlyConversation(owner, inbox.inboxId);
    await messagesWhen(owner, conversation.id, (m) => m.at(-1)?.metadata?.channelDelivery?.status === "sent");
    expect((await owner.fetch("POST", `/conversations/${conversation.id}/resolve/`)).status).toBe(200);
    const question = /How would you rate this conversation\?/;
    await eventually(async () =>
      (await sends(c, token)).find((r: RecordedRequest) => question.test(JSON.stringify(r.body))),
    );
    const asked = await messagesOf(owner, conversation.id);
    expect(asked.at(-1)).toMatchObject({ senderType: "chatbot", content: expect.stringMatching(question) });

    await post(inbox.path, await signed(c.text("4", newId("m_"))));
    const rated = await eventually(async () => {
      const record = await (await owner.fetch("GET", `/conversations/${conversation.id}/`)).json();
      return (record as { csat: { rating: number } | null }).csat;
    });
    expect(rated).toMatchObject({ rating: 4 });
    expect(await messagesOf(owner, conversation.id)).toHaveLength(asked.length);
  });

  it(
    "a 429 is tried again after its Retry-After and delivered once; a 400 is failed with Meta's words and not " +
      "tried again",
    async () => {
      const { owner, token, inbox } = await metaInbox(c);
      // A first message makes the contact (a profile request for Messenger and Instagram): the
      // scripted answers below then meet the same calls each time.
      await post(inbox.path, await signed(c.text("Hello", newId("m_"))));
      const conversation = await onlyConversation(owner, inbox.inboxId);
      await messagesWhen(owner, conversation.id, (m) => m[1]?.metadata?.channelDelivery?.status === "sent");
      const typing = c.typing ? [{ status: 200, body: { recipient_id: c.sender } }] : [];
      const limit = {
        error: { message: "(#613) Calls to this api have exceeded the rate limit.", type: "OAuthException", code: 613 },
      };
      await graph.script(token, [...typing, { status: 429, headers: { "retry-after": "1" }, body: limit }]);
      await post(inbox.path, await signed(c.text("Once more", newId("m_"))));
      const messages = await messagesWhen(
        owner,
        conversation.id,
        (m) => m[3]?.metadata?.channelDelivery?.status === "sent",
      );
      expect(messages[3].metadata!.channelDelivery).toMatchObject({ status: "sent", attempts: 2 });
      const attempts = (await sends(c, token)).slice(1);
      expect(attempts).toHaveLength(2);
      expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(1000);

      const refusal = {
        error: { message: "(#100) No matching user found", type: "OAuthException", code: 100, error_subcode: 2018001 },
      };
      await graph.script(token, [...typing, { status: 400, body: refusal }]);
      await post(inbox.path, await signed(c.text("Again", newId("m_"))));
      const failed = await messagesWhen(
        owner,
        conversation.id,
        (m) => m[5]?.metadata?.channelDelivery?.status === "failed",
      );
      const error = `${c.name} answered 400: (#100) No matching user found`;
      expect(failed[5].metadata!.channelDelivery).toMatchObject({ status: "failed", attempts: 1, error });
      await new Promise((r) => setTimeout(r, 1500));
      expect(await sends(c, token)).toHaveLength(4);
    },
  );
}
