// The e-mail module on its own: reading messages (RFC 5322's samples, Cloudflare's, Gmail's), the
// new text of a reply, and the reply's MIME as the send_email binding received it
// (test/support/email-outbox.mjs keeps what the binding was given).
import { env } from "cloudflare:workers";
import PostalMime from "postal-mime";
import { describe, expect, it } from "vitest";
import { email, readEmail } from "../../../src/services/channels/email";
import { canonicalAddress, isAddress } from "../../../src/services/channels/email-address";
import { htmlToText, newText, replySubject, toEmailHtml } from "../../../src/services/channels/email-mime";
import { platformContext } from "../../../src/services/channels/http";
import { PlatformError, type ChannelConfig, type OutboundMessage } from "../../../src/services/channels/types";
import { unique } from "../../harness";
import { standIn } from "../../support/bindings";
import {
  CLOUDFLARE_LOCAL_SAMPLE,
  PNG_BASE64,
  RFC5322_HELLO,
  RFC5322_REPLY,
  RFC5322_REPLY_TO_REPLY,
  gmailReply,
} from "../../support/email-samples";

const channel = (address: string, fromName = "Acme Support"): ChannelConfig => ({
  inboxId: unique("inbox"),
  organizationId: unique("org"),
  platform: "email",
  credentials: { address, fromName },
  verifyToken: "",
  webhookSecret: "",
  webhookUrl: "",
});

const outgoing = (
  thread: NonNullable<OutboundMessage["thread"]>,
  text: string,
  extra: Partial<OutboundMessage> = {},
): OutboundMessage => ({
  deliveryId: crypto.randomUUID(),
  threadKey: String(thread.messageId),
  text,
  citations: [],
  quickReplies: [],
  attachments: [],
  thread,
  senderName: "Assistant",
  fromPerson: false,
  sent: [],
  lastInboundAt: 0,
  at: 0,
  ...extra,
});

const sentTo = (address: string) => env.TEST_EMAIL_OUTBOX.sent(address);

describe("verify", () => {
  it("is false for every HTTP request: mail never comes through the webhook route", async () => {
    const request = new Request("https://x/channels/email/i", { method: "POST", body: RFC5322_HELLO });
    expect(await email.verify(request, RFC5322_HELLO, channel("support@example.org"))).toBe(false);
  });
});

describe("parse", () => {
  it("reads RFC 5322's message: sender, text, Message-ID as the event and the thread", async () => {
    const [event] = await email.parse(RFC5322_HELLO, channel("mary@example.net"));
    expect(event.eventId).toBe("<1234@local.machine.example>");
    expect(event.threadKey).toBe("<1234@local.machine.example>");
    expect(event.sender).toEqual({ id: "jdoe@machine.example", email: "jdoe@machine.example", name: "John Doe" });
    expect(event.text).toBe('This is a message just to say hello.\nSo, "Hello".');
    expect(event.attachments).toEqual([]);
    expect(event.at).toBe(Date.parse("1997-11-21T15:55:06Z"));
    expect(event.thread).toEqual({
      subject: "Saying Hello",
      messageId: "<1234@local.machine.example>",
      references: ["<1234@local.machine.example>"],
      address: "jdoe@machine.example",
      name: "John Doe",
    });
  });

  it("threads a reply and the reply to it under the first message (References' first id, or In-Reply-To)", async () => {
    const [reply] = await email.parse(RFC5322_REPLY, channel("jdoe@machine.example"));
    const [again] = await email.parse(RFC5322_REPLY_TO_REPLY, channel("smith@home.example"));
    expect(reply.threadKey).toBe("<1234@local.machine.example>");
    expect(again.threadKey).toBe("<1234@local.machine.example>");
    expect(again.eventId).toBe("<abcd.1234@local.machine.example>");
    expect(again.thread).toMatchObject({
      messageId: "<abcd.1234@local.machine.example>",
      references: ["<1234@local.machine.example>", "<3456@example.net>", "<abcd.1234@local.machine.example>"],
    });
    const onlyInReplyTo = RFC5322_REPLY.replace(/^References:.*\r\n/m, "");
    const [parsed] = await email.parse(onlyInReplyTo, channel("jdoe@machine.example"));
    expect(parsed.threadKey).toBe("<1234@local.machine.example>");
    expect(parsed.thread?.references).toEqual(["<1234@local.machine.example>", "<3456@example.net>"]);
  });

  it("reads Cloudflare's local development sample (HTML only, windows-1252)", async () => {
    const [event] = await email.parse(CLOUDFLARE_LOCAL_SAMPLE, channel("recipient@example.com"));
    expect(event).toMatchObject({
      eventId: "<6114391943504294873000@ZSH-GHOSTTY>",
      text: "Hi there",
      sender: { id: "sender@example.com", name: "John" },
    });
  });

  it("keeps the new text of a Gmail reply, not the history, and the picture inline", async () => {
    const raw = gmailReply({
      from: "Jane@Example.COM",
      to: "support@example.org",
      messageId: "<g1@mail.gmail.com>",
      inReplyTo: "<r1@example.org>",
      references: ["<q1@mail.gmail.com>", "<r1@example.org>"],
      text: "Are you open on Sundays?",
    });
    const [event] = await email.parse(raw, channel("support@example.org"));
    expect(event.text).toBe("Are you open on Sundays?");
    expect(event.sender.id).toBe("jane@example.com");
    expect(event.threadKey).toBe("<q1@mail.gmail.com>");
    expect(event.attachments).toEqual([
      { kind: "image", ref: "<f_m4a1b2c30>", filename: "photo.png", contentType: "image/png", inline: PNG_BASE64 },
    ]);
  });

  it("reads nothing from auto-replies, mailing lists, bounces and the inbox's own address", async () => {
    const ours = channel("jdoe@machine.example");
    expect(await email.parse(`Auto-Submitted: auto-replied\r\n${RFC5322_REPLY}`, ours)).toEqual([]);
    expect(await email.parse(`Precedence: bulk\r\n${RFC5322_REPLY}`, ours)).toEqual([]);
    expect(await email.parse(`List-Id: <news.example.net>\r\n${RFC5322_REPLY}`, ours)).toEqual([]);
    expect(await email.parse(RFC5322_HELLO, channel("JDoe@machine.example"))).toEqual([]);
    expect(
      await email.parse(RFC5322_HELLO.replace("John Doe <jdoe@machine.example>", "MAILER-DAEMON@example.net"), ours),
    ).toEqual([]);
    // "Auto-Submitted: no" is a person writing.
    expect(await email.parse(`Auto-Submitted: no\r\n${RFC5322_REPLY}`, ours)).toHaveLength(1);
  });

  it("takes the subject when the body is empty, and an id from the bytes when there is no Message-ID", async () => {
    const raw = "From: a@example.com\r\nTo: s@example.org\r\nSubject: Re: Do you ship to Japan?\r\n\r\n\r\n";
    const [first] = await readEmail(raw);
    const [second] = await readEmail(raw);
    expect(first.text).toBe("Do you ship to Japan?");
    expect(first.eventId).toMatch(/^<[0-9a-f]{32}@no-message-id>$/);
    expect(second.eventId).toBe(first.eventId);
  });

  it("reads nothing from a message with no sender address to answer", async () => {
    expect(
      await readEmail("To: s@example.org\r\nSubject: hello\r\nMessage-ID: <n1@example.net>\r\n\r\nHi\r\n"),
    ).toEqual([]);
    expect(await readEmail("From: undisclosed-recipients:;\r\nMessage-ID: <n2@example.net>\r\n\r\nHi\r\n")).toEqual([]);
  });
});

describe("newText", () => {
  it("drops quoted lines and the attribution, keeps answers written between them", () => {
    const text = [
      "Thanks!",
      "",
      "On Tue, 3 Dec 2024, Acme <s@example.org> wrote:",
      "> Question one?",
      "Answer one.",
      "> Question two?",
      "Answer two.",
    ];
    expect(newText(text.join("\n"))).toBe("Thanks!\n\nAnswer one.\nAnswer two.");
  });

  it("ends at history that is not quoted (an HTML reply, Outlook's header block, other languages)", () => {
    expect(
      newText("Yes please.\n\nOn Mon, Dec 2, 2024 at 9:00 AM Acme <s@example.org> wrote:\nWe are open.\nSee you."),
    ).toBe("Yes please.");
    expect(
      newText(
        "Ok.\n\nFrom: Acme Support <s@example.org>\nSent: Monday, December 2, 2024 9:00 AM\nTo: me\nSubject: Hours",
      ),
    ).toBe("Ok.");
    expect(
      newText("はい、お願いします。\n\n2024年12月2日(月) 9:00 Acme <s@example.org>:\n\n> 営業時間は9時からです。"),
    ).toBe("はい、お願いします。");
    expect(newText("D'accord.\n\nLe lun. 2 déc. 2024 à 09:00, Acme <s@example.org> a écrit :\n> Bonjour")).toBe(
      "D'accord.",
    );
    expect(newText("Ja.\n\nAm Mo., 2. Dez. 2024 um 09:00 Uhr schrieb Acme <s@example.org>:\n> Hallo")).toBe("Ja.");
  });

  it("keeps a message without history as it is", () => {
    expect(newText("Line one\nLine two\n\n-- \nJane")).toBe("Line one\nLine two\n\n--\nJane");
  });

  it("leaves out the mail app's footer at the end, in the languages of the common clients", () => {
    const footers = [
      "Sent from my iPhone",
      "Sent from my Android",
      "Sent from my Samsung Galaxy smartphone.",
      "Get Outlook for iOS<https://aka.ms/o0ukef>",
      "Get Outlook for Android (https://aka.ms/AAb9ysg)",
      "Sent from Mail for Windows",
      "Sent from Yahoo Mail on Android",
      "Von meinem iPhone gesendet",
      "Envoyé de mon iPhone",
      "Enviado desde mi iPhone",
      "Enviado do meu iPhone",
      "Inviato da iPhone",
      "Verzonden vanaf mijn iPhone",
      "iPhoneから送信",
      "從我的 iPhone 傳送",
      "发自我的iPhone",
      "나의 iPhone에서 보냄",
    ];
    for (const footer of footers) expect(newText(`Ok.\n\n${footer}\n`), footer).toBe("Ok.");
    // A signature stays; the "-- " of one that was the footer alone goes with it.
    expect(newText("Ok.\n\n-- \nJane\n\nSent from my iPhone")).toBe("Ok.\n\n--\nJane");
    expect(newText("Ok.\n\n-- \nSent from my Android device with K-9 Mail.")).toBe("Ok.");
    // Only at the end, and only the whole line.
    expect(newText("Sent from my iPhone\nOk.")).toBe("Sent from my iPhone\nOk.");
    expect(newText("Ok.\n明日から送信")).toBe("Ok.\n明日から送信");
  });
});

describe("htmlToText", () => {
  it("reads a message in HTML alone: blocks as lines, links written out, the quoted history left out", async () => {
    const html =
      '<html><head><style>p{color:red}</style></head><body><div dir="ltr">Is the <b>blue</b> one&nbsp;in stock?<br>' +
      'See <a href="https://shop.example/p/1">this page</a>.</div>' +
      "<ul><li>size M</li><li>size L</li></ul>" +
      '<div class="gmail_quote"><div>On Mon, Acme wrote:</div><blockquote>We have &lt;3&gt; ' +
      "colours.</blockquote></div></body></html>";
    const raw =
      `From: a@example.com\r\nTo: s@example.org\r\nMessage-ID: <h1@example.com>\r\nContent-Type: text/html; ` +
      `charset=utf-8\r\n\r\n${html}\r\n`;
    const [event] = await readEmail(raw);
    expect(event.text).toBe(
      "Is the blue one in stock?\nSee this page (https://shop.example/p/1).\n\n• size M\n• size L",
    );
  });

  it("keeps the new text between two quotes: each blockquote is left out on its own, a nested one with it", () => {
    const html =
      "<div>Is the blue one in stock?</div><blockquote>We have three colours.</blockquote>" +
      "<div>And the red one?</div><blockquote>Red ships tomorrow.</blockquote><div>Thanks, Jane</div>";
    expect(htmlToText(html)).toBe("Is the blue one in stock?\n\nAnd the red one?\n\nThanks, Jane");
    const nested =
      "<div>Answering inline:</div><blockquote>Your order<blockquote>Order 1234?</blockquote>ships Monday." +
      "</blockquote><div>Monday works.</div><blockquote>Anything else?</blockquote>";
    expect(htmlToText(nested)).toBe("Answering inline:\n\nMonday works.");
  });

  it("decodes only the entities it knows: a sender's &constructor; stays as written", async () => {
    const raw =
      `From: a@example.com\r\nTo: s@example.org\r\nMessage-ID: <h2@example.com>\r\nContent-Type: text/html; ` +
      `charset=utf-8\r\n\r\n<p>A &amp; B &constructor; &__proto__; &toString;</p>\r\n`;
    const [event] = await readEmail(raw);
    expect(event.text).toBe("A & B &constructor; &__proto__; &toString;");
  });
});

describe("replySubject and the HTML part", () => {
  it("adds Re: once", () => {
    expect(replySubject("Opening hours")).toBe("Re: Opening hours");
    expect(replySubject("Re: Opening hours")).toBe("Re: Opening hours");
    expect(replySubject("RE: Opening hours")).toBe("RE: Opening hours");
    expect(replySubject("Fwd: Opening hours")).toBe("Re: Fwd: Opening hours");
    expect(replySubject("")).toBe("Re: your message");
  });

  it("renders Markdown as escaped HTML paragraphs", () => {
    const html = toEmailHtml("We are **open** <9-5>.\nSee [hours](https://example.org/h).\n\n```\na < b\n\nc\n```");
    expect(html).toContain(
      '<p>We are <b>open</b> &lt;9-5&gt;.<br>\nSee <a href="https://example.org/h">hours</a>.</p>',
    );
    expect(html).toContain("<pre>a &lt; b\n\nc</pre>");
  });
});

describe("send", () => {
  it(
    "sends the reply's MIME through EMAIL: From the inbox, To the contact, Re: subject, threading headers, text " +
      "and HTML",
    async () => {
      const inbox = `${unique("support")}@example.org`.toLowerCase();
      const visitor = `${unique("jane")}@example.com`.toLowerCase();
      const references = ["<g1@mail.gmail.com>", "<r1@example.org>"];
      const raw = gmailReply({
        from: visitor,
        to: inbox,
        messageId: "<g2@mail.gmail.com>",
        references,
        inReplyTo: "<r1@example.org>",
        text: "Sundays?",
      });
      const [event] = await email.parse(raw, channel(inbox));
      const ids = await email.send(
        platformContext(env, channel(inbox)),
        outgoing(event.thread!, "We are **closed** on Sundays.", {
          citations: [{ title: "Hours", url: "https://example.org/hours" }],
        }),
      );
      const [sent] = await sentTo(visitor);
      expect(sent).toMatchObject({ from: inbox, to: visitor });
      // The local binding names the message itself; that id is the one a reply will quote.
      expect(ids).toEqual([sent.messageId]);
      const mail = await PostalMime.parse(sent.raw);
      expect(mail.from).toEqual({ address: inbox, name: "Acme Support" });
      expect(mail.to).toEqual([{ address: visitor, name: "Jane Visitor" }]);
      expect(mail.subject).toBe("Re: Opening hours");
      expect(mail.inReplyTo).toBe("<g2@mail.gmail.com>");
      expect(mail.references).toBe("<g1@mail.gmail.com> <r1@example.org> <g2@mail.gmail.com>");
      expect(mail.text).toBe("We are closed on Sundays.\n\n• Hours (https://example.org/hours)");
      expect(mail.html).toContain("<p>We are <b>closed</b> on Sundays.</p>");
      expect(mail.html).toContain('<a href="https://example.org/hours">Hours</a>');
    },
  );

  it("encodes a name and subject that are not ASCII, and uses the assistant's name without fromName", async () => {
    const inbox = `${unique("info")}@example.jp`.toLowerCase();
    const visitor = `${unique("taro")}@example.jp`.toLowerCase();
    const thread = {
      subject: "営業時間について",
      messageId: "<jp1@example.jp>",
      references: ["<jp1@example.jp>"],
      address: visitor,
      name: "山田 太郎",
    };
    await email.send(
      platformContext(env, channel(inbox, "")),
      outgoing(thread, "はい、日曜日は休みです。", { senderName: "受付アシスタント" }),
    );
    const [sent] = await sentTo(visitor);
    expect(sent.raw).toMatch(/^Subject: =\?utf-8\?B\?/m);
    const mail = await PostalMime.parse(sent.raw);
    expect(mail.subject).toBe("Re: 営業時間について");
    expect(mail.from).toEqual({ address: inbox, name: "受付アシスタント" });
    expect(mail.to).toEqual([{ address: visitor, name: "山田 太郎" }]);
    expect(mail.text).toBe("はい、日曜日は休みです。");
  });

  it("refuses a thread without an address, and the binding's refusal, as not retryable", async () => {
    const inbox = `${unique("s")}@example.org`;
    const noAddress = email.send(
      platformContext(env, channel(inbox)),
      outgoing({ subject: "x", messageId: "<a@b>", references: [] }, "hi"),
    );
    await expect(noAddress).rejects.toMatchObject({
      status: 400,
      message: "this conversation has no e-mail address to answer",
    });
    // Email Service's answer for a recipient the binding may not send to (wrangler.toml
    // allowed_destination_addresses), as the binding throws it.
    const refusing = {
      ...env,
      EMAIL: standIn("EMAIL", { send: () => Promise.reject(new Error("email to x@example.com not allowed")) }),
    };
    const thread = { subject: "x", messageId: "<a@b>", references: [], address: "x@example.com" };
    const refused = await email
      .send(platformContext(refusing, channel(inbox)), outgoing(thread, "hi"))
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PlatformError);
    expect(refused).toMatchObject({
      status: 400,
      retryable: false,
      message: "Email Service refused the message: email to x@example.com not allowed",
    });
    // A limit or an outage is tried again.
    const limited = {
      ...env,
      EMAIL: standIn("EMAIL", { send: () => Promise.reject(new Error("daily sending rate limit exceeded")) }),
    };
    const later = await email
      .send(platformContext(limited, channel(inbox)), outgoing(thread, "hi"))
      .catch((e: unknown) => e);
    expect(later).toMatchObject({ status: 429, retryable: true });
  });
});

describe("connect", () => {
  it("checks the binding and the address, and says what to set up in Email Routing", async () => {
    const said = await email.connect(platformContext(env, channel("help@shop.example")));
    expect(said).toContain("route help@shop.example to this Worker");
    expect(said).toContain("Email Sending");
    const bad = email.connect(platformContext(env, channel("not an address")));
    await expect(bad).rejects.toMatchObject({ status: 400, message: '"not an address" is not an e-mail address' });
    const unbound = { ...env, EMAIL: undefined };
    await expect(email.connect(platformContext(unbound, channel("help@shop.example")))).rejects.toThrow(
      /EMAIL send_email binding is not configured/,
    );
  });

  it("knows a well-formed address", () => {
    expect(["a@example.org", "first.last+tag@sub.example.co.jp"].every(isAddress)).toBe(true);
    expect(["a@", "@example.org", "a b@example.org", "a@example", "<a@example.org>"].some(isAddress)).toBe(false);
  });

  it("keeps an address in one form: its domain in ASCII, its local part in NFC and lower case", () => {
    expect(canonicalAddress("J@Müller.DE")).toBe("j@xn--mller-kva.de");
    expect(canonicalAddress(" j@xn--mller-kva.de ")).toBe("j@xn--mller-kva.de");
    // "ö" written as o and a combining diaeresis is the same person as "ö" written as one character.
    expect(canonicalAddress("Jo\u0308rg@example.com")).toBe("jörg@example.com");
    // What the URL parser would read a host out of is no domain.
    for (const bad of ["a@example.com/x", "a@ex%41mple.com", "a@example.com:25", "a@[192.0.2.1]", "a@", "@müller.de"])
      expect(canonicalAddress(bad), bad).toBeUndefined();
  });
});
