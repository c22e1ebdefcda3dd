// What Messenger's, Instagram's and WhatsApp's end-to-end tests share: the same webhook signature
// and handshake, the same Graph stand-in (test/support/platforms/graph.mjs), the same scenarios of
// the issue (text in and reply out, an image, a redelivery, a bad signature, a takeover, 429 then
// 200, a 400), each platform giving its payloads and what its Send API body looks like.
import { expect, it } from "vitest";
import { seedOwner, unique } from "../harness";
import {
  chatOrTokenRefused,
  nothingToShow,
  ratedFour,
  redeliveredAndForged,
  retriedThenFailed,
  type Say,
  type Scripting,
  shownChannel,
  takenOver,
  textInReplyOut,
} from "./scenes";
import { channelInbox, messagesWhen, onlyConversation, post, standIn, unsigned } from "./support";
import { bodyOf } from "../support/api";
import * as sample from "./meta-samples";

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
  /** A person's text message the way Meta posts it, `id` its mid or wamid. */
  text(text: string, id: string): object;
  /** A person's image the way Meta posts it (a file the stand-in serves). */
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

/** What metaInbox reads of a platform's case: its credentials, and how a person's text comes. */
export type MetaAccount = Pick<MetaCase, "platform" | "credentials" | "text">;

/** Each platform's account of the test app (meta-samples' ids), with the access token given. */
export const META_ACCOUNTS = {
  messenger: {
    platform: "messenger",
    credentials: (token) => ({ pageId: sample.PAGE_ID, pageAccessToken: token, appSecret: APP_SECRET }),
    text: (text, id) => sample.messengerText(text, id),
  },
  instagram: {
    platform: "instagram",
    credentials: (token) => ({ instagramAccountId: sample.IG_ID, pageAccessToken: token, appSecret: APP_SECRET }),
    text: (text, id) => sample.instagramText(text, id),
  },
  whatsapp: {
    platform: "whatsapp",
    credentials: (token) => ({
      phoneNumberId: sample.PHONE_NUMBER_ID,
      businessAccountId: sample.WABA_ID,
      accessToken: token,
      appSecret: APP_SECRET,
    }),
    text: (text, id) => sample.whatsappText(text, id),
  },
} satisfies Record<string, MetaAccount>;

export const sends = async (c: MetaCase, token: string) =>
  (await graph.requests(token)).filter((r) => r.path === c.sendPath && !r.body.sender_action);

/** An inbox connected to a Meta platform through the stand-in, with its access token. */
export async function metaInbox(c: MetaAccount) {
  const owner = await seedOwner();
  const token = newToken();
  const inbox = await channelInbox(owner, c.platform, c.credentials(token));
  /** Posts the person's text to the inbox's webhook, signed, as a new message. */
  const say = async (text: string) => post(inbox.path, await signed(c.text(text, newId("m_"))));
  return { owner, token, inbox, say };
}

/** The scenarios for one Meta platform. */
/**
 * A scene's scripted Graph answers for the account of `token`: the typing action Messenger and Instagram send ahead of
 * each reply is answered first.
 */
const scripted = (c: MetaCase, token: string, say: Say): Scripting => ({
  say,
  script: (responses) => graph.script(token, responses),
  before: c.typing ? [{ status: 200, body: { recipient_id: c.sender } }] : [],
});

export function metaScenarios(c: MetaCase) {
  it("connects, answers Meta's GET handshake, takes a text in and sends the reply out", async () => {
    const { owner, token, inbox } = await metaInbox(c);
    const webhookUrl = expect.stringMatching(new RegExp(`${inbox.path}$`));
    const record = await shownChannel(owner, inbox.inboxId, { status: "connected", webhookUrl }, [token]);
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
    const { conversation } = await textInReplyOut(owner, inbox, {
      platform: c.platform,
      signed: await signed(c.text("Where is my parcel?", mid)),
      text: "Where is my parcel?",
      eventId: mid,
      platformMessageId: expect.any(String),
      contact: { sourceId: c.sender },
    });
    expect(conversation).toMatchObject({ type: "individual", contact: { name: c.contactName } });
    const [reply] = await sends(c, token);
    expect(reply.method).toBe("POST");
    expect(reply.headers.authorization).toBe(`Bearer ${token}`);
    expect(reply.query.appsecret_proof).toMatch(/^[0-9a-f]{64}$/);
    expect(reply.body).toEqual(c.sendBody('You said: "Where is my parcel?".'));
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
    const forged = await graph.sign({ appSecret: "not-the-app-secret", body: c.text("forged", newId("m_")) });
    const { fromContact } = await redeliveredAndForged(owner, inbox, {
      delivered: [event, event],
      forged: [forged, unsigned(c.text("unsigned", newId("m_")))],
    });
    expect(fromContact).toHaveLength(1);
  });

  it("after a takeover the assistant is silent and the person's reply is delivered", async () => {
    const { owner, token, inbox, say } = await metaInbox(c);
    await takenOver(owner, inbox, say, "Hi, this is **Sam**, see [our FAQ](https://shop.example/faq).");
    const replies = (await sends(c, token)).map((r) => r.body);
    expect(replies).toHaveLength(2);
    expect(replies[1]).toEqual(c.sendBody("Hi, this is Sam, see our FAQ (https://shop.example/faq)."));
  });

  it('resolve sends the rating question; the answer "4" is kept as the rating, not as a message', async () => {
    const { owner, token, inbox, say } = await metaInbox(c);
    await ratedFour(owner, inbox, say, () => sends(c, token));
  });

  it(
    "a 429 is tried again after its Retry-After and delivered once; a 400 is failed with Meta's words and not " +
      "tried again",
    async () => {
      const { owner, token, inbox, say } = await metaInbox(c);
      // The first exchange makes the contact (a profile request for Messenger and Instagram): the scripted answers
      // then meet the same calls each time.
      await retriedThenFailed(owner, inbox, {
        ...scripted(c, token, say),
        rateLimited: {
          status: 429,
          headers: { "retry-after": "1" },
          body: {
            error: {
              message: "(#613) Calls to this api have exceeded the rate limit.",
              type: "OAuthException",
              code: 613,
            },
          },
        },
        refused: {
          status: 400,
          body: {
            error: {
              message: "(#100) No matching user found",
              type: "OAuthException",
              code: 100,
              error_subcode: 2018001,
            },
          },
        },
        error: `${c.name} answered 400: (#100) No matching user found`,
        replies: () => sends(c, token),
      });
    },
  );

  it("a reply outside the person's window fails alone; an expired token shows the channel failing", async () => {
    const { owner, token, inbox, say } = await metaInbox(c);
    const graphError = (message: string, code: number, subcode: number) => ({
      error: { message, type: "OAuthException", code, error_subcode: subcode },
    });
    await chatOrTokenRefused(owner, inbox, {
      ...scripted(c, token, say),
      chatRefused: {
        status: 400,
        body: graphError("(#10) This message is sent outside of allowed window.", 10, 2018278),
      },
      chatError: `${c.name} answered 400: (#10) This message is sent outside of allowed window.`,
      // Meta says an expired token with a 400: it read as one reply's refusal, the channel "connected".
      tokenRefused: { status: 400, body: graphError("Error validating access token: Session has expired", 190, 463) },
      tokenError: `${c.name} answered 400: Error validating access token: Session has expired`,
    });
  });

  it("a reply that renders to nothing fails saying so, where it read sent with nothing sent", async () => {
    const { owner, token, inbox, say } = await metaInbox(c);
    await nothingToShow(owner, inbox, say, () => sends(c, token));
  });
}
