// What a visitor mails, through the Worker's email handler and the channel queue: a message in an 8-bit charset
// other than UTF-8 is read in its own charset (its bytes, not UTF-8's reading of them), one in HTML alone is its
// text, inline pictures and attached files are attachments, and a message with a file alone is kept
// (docs/decisions.md, "Messaging channels", "What a visitor sends is kept").
import { describe, expect, it } from "vitest";
import { seedOwner } from "../harness";
import { PNG_BASE64 } from "../support/email-samples";
import { deliver, emailInbox, mailId, visitorAddress } from "./email-support";
import { messagesWhen, onlyConversation } from "./support";

/** A message's header lines, then its body; CRLF between lines as RFC 5322 has them. */
const mail = (headers: string[], body: string[]) => [...headers, "", ...body, ""].join("\r\n");
const headersOf = (from: string, to: string, subject: string, type: string) => [
  "MIME-Version: 1.0",
  "Date: Tue, 3 Dec 2024 10:00:00 +0100",
  `Message-ID: ${mailId()}`,
  `Subject: ${subject}`,
  `From: Jeanne Visiteuse <${from}>`,
  `To: ${to}`,
  type,
];

async function firstMessage(raw: string | Uint8Array) {
  const owner = await seedOwner();
  const { inboxId, address } = await emailInbox(owner);
  const visitor = visitorAddress();
  const bytes = typeof raw === "string" ? raw.replaceAll("{from}", visitor).replaceAll("{to}", address) : raw;
  expect(await deliver(bytes, visitor, address)).toEqual({ rejected: null });
  const conversation = await onlyConversation(owner, inboxId);
  const [incoming] = await messagesWhen(owner, conversation.id, (m) => m.length >= 1);
  return { owner, incoming, visitor, address };
}

describe("e-mail: what a visitor sends is kept", () => {
  it("a message in ISO-8859-1, 8-bit, is read in its charset", async () => {
    const owner = await seedOwner();
    const { inboxId, address } = await emailInbox(owner);
    const visitor = visitorAddress();
    const head = mail(
      [
        ...headersOf(visitor, address, "Horaires", 'Content-Type: text/plain; charset="iso-8859-1"'),
        "Content-Transfer-Encoding: 8bit",
      ],
      [],
    );
    // "Êtes-vous ouverts à Noël ?" in ISO-8859-1: one byte a letter, bytes that are no UTF-8.
    const latin1 = Uint8Array.from("Êtes-vous ouverts à Noël ?\r\n", (c) => c.charCodeAt(0));
    const raw = new Uint8Array([...new TextEncoder().encode(head), ...latin1]);
    expect(await deliver(raw, visitor, address)).toEqual({ rejected: null });
    const conversation = await onlyConversation(owner, inboxId);
    const [incoming] = await messagesWhen(owner, conversation.id, (m) => m.length >= 1);
    expect(incoming.content).toBe("Êtes-vous ouverts à Noël ?");
  });

  it("a message in HTML alone with a picture inline is its text and the picture", async () => {
    const related = "rel-4f1c";
    const { incoming } = await firstMessage(
      mail(headersOf("{from}", "{to}", "Broken lid", `Content-Type: multipart/related; boundary="${related}"`), [
        `--${related}`,
        'Content-Type: text/html; charset="UTF-8"',
        "",
        '<p>The lid arrived <b>broken</b>:</p><p><img src="cid:lid@photo"></p>',
        `--${related}`,
        "Content-Type: image/png",
        "Content-Transfer-Encoding: base64",
        "Content-ID: <lid@photo>",
        'Content-Disposition: inline; filename="lid.png"',
        "",
        PNG_BASE64,
        `--${related}--`,
      ]),
    );
    expect(incoming.content).toContain("The lid arrived broken:");
    expect(incoming.attachments).toMatchObject([{ type: "image", filename: "lid.png", contentType: "image/png" }]);
  });

  it("a message with a file and no words is kept with its file", async () => {
    const mixed = "mix-77aa";
    const { incoming } = await firstMessage(
      mail(headersOf("{from}", "{to}", "", `Content-Type: multipart/mixed; boundary="${mixed}"`), [
        `--${mixed}`,
        'Content-Type: text/plain; charset="UTF-8"',
        "",
        "",
        `--${mixed}`,
        'Content-Type: text/plain; name="notes.txt"',
        'Content-Disposition: attachment; filename="notes.txt"',
        "Content-Transfer-Encoding: base64",
        "",
        btoa("Order 1234: lid broken"),
        `--${mixed}--`,
      ]),
    );
    expect(incoming.attachments).toMatchObject([{ filename: "notes.txt", contentType: "text/plain" }]);
  });
});
