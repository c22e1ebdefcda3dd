// What real mail carries besides the visitor's new words, through the Worker's email handler and the channel queue:
// the history an Outlook in another language puts under its header block, the attribution lines of Gmail in
// Traditional Chinese and Korean (a signature under its "-- " line stays: it is the visitor's); a forward, whose
// header block and mail are what the visitor sends; and mail no person wrote that names no mailer-daemon (a delivery
// report, a read receipt, an auto-reply older than RFC 3834), which is set aside, never answered. An answer in HTML
// written between quotes keeps each of its parts; a From with no address to answer falls back to the envelope sender,
// and mail with none at all is refused at SMTP. The mail app's footer ("Sent from my iPhone") is not the visitor's.
import { describe, expect, it } from "vitest";
import { seedOwner, type Actor } from "../harness";
import { deliver, emailInbox, mailId, plain, replies, sentTo, visitorAddress } from "./email-support";
import { conversationsOf, eventually, messagesWhen, onlyConversation, setAside, storedEvents } from "./support";

/** The visitor's message as the conversation stores it. */
async function stored(body: string[], subject = "RE: Delivery") {
  const owner = await seedOwner();
  const { inboxId, address } = await emailInbox(owner);
  const visitor = visitorAddress();
  expect(await deliver(plain(visitor, address, subject, body), visitor, address)).toEqual({ rejected: null });
  const conversation = await onlyConversation(owner, inboxId);
  const [incoming] = await messagesWhen(owner, conversation.id, (m) => m.length >= 1);
  return incoming.content;
}

/** Why the inbox's first mail was set aside, or "made a conversation" when it was taken in instead. */
const firstOutcome = (owner: Actor, inboxId: string) =>
  eventually(async () => {
    const [row] = await setAside(owner.organizationId, inboxId);
    if (row) return row;
    return (await conversationsOf(owner, inboxId)).length > 0 && { error: "made a conversation" };
  });

describe("e-mail: only the visitor's new words are their message", () => {
  it.each([
    [
      "Outlook in Traditional Chinese",
      ["寄件者: Shop Support <support@shop.example>", "寄件日期: 2024年12月2日 上午 09:00", "收件者: Visitor"],
    ],
    [
      "Outlook in Simplified Chinese",
      ["发件人: Shop Support <support@shop.example>", "发送时间: 2024年12月2日 9:00", "收件人: Visitor"],
    ],
    ["Outlook in Spanish", ["De: Shop Support <support@shop.example>", "Enviado: lunes, 2 de diciembre de 2024 9:00"]],
    [
      "Outlook in Korean",
      ["보낸 사람: Shop Support <support@shop.example>", "보낸 날짜: 2024년 12월 2일 월요일 오전 9:00"],
    ],
  ])("%s: the history under its header block is not the visitor's text", async (_, block) => {
    const content = await stored(["請問何時出貨？", "", ...block, "主旨: Re: Delivery", "", "We ship tomorrow."]);
    expect(content).toBe("請問何時出貨？");
  });

  it.each([
    ["Gmail in Traditional Chinese", "Shop Support <support@shop.example> 於 2024年12月2日 週一 上午9:00寫道："],
    ["Gmail in Korean", "2024년 12월 2일 (월) 오전 9:00, Shop Support <support@shop.example>님이 작성:"],
  ])("%s: the attribution line above the quoted history is not the visitor's text", async (_, line) => {
    expect(await stored(["好的，謝謝", "", line, "", "> We ship tomorrow."], "Re: Delivery")).toBe("好的，謝謝");
  });

  it("a signature under its '-- ' line stays: a phone number or a company is the visitor's to give", async () => {
    const content = await stored(["Do you ship to Japan?", "", "-- ", "Jane Doe", "ACME Corp | +1 555 0100"], "Japan");
    expect(content).toBe("Do you ship to Japan?\n\n--\nJane Doe\nACME Corp | +1 555 0100");
  });

  it.each([
    ["iOS Mail", ["Sent from my iPhone"]],
    ["Outlook for iOS, its link in angle brackets", ["Get Outlook for iOS<https://aka.ms/o0ukef>"]],
    [
      "Mail for Windows, its link inside",
      ["Sent from Mail<https://go.microsoft.com/fwlink/?LinkId=550986> for Windows"],
    ],
    ["iOS Mail in German", ["Von meinem iPhone gesendet"]],
    ["iOS Mail in Japanese, under the signature", ["-- ", "山田 太郎", "", "iPhoneから送信"]],
    ["iOS Mail in Simplified Chinese, the quoted history under it", ["发自我的iPhone", "", "> We ship tomorrow."]],
  ])("%s: the mail app's footer at the end is not the visitor's text", async (_, footer) => {
    const content = await stored(["When do you ship?", "", ...footer]);
    const signature = footer[0] === "-- " ? "\n\n--\n山田 太郎" : "";
    expect(content).toBe(`When do you ship?${signature}`);
  });

  it("a sentence that only starts like a footer stays", async () => {
    expect(await stored(["Sent from my office on Monday, order 1234, by post."])).toBe(
      "Sent from my office on Monday, order 1234, by post.",
    );
  });
});

describe("e-mail: an answer in HTML alone, written between the quotes", () => {
  it("keeps each part of the visitor's text: only the quotes are left out", async () => {
    const owner = await seedOwner();
    const { inboxId, address } = await emailInbox(owner);
    const visitor = visitorAddress();
    const html =
      "<div>Is the blue one in stock?</div><blockquote>We have three colours.</blockquote>" +
      "<div>And the red one?</div><blockquote>Red ships tomorrow.</blockquote>";
    const raw = plain(visitor, address, "Re: Colours", [html]).replace("text/plain", "text/html");
    expect(await deliver(raw, visitor, address)).toEqual({ rejected: null });
    const conversation = await onlyConversation(owner, inboxId);
    const [incoming] = await messagesWhen(owner, conversation.id, (m) => m.length >= 1);
    expect(incoming.content).toBe("Is the blue one in stock?\n\nAnd the red one?");
  });
});

describe("e-mail: a From that names no address to answer", () => {
  it.each([
    ["no From at all", ""],
    ["a From naming a group, no mailbox", "From: undisclosed-recipients:;"],
    ["a From that is no address", "From: Jane <jane at example dot com>"],
  ])("%s: answered at the envelope sender", async (_, from) => {
    const owner = await seedOwner();
    const { inboxId, address } = await emailInbox(owner);
    const visitor = visitorAddress();
    const raw = plain(visitor, address, "Sundays", ["Are you open on Sundays?"]).replace(
      `From: Visitor <${visitor}>\r\n`,
      from && `${from}\r\n`,
    );
    expect(await deliver(raw, visitor, address)).toEqual({ rejected: null });
    const [sent] = await replies(visitor, 1);
    expect(sent).toMatchObject({ from: address, to: visitor });
    const conversation = await onlyConversation(owner, inboxId);
    expect((await messagesWhen(owner, conversation.id, (m) => m.length >= 1))[0].content).toBe(
      "Are you open on Sundays?",
    );
  });

  it.each([
    ["a bounce's null sender", ""],
    ["a bounce's null sender, bracketed", "<>"],
    ["a mailer-daemon", "MAILER-DAEMON@mx.example.com"],
    ["a postmaster", "postmaster@mail.example.com"],
  ])(
    "not when the envelope sender is %s: refused at SMTP, so the sending server tells its sender",
    async (_, envelope) => {
      const owner = await seedOwner();
      const { inboxId, address } = await emailInbox(owner);
      const visitor = visitorAddress();
      const raw = plain(visitor, address, "Sundays", ["Are you open on Sundays?"]).replace(
        `From: Visitor <${visitor}>\r\n`,
        "",
      );
      expect(await deliver(raw, envelope, address)).toEqual({
        rejected: "No address to answer: no valid Reply-To, From, Sender or envelope sender.",
      });
      // Refused, as mail to an address no inbox has: nothing kept, not even set aside.
      expect(await storedEvents(owner.organizationId, inboxId)).toBe(0);
      expect(await conversationsOf(owner, inboxId)).toEqual([]);
    },
  );
});

describe("e-mail: a forward keeps what it forwards", () => {
  it.each([
    [
      "Gmail",
      "Fwd: Your order",
      [
        "---------- Forwarded message ---------",
        "From: Shop <orders@store.example>",
        "Date: Mon, Dec 2, 2024 at 9:00 AM",
      ],
    ],
    [
      "Outlook",
      "FW: Your order",
      [
        "________________________________",
        "From: Shop <orders@store.example>",
        "Sent: Monday, December 2, 2024 9:00 AM",
      ],
    ],
  ])("%s: the forwarded mail under its header block is part of the visitor's message", async (_, subject, block) => {
    const content = await stored(
      ["My order never came, see below.", "", ...block, "Subject: Your order", "", "Order 1234 shipped on 2 December."],
      subject,
    );
    expect(content).toContain("My order never came, see below.");
    expect(content).toContain("Order 1234 shipped on 2 December.");
  });
});

describe("e-mail: a forward in HTML alone", () => {
  it("keeps the forwarded mail Gmail puts in its quote container", async () => {
    const owner = await seedOwner();
    const { inboxId, address } = await emailInbox(owner);
    const visitor = visitorAddress();
    const html =
      '<div dir="ltr">My order never came, see below.<br><br><div class="gmail_quote gmail_quote_container">' +
      '<div dir="ltr" class="gmail_attr">---------- Forwarded message ---------<br>From: Shop ' +
      "&lt;orders@store.example&gt;<br>Date: Mon, Dec 2, 2024<br>Subject: Your order<br></div><br>" +
      "<div>Order 1234 shipped on 2 December.</div></div></div>";
    const raw = plain(visitor, address, "Fwd: Your order", [html]).replace(
      'Content-Type: text/plain; charset="UTF-8"',
      'Content-Type: text/html; charset="UTF-8"',
    );
    expect(await deliver(raw, visitor, address)).toEqual({ rejected: null });
    const conversation = await onlyConversation(owner, inboxId);
    const [incoming] = await messagesWhen(owner, conversation.id, (m) => m.length >= 1);
    expect(incoming.content).toContain("My order never came, see below.");
    expect(incoming.content).toContain("Order 1234 shipped on 2 December.");
  });
});

describe("e-mail: mail no person wrote is set aside, never answered", () => {
  it.each([
    [
      "a delivery report from Exchange (no mailer-daemon address)",
      "Microsoft Outlook <MicrosoftExchange329e71ec88ae4615bbc36ab6ce41109e@mail.example>",
      "delivery-status",
      ["Reporting-MTA: dns; mx.mail.example", "", "Final-Recipient: rfc822; gone@mail.example", "Action: failed"],
    ],
    [
      "a read receipt from the visitor's own client",
      "{visitor}",
      "disposition-notification",
      ["Final-Recipient: rfc822; {visitor}", "Disposition: automatic-action/MDN-sent-automatically; displayed"],
    ],
  ])("%s", async (_, from, reportType, fields) => {
    const owner = await seedOwner();
    const { inboxId, address } = await emailInbox(owner);
    const visitor = visitorAddress();
    const sender = from === "{visitor}" ? visitor : from;
    const raw = [
      "MIME-Version: 1.0",
      "Date: Tue, 3 Dec 2024 10:00:00 +0000",
      `Message-ID: ${mailId()}`,
      "Subject: Undeliverable: Re: Delivery",
      `From: ${sender}`,
      `To: ${address}`,
      `Content-Type: multipart/report; report-type=${reportType}; boundary="rep-1"`,
      "",
      "--rep-1",
      "Content-Type: text/plain; charset=utf-8",
      "",
      "Your message could not be delivered, or was displayed.",
      "--rep-1",
      `Content-Type: message/${reportType}`,
      "",
      ...fields.map((f) => f.replace("{visitor}", visitor)),
      "--rep-1--",
      "",
    ].join("\r\n");
    // A report comes with the null envelope sender (RFC 3464, RFC 8098).
    expect(await deliver(raw, "", address)).toEqual({ rejected: null });
    const ignored = await firstOutcome(owner, inboxId);
    expect(ignored.error).toMatch(/auto-reply, list mail or bounce/);
    await new Promise((r) => setTimeout(r, 500));
    expect(await conversationsOf(owner, inboxId)).toEqual([]);
    expect(await sentTo(visitor)).toEqual([]);
  });

  it("an auto-reply marked only the way responders older than RFC 3834 mark it (X-Autoreply)", async () => {
    const owner = await seedOwner();
    const { inboxId, address } = await emailInbox(owner);
    const visitor = visitorAddress();
    const raw = plain(visitor, address, "Out of office", ["I am away until Monday."], ["X-Autoreply: yes"]);
    expect(await deliver(raw, visitor, address)).toEqual({ rejected: null });
    const ignored = await firstOutcome(owner, inboxId);
    expect(ignored.error).toMatch(/auto-reply, list mail or bounce/);
  });
});
