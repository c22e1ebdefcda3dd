// Raw messages in the form Email Routing hands them to the Worker's email handler: RFC 5322's own examples
// (Appendix A.2 and A.3, a message, its reply and the reply to that), the sample of Cloudflare's
// "Email Workers: local development" page, and one in the form Gmail writes a reply (multipart/alternative,
// the history quoted under "On ... wrote:", a picture attached).

/** RFC 5322 A.2: John's message to Mary. */
export const RFC5322_HELLO = [
  "From: John Doe <jdoe@machine.example>",
  "To: Mary Smith <mary@example.net>",
  "Subject: Saying Hello",
  "Date: Fri, 21 Nov 1997 09:55:06 -0600",
  "Message-ID: <1234@local.machine.example>",
  "",
  "This is a message just to say hello.",
  'So, "Hello".',
  "",
].join("\r\n");

/** RFC 5322 A.2: Mary's reply, threaded by In-Reply-To and References. */
export const RFC5322_REPLY = [
  "From: Mary Smith <mary@example.net>",
  "To: John Doe <jdoe@machine.example>",
  'Reply-To: "Mary Smith: Personal Account" <smith@home.example>',
  "Subject: Re: Saying Hello",
  "Date: Fri, 21 Nov 1997 10:01:10 -0600",
  "Message-ID: <3456@example.net>",
  "In-Reply-To: <1234@local.machine.example>",
  "References: <1234@local.machine.example>",
  "",
  "This is a reply to your hello.",
  "",
].join("\r\n");

/** RFC 5322 A.2: John's reply to the reply. */
export const RFC5322_REPLY_TO_REPLY = [
  'To: "Mary Smith: Personal Account" <smith@home.example>',
  "From: John Doe <jdoe@machine.example>",
  "Subject: Re: Saying Hello",
  "Date: Fri, 21 Nov 1997 11:00:00 -0600",
  "Message-ID: <abcd.1234@local.machine.example>",
  "In-Reply-To: <3456@example.net>",
  "References: <1234@local.machine.example> <3456@example.net>",
  "",
  "This is a reply to your reply.",
  "",
].join("\r\n");

/** Cloudflare's local development page (Email Workers), as it is posted to the local email endpoint. */
export const CLOUDFLARE_LOCAL_SAMPLE = [
  "Received: from smtp.example.com (127.0.0.1)",
  "        by cloudflare-email.com (unknown) id 4fwwffRXOpyR",
  "        for <recipient@example.com>; Tue, 27 Aug 2024 15:50:20 +0000",
  'From: "John" <sender@example.com>',
  "Reply-To: sender@example.com",
  "To: recipient@example.com",
  "Subject: Testing Email Workers Local Dev",
  'Content-Type: text/html; charset="windows-1252"',
  "X-Mailer: Curl",
  "Date: Tue, 27 Aug 2024 08:49:44 -0700",
  "Message-ID: <6114391943504294873000@ZSH-GHOSTTY>",
  "",
  "Hi there",
  "",
].join("\r\n");

/** A 1x1 PNG. */
export const PNG_BASE64 =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/** A reply in the form Gmail writes one: text and HTML, the history quoted, a picture attached. */
export interface GmailReply {
  from: string;
  name?: string;
  to: string;
  messageId: string;
  inReplyTo?: string;
  references?: string[];
  subject?: string;
  text: string;
  /** Without the picture. */
  noAttachment?: boolean;
}

export function gmailReply(o: GmailReply) {
  const boundary = "000000000000a1b2c3d4e5f6";
  const alt = "000000000000a1b2c3d4e5f7";
  const refs = o.references ?? (o.inReplyTo ? [o.inReplyTo] : []);
  return [
    "MIME-Version: 1.0",
    "Date: Mon, 2 Dec 2024 10:00:00 +0900",
    ...(refs.length ? [`References: ${refs.join(" ")}`] : []),
    ...(o.inReplyTo ? [`In-Reply-To: ${o.inReplyTo}`] : []),
    `Message-ID: ${o.messageId}`,
    `Subject: ${o.subject ?? "Re: Opening hours"}`,
    `From: ${o.name ?? "Jane Visitor"} <${o.from}>`,
    `To: ${o.to}`,
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    `Content-Type: multipart/alternative; boundary="${alt}"`,
    "",
    `--${alt}`,
    'Content-Type: text/plain; charset="UTF-8"',
    "",
    o.text,
    "",
    "On Mon, 2 Dec 2024 at 09:00, Acme Support <support@example.org>",
    "wrote:",
    "",
    "> We are open from 9 to 5.",
    ">",
    "",
    `--${alt}`,
    'Content-Type: text/html; charset="UTF-8"',
    "",
    `<div dir="ltr">${o.text}</div><br><div class="gmail_quote"><blockquote>We are open from 9 to ` +
      `5.</blockquote></div>`,
    "",
    `--${alt}--`,
    ...(o.noAttachment
      ? []
      : [
          `--${boundary}`,
          'Content-Type: image/png; name="photo.png"',
          'Content-Disposition: attachment; filename="photo.png"',
          "Content-Transfer-Encoding: base64",
          "X-Attachment-Id: f_m4a1b2c30",
          "Content-ID: <f_m4a1b2c30>",
          "",
          PNG_BASE64,
        ]),
    `--${boundary}--`,
    "",
  ].join("\r\n");
}
