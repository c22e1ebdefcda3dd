// An e-mail inbox end to end: a raw message handed to the Worker's email handler (src/index.ts) as
// Email Routing hands it, the channel queue making it a message, the assistant's reply sent through
// the EMAIL binding. What the binding received is read from test/support/email-outbox.mjs (the
// binding in vitest.config.ts), and parsed with postal-mime as a mail client would.
import { SELF } from "cloudflare:test";
import PostalMime from "postal-mime";
import { describe, expect, it } from "vitest";
import { conversationData, data, seedOwner, unique } from "../harness";
import { client } from "../../src/db/prepared";
import { queryPlan } from "../support/query-plan";
import { PNG_BASE64, gmailReply, type GmailReply } from "../support/email-samples";
import {
  channelInbox,
  conversationsOf,
  eventually,
  messagesOf,
  messagesWhen,
  onlyConversation,
  setAside,
  storedEvents,
} from "./support";
import { bodyOf } from "../support/api";
import { EMAIL_DELIVERY_KEEP_MS, pruneChannelRows } from "../../src/services/channels/retention";
import { sentReply } from "../../src/services/channels/email-handler";
import { deliver, emailInbox, mailId, replies, sentTo, visitorAddress, type Sent } from "./email-support";

const first = (o: Omit<GmailReply, "messageId"> & { messageId?: string }) =>
  gmailReply({
    subject: "Opening hours",
    noAttachment: true,
    messageId: mailId(),
    ...o,
  });
/** The visitor's answer to our reply `ours`, the way Gmail writes it (References as given: none, or the thread). */
const answerTo = (ours: Sent, o: { from: string; to: string; messageId: string; references: string[]; text: string }) =>
  gmailReply({ ...o, inReplyTo: ours.messageId, noAttachment: true });

/** A mail a website's contact form sends: From the form's address (the shop's own, or a no-reply one), the customer
 * in Reply-To (RFC 5322 3.6.2). */
const formMail = (o: { from: string; replyTo: string; to: string; messageId?: string; text: string }) =>
  [
    "MIME-Version: 1.0",
    "Date: Mon, 2 Dec 2024 10:00:00 +0900",
    `Message-ID: ${o.messageId ?? mailId()}`,
    "Subject: Contact form: delivery question",
    `From: Website <${o.from}>`,
    `Reply-To: Jane Customer <${o.replyTo}>`,
    `To: ${o.to}`,
    'Content-Type: text/plain; charset="UTF-8"',
    "",
    o.text,
    "",
  ].join("\r\n");

/** A new e-mail inbox, a visitor's first mail to it (Message-ID `root`) and our reply to that (`ours`). */
async function threadBegun(text: string) {
  const owner = await seedOwner();
  const { inboxId, address } = await emailInbox(owner);
  const visitor = visitorAddress();
  const root = mailId();
  await deliver(first({ from: visitor, to: address, messageId: root, text }), visitor, address);
  const [ours] = await replies(visitor, 1);
  return { owner, inboxId, address, visitor, root, ours };
}

describe("e-mail inbox", () => {
  it("a message in: the contact by address, the message stored, the reply sent with the thread's headers", async () => {
    const owner = await seedOwner();
    const { inboxId, address } = await emailInbox(owner);
    const visitor = visitorAddress();
    const messageId = mailId();
    // The envelope recipient that Email Routing gives may differ in case from the inbox's address.
    const raw = first({ from: visitor, to: address, messageId, text: "Are you open on Sundays?" });
    expect(await deliver(raw, visitor, address.toUpperCase())).toEqual({ rejected: null });

    const [sent] = await replies(visitor, 1);
    expect(sent).toMatchObject({ from: address, to: visitor });
    const mail = await PostalMime.parse(sent.raw);
    expect(mail.from).toEqual({ address, name: "Shop Support" });
    expect(mail.to).toEqual([{ address: visitor, name: "Jane Visitor" }]);
    expect(mail.subject).toBe("Re: Opening hours");
    expect(mail.inReplyTo).toBe(messageId);
    expect(mail.references).toBe(messageId);
    expect(mail.text).toBe('You said: "Are you open on Sundays?".');
    expect(mail.html).toContain('<p>You said: "Are you open on Sundays?".</p>');

    const conversation = await onlyConversation(owner, inboxId);
    expect(conversation.contact).toMatchObject({ name: "Jane Visitor" });
    const contact = await bodyOf<"GET /contacts/{id}/">(
      await owner.fetch("GET", `/contacts/${conversation.contact!.id}/`),
    );
    expect(contact).toMatchObject({ sourceId: visitor, email: visitor });
    const messages = await messagesWhen(
      owner,
      conversation.id,
      (m) => m.at(-1)?.metadata?.channelDelivery?.status === "sent",
    );
    expect(messages.map((m) => [m.senderType, m.content])).toEqual([
      ["contact", "Are you open on Sundays?"],
      ["chatbot", 'You said: "Are you open on Sundays?".'],
    ]);
    expect(messages[0].metadata?.channel).toMatchObject({ type: "email", eventId: messageId });
    expect(messages[1].metadata?.channelDelivery).toMatchObject({
      status: "sent",
      attempts: 1,
      error: null,
      platformMessageIds: [sent.messageId],
    });
  });

  it(
    "a reply to the reply comes back into the same conversation, and its answer carries the whole " + "thread",
    async () => {
      const { owner, inboxId, address, visitor, root, ours } = await threadBegun("Do you ship to Japan?");

      const second = mailId();
      const references = [root, ours.messageId];
      const answer = answerTo(ours, {
        from: visitor,
        to: address,
        messageId: second,
        references,
        text: "And to Korea?",
      });
      expect(await deliver(answer, visitor, address)).toEqual({ rejected: null });
      const [, again] = await replies(visitor, 2);
      const mail = await PostalMime.parse(again.raw);
      expect(mail.subject).toBe("Re: Opening hours");
      expect(mail.inReplyTo).toBe(second);
      expect(mail.references).toBe(`${root} ${ours.messageId} ${second}`);
      expect(mail.text).toBe('You said: "And to Korea?".');

      const conversations = await conversationsOf(owner, inboxId);
      expect(conversations).toHaveLength(1);
      const contents = (await messagesOf(owner, conversations[0].id)).map((m) => m.content);
      // Only the new text: the history Gmail quotes under "On ... wrote:" is not the visitor's message.
      expect(contents).toEqual([
        "Do you ship to Japan?",
        'You said: "Do you ship to Japan?".',
        "And to Korea?",
        'You said: "And to Korea?".',
      ]);
    },
  );

  it("with no sender name it connects, and the reply is sent in the name of its sender, the assistant", async () => {
    const owner = await seedOwner();
    const address = `${unique("desk")}@shop.example`.toLowerCase();
    // channelInbox connects it: the sender name is optional (empty: the reply's sender's).
    const { chatbotId } = await channelInbox(owner, "email", { address });
    const assistant = await bodyOf<"GET /chatbots/{id}/">(await owner.fetch("GET", `/chatbots/${chatbotId}/`));
    const visitor = visitorAddress();
    await deliver(first({ from: visitor, to: address, text: "Do you ship abroad?" }), visitor, address);
    const [sent] = await replies(visitor, 1);
    expect((await PostalMime.parse(sent.raw)).from).toEqual({ address, name: assistant.name });
  });

  it("a reply to a mail with a long subject keeps every line within RFC 5322's 998 characters", async () => {
    const owner = await seedOwner();
    const { inboxId, address } = await emailInbox(owner);
    const visitor = visitorAddress();
    // 1,200 characters of plain ASCII: a ticket system's or a forwarded chain's subject.
    const subject = "Order 4417 damaged on arrival, ".repeat(40).trim();
    const raw = [
      "MIME-Version: 1.0",
      "Date: Mon, 2 Dec 2024 10:00:00 +0900",
      `Message-ID: ${mailId()}`,
      // Folded as RFC 5322 2.2.3 lets a sender write a long header.
      `Subject: ${subject.replace(/(.{1,900})( |$)/g, "$1\r\n ").trimEnd()}`,
      `From: Jane <${visitor}>`,
      `To: ${address}`,
      'Content-Type: text/plain; charset="UTF-8"',
      "",
      "Where is my parcel?",
      "",
    ].join("\r\n");
    expect((await deliver(raw, visitor, address)).rejected).toBeNull();
    const conversation = await onlyConversation(owner, inboxId);
    await messagesWhen(owner, conversation.id, (m) => m[1]?.metadata.channelDelivery?.status === "sent");
    const [reply] = await replies(visitor, 1);
    const longest = Math.max(...reply.raw.split("\r\n").map((line) => line.length));
    expect(longest).toBeLessThanOrEqual(998);
    // Folded, not cut: a client reads the whole subject back.
    expect((await PostalMime.parse(reply.raw)).subject).toBe(`Re: ${subject}`);
  });

  it("a reply naming only our reply (In-Reply-To, no References) comes back into the same conversation", async () => {
    const { owner, inboxId, address, visitor, ours } = await threadBegun("Can I change my order?");
    const second = mailId();
    const answer = answerTo(ours, {
      from: visitor,
      to: address,
      messageId: second,
      references: [],
      text: "It is order 42.",
    });
    expect(answer).not.toContain("References:");
    await deliver(answer, visitor, address);
    const [, again] = await replies(visitor, 2);
    const mail = await PostalMime.parse(again.raw);
    expect(mail.inReplyTo).toBe(second);
    expect(mail.references).toBe(`${ours.messageId} ${second}`);
    const conversations = await conversationsOf(owner, inboxId);
    expect(conversations).toHaveLength(1);
    expect((await messagesOf(owner, conversations[0].id)).map((m) => m.content)).toEqual([
      "Can I change my order?",
      'You said: "Can I change my order?".',
      "It is order 42.",
      'You said: "It is order 42.".',
    ]);
  });

  it("two customers answering the same announcement get a conversation each, each answered alone", async () => {
    const owner = await seedOwner();
    const { inboxId, address } = await emailInbox(owner);
    // A mailing sent from the inbox's address outside the platform (a newsletter): the same Message-ID for all.
    const announcement = mailId();
    const alice = visitorAddress();
    const bob = visitorAddress();
    const answer = (from: string, name: string, text: string) =>
      gmailReply({
        from,
        to: address,
        name,
        messageId: mailId(),
        inReplyTo: announcement,
        references: [announcement],
        subject: "Re: Our new opening hours",
        text,
        noAttachment: true,
      });

    await deliver(answer(alice, "Alice", "My order 1234 to 1 Main St has not arrived"), alice, address);
    await replies(alice, 1);
    await deliver(answer(bob, "Bob", "Do you open on Sundays?"), bob, address);
    const [toBob] = await replies(bob, 1);
    expect((await PostalMime.parse(toBob.raw)).text).toBe('You said: "Do you open on Sundays?".');
    // Alice writes again in the same thread: her conversation, not Bob's.
    await deliver(answer(alice, "Alice", "It was sent on Monday."), alice, address);
    await replies(alice, 2);

    const conversations = await conversationsOf(owner, inboxId);
    const lines = await Promise.all(
      conversations.map(async (c) => (await messagesOf(owner, c.id)).map((m) => `${m.senderType}: ${m.content}`)),
    );
    expect(lines.sort((a, b) => a.length - b.length)).toEqual([
      ["contact: Do you open on Sundays?", 'chatbot: You said: "Do you open on Sundays?".'],
      [
        "contact: My order 1234 to 1 Main St has not arrived",
        'chatbot: You said: "My order 1234 to 1 Main St has not arrived".',
        "contact: It was sent on Monday.",
        'chatbot: You said: "It was sent on Monday.".',
      ],
    ]);
    expect(conversations.map((c) => c.contact?.name).sort()).toEqual(["Alice", "Bob"]);
    expect(await sentTo(bob)).toHaveLength(1);
  });

  it("a chat kept by its root alone, before chats were each person's, goes on for its person", async () => {
    const { owner, inboxId, address, visitor, root, ours } = await threadBegun("Is the blue one in stock?");
    const [conversation] = await conversationsOf(owner, inboxId);
    await client(await data(owner.organizationId))
      .prepare("UPDATE channel_threads SET thread_key = ?2 WHERE inbox_id = ?1")
      .bind(inboxId, root)
      .run();
    const second = mailId();
    const references = [root, ours.messageId];
    await deliver(
      answerTo(ours, { from: visitor, to: address, messageId: second, references, text: "In size M?" }),
      visitor,
      address,
    );
    await replies(visitor, 2);
    expect((await conversationsOf(owner, inboxId)).map((c) => c.id)).toEqual([conversation.id]);
    // Someone else answering that thread has a conversation of their own.
    const other = visitorAddress();
    await deliver(
      answerTo(ours, { from: other, to: address, messageId: mailId(), references, text: "And in L?" }),
      other,
      address,
    );
    await replies(other, 1);
    expect(await conversationsOf(owner, inboxId)).toHaveLength(2);
    expect((await messagesOf(owner, conversation.id)).map((m) => m.content)).toEqual([
      "Is the blue one in stock?",
      'You said: "Is the blue one in stock?".',
      "In size M?",
      'You said: "In size M?".',
    ]);
  });

  it("a website's form mailing from the inbox's own address: the customer in Reply-To is the contact", async () => {
    const owner = await seedOwner();
    const { inboxId, address } = await emailInbox(owner);
    const customer = visitorAddress();
    const raw = formMail({ from: address, replyTo: customer, to: address, text: "Where is my order 1234?" });
    expect(await deliver(raw, address, address)).toEqual({ rejected: null });

    const [sent] = await replies(customer, 1);
    expect(sent).toMatchObject({ from: address, to: customer });
    expect((await PostalMime.parse(sent.raw)).to).toEqual([{ address: customer, name: "Jane Customer" }]);
    expect(await sentTo(address)).toEqual([]);
    const conversation = await onlyConversation(owner, inboxId);
    const contact = await bodyOf<"GET /contacts/{id}/">(
      await owner.fetch("GET", `/contacts/${conversation.contact!.id}/`),
    );
    expect(contact).toMatchObject({ sourceId: customer, email: customer, name: "Jane Customer" });
    expect((await messagesOf(owner, conversation.id))[0].content).toBe("Where is my order 1234?");
  });

  it("a form mailing from a no-reply address: answered at the Reply-To address, never the no-reply one", async () => {
    const owner = await seedOwner();
    const { inboxId, address } = await emailInbox(owner);
    const customer = visitorAddress();
    const noReply = `no-reply-${visitorAddress()}`;
    await deliver(
      formMail({ from: noReply, replyTo: customer, to: address, text: "Do you deliver?" }),
      noReply,
      address,
    );
    const [sent] = await replies(customer, 1);
    expect((await PostalMime.parse(sent.raw)).text).toBe('You said: "Do you deliver?".');
    expect(await sentTo(noReply)).toEqual([]);
    expect((await onlyConversation(owner, inboxId)).contact).toMatchObject({ name: "Jane Customer" });
  });

  it("mail not to answer (the inbox's own, our reply come back, an auto-reply) is set aside saying why", async () => {
    const { owner, inboxId, address, visitor, root, ours } = await threadBegun("Can I pay by card?");
    // A mailing sent from the inbox's own address, answers to it.
    const mailing = formMail({ from: address, replyTo: address, to: address, text: "New opening hours" });
    // Our own reply come back with a Reply-To a relay added: its Message-ID is one we sent.
    const back = formMail({ from: address, replyTo: visitor, to: address, messageId: ours.messageId, text: "Yes." });
    const autoReply = `Auto-Submitted: auto-replied\r\n${answerTo(ours, {
      from: visitor,
      to: address,
      messageId: mailId(),
      references: [root, ours.messageId],
      text: "I am out of the office.",
    })}`;
    for (const [raw, from] of [
      [mailing, address],
      [back, address],
      [autoReply, visitor],
    ])
      expect(await deliver(raw, from, address)).toEqual({ rejected: null });

    // Sorted: three deliveries may share their millisecond.
    expect((await setAside(owner.organizationId, inboxId)).map((e) => e.error).sort()).toEqual([
      "An auto-reply, list mail or bounce: not answered, so that two robots never write to each other.",
      "Answers would go to this inbox's own address: not answered.",
      "One of this inbox's own replies: not answered.",
    ]);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await sentTo(visitor)).toHaveLength(1);
    expect(await sentTo(address)).toEqual([]);
    const conversation = await onlyConversation(owner, inboxId);
    expect(await messagesOf(owner, conversation.id)).toHaveLength(2);
  });

  it("finds our reply by its Message-ID through the inbox's index, not by reading the inbox's deliveries", async () => {
    const { owner, inboxId, ours } = await threadBegun("Where is my invoice?");
    const [conversation] = await conversationsOf(owner, inboxId);
    const part = await conversationData(owner.organizationId, conversation.id);
    const query = sentReply(part, inboxId, ours.messageId);
    expect(await query).toEqual([{ conversationId: conversation.id }]);
    expect(await sentReply(part, inboxId, "<someone-else@example.com>")).toEqual([]);
    expect(await queryPlan(part, query)).toMatch(/USING INDEX channel_deliveries_email_id_idx/);
  });

  it("our reply's row is kept half a year: an answer naming only it finds its thread 100 days on", async () => {
    const { owner, inboxId, address, visitor, ours } = await threadBegun("Is my warranty still valid?");
    const [conversation] = await conversationsOf(owner, inboxId);
    const d1 = client(await conversationData(owner.organizationId, conversation.id));
    const age = (days: number) =>
      d1
        .prepare(
          "UPDATE channel_deliveries SET sent_at = sent_at - ?2, next_attempt_at = next_attempt_at - ?2 " +
            "WHERE inbox_id = ?1",
        )
        .bind(inboxId, days * 86_400_000)
        .run();
    const kept = async () =>
      (await d1.prepare("SELECT count(*) AS n FROM channel_deliveries WHERE inbox_id = ?1").bind(inboxId).first("n")) ??
      0;
    await age(100);
    await pruneChannelRows(await conversationData(owner.organizationId, conversation.id), Date.now());
    expect(await kept()).toBe(1);
    const second = mailId();
    await deliver(
      answerTo(ours, { from: visitor, to: address, messageId: second, references: [], text: "Serial 7731." }),
      visitor,
      address,
    );
    await replies(visitor, 2);
    expect(await conversationsOf(owner, inboxId)).toHaveLength(1);

    await age(EMAIL_DELIVERY_KEEP_MS / 86_400_000 - 99);
    await pruneChannelRows(await conversationData(owner.organizationId, conversation.id), Date.now());
    expect(await kept()).toBe(1); // the second reply's, sent today
  });

  it("a message delivered again (the same Message-ID) makes no second message and no second reply", async () => {
    const owner = await seedOwner();
    const { inboxId, address } = await emailInbox(owner);
    const visitor = visitorAddress();
    const raw = first({ from: visitor, to: address, text: "Do you sell gift cards?" });
    await deliver(raw, visitor, address);
    await replies(visitor, 1);
    await deliver(raw, visitor, address);
    // The redelivery would have been answered by now (the first answer took less).
    await new Promise((r) => setTimeout(r, 1500));
    expect(await sentTo(visitor)).toHaveLength(1);
    const conversation = await onlyConversation(owner, inboxId);
    expect((await messagesOf(owner, conversation.id)).map((m) => m.content)).toEqual([
      "Do you sell gift cards?",
      'You said: "Do you sell gift cards?".',
    ]);
    expect(await storedEvents(owner.organizationId, inboxId)).toBe(1);
  });

  it("an attachment is stored with the message", async () => {
    const owner = await seedOwner();
    const { inboxId, address } = await emailInbox(owner);
    const visitor = visitorAddress();
    await deliver(
      first({ from: visitor, to: address, text: "This one arrived broken.", noAttachment: false }),
      visitor,
      address,
    );
    await replies(visitor, 1);
    const conversation = await onlyConversation(owner, inboxId);
    const [incoming] = await messagesOf(owner, conversation.id);
    expect(incoming).toMatchObject({
      content: "This one arrived broken.",
      attachments: [{ type: "image", filename: "photo.png", contentType: "image/png" }],
    });
    const png = Uint8Array.from(atob(PNG_BASE64), (c) => c.charCodeAt(0));
    const attachment = await bodyOf<"GET /attachments/{id}/">(
      await owner.fetch("GET", `/attachments/${incoming.attachments![0].id}/`),
    );
    expect(attachment.size).toBe(png.byteLength);
    const file = await SELF.fetch(attachment.file);
    expect(file.status).toBe(200);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(png);
  });

  /** A plain-text mail of `text` to a new e-mail inbox, and its message once taken in. */
  async function longMail(text: string) {
    const owner = await seedOwner();
    const { inboxId, address } = await emailInbox(owner);
    const visitor = visitorAddress();
    const mail = [
      "MIME-Version: 1.0",
      "Date: Mon, 2 Dec 2024 10:00:00 +0900",
      `Message-ID: ${mailId()}`,
      "Subject: My order list",
      `From: Jane Visitor <${visitor}>`,
      `To: ${address}`,
      'Content-Type: text/plain; charset="UTF-8"',
      "",
      text,
      "",
    ].join("\r\n");
    await deliver(mail, visitor, address);
    const conversation = await onlyConversation(owner, inboxId);
    const [incoming] = await messagesWhen(owner, conversation.id, (m) => m.length >= 1);
    return { owner, incoming };
  }
  const orderLines = (n: number) =>
    Array.from({ length: n }, (_, i) => `Line ${i + 1} of the order list: one blue teapot, boxed.`).join("\n");

  it("a text longer than a message holds is cut, saying so; the whole of it is the message's message.txt", async () => {
    const text = orderLines(2_000);
    const { owner, incoming } = await longMail(text);
    expect(incoming.content.length).toBeLessThanOrEqual(32_000);
    expect(incoming.content.startsWith("Line 1 of the order list")).toBe(true);
    expect(incoming.content.endsWith("\n\n(The message goes on: the whole of it is in message.txt.)")).toBe(true);
    expect(incoming.attachments).toMatchObject([{ filename: "message.txt" }]);
    const attachment = await bodyOf<"GET /attachments/{id}/">(
      await owner.fetch("GET", `/attachments/${incoming.attachments[0].id}/`),
    );
    expect(await (await SELF.fetch(attachment.file)).text()).toBe(text);
  });

  it("a text too long even for a file of the message is cut, saying how much is not kept", async () => {
    const text = orderLines(40_000);
    const { incoming } = await longMail(text);
    expect(incoming.content.length).toBeLessThanOrEqual(32_000);
    const rest = (text.length - 30_000).toLocaleString("en-US");
    expect(incoming.content.endsWith(`\n\n(The message goes on for ${rest} more characters, too many to keep.)`)).toBe(
      true,
    );
    expect(incoming.attachments).toEqual([]);
  });

  it("taken over: the assistant stays silent, the human's reply goes out in the thread", async () => {
    const { owner, inboxId, address, visitor, root, ours } = await threadBegun("I want a refund.");
    const conversation = await onlyConversation(owner, inboxId);
    expect((await owner.fetch("POST", `/conversations/${conversation.id}/take-over/`)).status).toBe(200);

    const second = mailId();
    const references = [root, ours.messageId];
    await deliver(
      answerTo(ours, { from: visitor, to: address, messageId: second, references, text: "Hello?" }),
      visitor,
      address,
    );
    await messagesWhen(owner, conversation.id, (m) => m.length === 3);
    const human = await owner.fetch("POST", "/messages/outgoing/", {
      conversation: conversation.id,
      content: "Sam here: your refund is **on its way**.",
    });
    expect(human.status, await human.clone().text()).toBe(201);

    const [first, second2] = await replies(visitor, 2);
    expect(await sentTo(visitor)).toHaveLength(2);
    const mail = await PostalMime.parse(second2.raw);
    // The assistant's answer says it is automatic (RFC 3834), so another robot does not answer it; a person's does not.
    const autoSubmitted = async (raw: string) =>
      (await PostalMime.parse(raw)).headers.find((h) => h.key === "auto-submitted")?.value;
    expect(await autoSubmitted(first.raw)).toBe("auto-replied");
    expect(await autoSubmitted(second2.raw)).toBeUndefined();
    expect(mail.text).toBe("Sam here: your refund is on its way.");
    expect(mail.html).toContain("<p>Sam here: your refund is <b>on its way</b>.</p>");
    expect(mail.inReplyTo).toBe(second);
    expect(mail.references).toBe(`${root} ${ours.messageId} ${second}`);
    expect((await messagesOf(owner, conversation.id)).map((m) => m.content)).toEqual([
      "I want a refund.",
      'You said: "I want a refund.".',
      "Hello?",
      "Sam here: your refund is **on its way**.",
    ]);
  });

  it(
    'resolve mails the rating question in the thread; an answer "4" is kept as the rating, not as a ' + "message",
    async () => {
      const { owner, inboxId, address, visitor, root, ours } = await threadBegun("Where is my parcel?");
      const conversation = await onlyConversation(owner, inboxId);
      expect((await owner.fetch("POST", `/conversations/${conversation.id}/resolve/`)).status).toBe(200);

      // E-mail has no buttons: the question is a mail of its own, in the thread, naming the answers.
      const [, asking] = await replies(visitor, 2);
      const question = await PostalMime.parse(asking.raw);
      expect(question.text).toMatch(/How would you rate this conversation\?/);
      expect(question.inReplyTo).toBe(root);
      const asked = await messagesOf(owner, conversation.id);
      expect(asked.at(-1)).toMatchObject({ senderType: "chatbot", content: question.text?.trim() });

      const answer = mailId();
      await deliver(
        answerTo(asking, {
          from: visitor,
          to: address,
          messageId: answer,
          references: [root, ours.messageId, asking.messageId],
          text: "4",
        }),
        visitor,
        address,
      );
      const rated = await eventually(async () =>
        bodyOf<"GET /conversations/{id}/">(await owner.fetch("GET", `/conversations/${conversation.id}/`)).then(
          (r) => r.csat,
        ),
      );
      expect(rated).toMatchObject({ rating: 4 });
      expect(await messagesOf(owner, conversation.id)).toHaveLength(asked.length);
      expect(await sentTo(visitor)).toHaveLength(2);
    },
  );

  it("a recipient Email Service refuses: the reply is failed with its reason and not tried again", async () => {
    const owner = await seedOwner();
    const { inboxId, address } = await emailInbox(owner);
    const visitor = `refused-${visitorAddress()}`;
    await deliver(first({ from: visitor, to: address, text: "Can you hear me?" }), visitor, address);
    const conversation = await onlyConversation(owner, inboxId);
    const messages = await messagesWhen(
      owner,
      conversation.id,
      (m) => m.at(-1)?.metadata?.channelDelivery?.status === "failed",
    );
    const error = `Email Service refused the message: email to ${visitor} not allowed`;
    expect(messages.at(-1)!.metadata!.channelDelivery).toMatchObject({ status: "failed", attempts: 1, error });
    await new Promise((r) => setTimeout(r, 1500));
    expect((await messagesOf(owner, conversation.id)).at(-1)!.metadata!.channelDelivery).toMatchObject({
      status: "failed",
      attempts: 1,
    });
    expect(await sentTo(visitor)).toEqual([]);
  });

  it(
    "connect says what to set up in Email Routing; an address another inbox has connected is refused, and saved " +
      "alone it takes no mail",
    async () => {
      const owner = await seedOwner();
      const { inboxId, address } = await emailInbox(owner);
      const record = await bodyOf<"GET /inboxes/{id}/channel/">(
        await owner.fetch("GET", `/inboxes/${inboxId}/channel/`),
      );
      expect(record).toMatchObject({
        channelType: "email",
        status: "connected",
        credentials: { address, fromName: "Shop Support" },
      });

      const other = await seedOwner();
      const taken = await channelInbox(
        other,
        "email",
        { address: address.toUpperCase(), fromName: "Not the shop" },
        { connect: false },
      );
      const refused = await other.fetch("POST", `/inboxes/${taken.inboxId}/channel/connect/`);
      expect(refused.status).toBe(400);
      // Kept with its domain in lower case (a domain's case says nothing), the local part as written.
      const kept = `${address.split("@")[0].toUpperCase()}@shop.example`;
      const detail = `${kept} already belongs to another inbox (${inboxId})`;
      expect(await refused.json()).toMatchObject({ code: "channel_connect_failed", detail });

      const unconnected = `${unique("later")}@shop.example`.toLowerCase();
      const later = await channelInbox(owner, "email", { address: unconnected, fromName: "Shop" }, { connect: false });
      const visitor = visitorAddress();
      const hi = () => first({ from: visitor, to: unconnected, text: "Hi" });
      expect(await deliver(hi(), visitor, unconnected)).toEqual({
        rejected: `${unconnected} is not the address of an inbox here.`,
      });
      const connected = await owner.fetch("POST", `/inboxes/${later.inboxId}/channel/connect/`);
      expect(await connected.json()).toMatchObject({
        status: "connected",
        detail: expect.stringContaining(`route ${unconnected} to this Worker`),
      });
      expect(await deliver(hi(), visitor, unconnected)).toEqual({ rejected: null });
    },
  );

  it("a message to an address no inbox has is rejected, and nothing is stored", async () => {
    const owner = await seedOwner();
    const { inboxId, address } = await emailInbox(owner);
    const visitor = visitorAddress();
    const nobody = `nobody-${address}`;
    const raw = first({ from: visitor, to: nobody, text: "Anyone?" });
    expect(await deliver(raw, visitor, nobody)).toEqual({ rejected: `${nobody} is not the address of an inbox here.` });
    await new Promise((r) => setTimeout(r, 500));
    expect(await conversationsOf(owner, inboxId)).toEqual([]);
    expect(await sentTo(visitor)).toEqual([]);
  });
});
