// E-mail inboxes (CONTRACT section 17): mail reaches the Worker's `email` handler through Cloudflare
// Email Routing (email-handler.ts), never the webhook route; replies leave through the `send_email`
// binding EMAIL (wrangler.toml) as raw MIME with the thread's headers, so a mail client shows the
// conversation as one thread and the visitor's answer comes back into the same conversation.
import { EmailMessage } from "cloudflare:email";
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { Email, Mailbox } from "postal-mime";
import { getDb } from "../../db";
import { inboxChannels } from "../../db/schema";
import type { Bindings } from "../../env";
import { ApiError } from "../../lib/errors";
import { toBase64 } from "../../lib/base64";
import { vendored } from "../../vendored";
import {
  bareSubject,
  forwardedText,
  htmlToText,
  isForward,
  messageIds,
  newText,
  replyMime,
  replySubject,
  toEmailHtml,
} from "./email-mime";
import { canSendTo, canonicalAddress, isAddress, isMachineAddress } from "./email-address";
import { automatic } from "./email-automatic";
import { toPlainText, withCitations } from "./markdown";
import {
  PlatformError,
  sendInOrder,
  type ChannelAdapter,
  type InboundAttachment,
  type InboundAttachmentKind,
  type InboundEvent,
  type PlatformContext,
} from "./types";

/**
 * What a reply needs from the message it answers (InboundEvent.thread, kept by the core with the
 * thread): its subject, its Message-ID (In-Reply-To) and the References to carry on, and who wrote it.
 */
export interface EmailThread {
  subject: string;
  messageId: string;
  references: string[];
  /** The address the reply goes to (the contact's) and their name. */
  address: string;
  name?: string;
}

/** Base64 carried in one event (stored as a row of channel_events, where D1 keeps at most 2 MB a value). */
const INLINE_BUDGET = 1_400_000;
/**
 * Characters of a mail's text that its message holds: a message's content is at most 32,000 characters (as the API's
 * and the widget's, routes/messages/schema.ts), less room for the notes said after the text.
 */
const MAX_TEXT = 30_000;
/** References kept in a reply: the thread's root and the latest ones (Cloudflare refuses more than 100). */
const MAX_REFERENCES = 20;

const kindOf = (mime: string): InboundAttachmentKind => {
  const top = mime.split("/")[0];
  return top === "image" || top === "audio" || top === "video" ? top : "file";
};

/** The Message-ID the message has, or one made from its bytes (the same message gets the same id). */
async function eventIdOf(mail: Email, raw: string | ArrayBuffer): Promise<string> {
  const own = messageIds(mail.messageId)[0];
  if (own) return own;
  const bytes = typeof raw === "string" ? new TextEncoder().encode(raw) : raw;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return `<${[...digest.slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("")}@no-message-id>`;
}

/**
 * The person a message is from, the contact its answers go to (RFC 5322 3.6.2): the first Reply-To mailbox when the
 * message has one, else From (else Sender). A website's contact form mails from the shop's own or a no-reply address
 * with the customer in Reply-To. The name is that mailbox's, else another field's for the same address, never the
 * name of a different address (the form's "Website"). With none of them usable (no From, a group, a From that is
 * no address), the envelope sender (`envelope`, SMTP's MAIL FROM): the person's server gave it, and without it the
 * mail was set aside unanswered. Not a bounce's (empty, "<>") nor a mailer-daemon's or postmaster's: a machine's.
 * With no one at all, the mail is refused (`readMail`). Each address in its one form (`canonicalAddress`): an
 * internationalised domain was no address, and the mail went to the envelope sender (a forwarder's) or was set aside.
 */
function personOf(mail: Email, envelope = ""): { address: string; name?: string } | undefined {
  const returnPath = envelope.trim().replace(/^<(.*)>$/, "$1");
  const fallback = returnPath && !isMachineAddress(returnPath) ? { address: returnPath } : undefined;
  const mailboxes = [...(mail.replyTo ?? []), mail.from, mail.sender, fallback]
    .filter((a): a is Mailbox | { address: string } => !!a && "address" in a && !!a.address)
    .map((m) => ({ address: canonicalAddress(m.address), name: "name" in m ? m.name : undefined }))
    .filter((m): m is { address: string; name: string | undefined } => !!m.address);
  if (!mailboxes.length) return undefined;
  const { address } = mailboxes[0];
  const name = mailboxes.find((m) => m.address === address && m.name)?.name;
  return { address, ...(name ? { name } : {}) };
}

/** A message left out on purpose: its id and why, kept as its event's row says (email-handler.ts). */
export interface DroppedEmail {
  eventId: string;
  reason: string;
  at?: number;
}

/**
 * What one message is: an event, and whether it came From the inbox's own address; or left out, and why; or refused,
 * and why: a mail with no address to answer at all, which the handler refuses at SMTP (`setReject`), so the server
 * that brought it tells its sender, rather than keeping what no one can be answered about.
 */
export type ReadEmail = { event: InboundEvent; fromInbox: boolean } | { dropped: DroppedEmail } | { refused: string };

/** Reads one message into its event (none when it is not to be answered): `readMail`'s answer, for the adapter. */
export async function readEmail(raw: string | ArrayBuffer, inboxAddress?: string): Promise<InboundEvent[]> {
  const read = await readMail(raw, inboxAddress);
  return "event" in read ? [read.event] : [];
}

/**
 * Reads one message (the raw MIME as Email Routing delivered it: its bytes, which postal-mime decodes in each part's
 * own charset; a string is taken as UTF-8), with its envelope sender when it came by SMTP. Its thread (`threadKey`)
 * is the thread's root Message-ID; the chat is that root and the person together (email-handler.ts `chatOf`).
 */
export async function readMail(
  raw: string | ArrayBuffer,
  inboxAddress?: string,
  envelopeSender?: string,
): Promise<ReadEmail> {
  const { default: PostalMime } = await vendored("postalMime");
  let mail: Email;
  try {
    mail = await PostalMime.parse(raw, { attachmentEncoding: "base64" });
  } catch (err) {
    throw new ApiError(
      400,
      "invalid",
      `not a readable e-mail message: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const eventId = await eventIdOf(mail, raw);
  const parsedAt = mail.date ? Date.parse(mail.date) : NaN;
  const at = Number.isFinite(parsedAt) ? parsedAt : undefined;
  const leftOut = (reason: string): ReadEmail => ({
    dropped: { eventId, reason, ...(at === undefined ? {} : { at }) },
  });
  const person = personOf(mail, envelopeSender);
  if (!person) return { refused: "No address to answer: no valid Reply-To, From, Sender or envelope sender." };
  if (automatic(mail))
    return leftOut("An auto-reply, list mail or bounce: not answered, so that two robots never write to each other.");
  const inbox = inboxAddress && (canonicalAddress(inboxAddress) ?? inboxAddress.trim().toLowerCase());
  // Answers would go to the inbox itself: a mail the inbox sent (ours carry no Reply-To), or one written for it (a
  // mailing sent from its address, a colleague's mail asking for answers at it). From the inbox's address with someone
  // else in Reply-To (a website's form) is that person's; the handler still leaves out one of our own replies.
  if (person.address === inbox) return leftOut("Answers would go to this inbox's own address: not answered.");
  const from = mail.from && "address" in mail.from ? canonicalAddress(mail.from.address ?? "") : undefined;
  const { address } = person;

  const references = messageIds(mail.references);
  const inReplyTo = messageIds(mail.inReplyTo)[0];
  // The thread's first message: the root every reply names first in References, so an answer to our
  // answer comes back to the same conversation.
  const threadKey = references[0] ?? inReplyTo ?? eventId;

  const attachments: InboundAttachment[] = [];
  const dropped: string[] = [];
  let budget = INLINE_BUDGET;
  mail.attachments.forEach((a, i) => {
    const content = typeof a.content === "string" ? a.content : "";
    const filename = a.filename ?? `attachment-${i + 1}`;
    if (!content) return;
    if (content.length > budget) {
      dropped.push(filename);
      return;
    }
    budget -= content.length;
    attachments.push({
      kind: kindOf(a.mimeType),
      ref: a.contentId ?? filename,
      filename,
      contentType: a.mimeType,
      inline: content,
    });
  });

  // A forward is what it forwards: its header block and the mail under it are no history of this thread.
  const forward = isForward(mail.subject);
  const body = mail.text ?? (mail.html ? htmlToText(mail.html, forward) : "");
  let text = forward ? forwardedText(body) : newText(body);
  // A question written in the subject alone.
  if (!text && !attachments.length) text = bareSubject(mail.subject);
  // A text past what a message holds is cut, saying so: whole as a file of the message when it fits in the event.
  if (text.length > MAX_TEXT) {
    const kept = cut(text, MAX_TEXT);
    const whole = wholeText(text, budget);
    if (whole) attachments.push(whole);
    const rest = (text.length - kept.length).toLocaleString("en-US");
    text = `${kept}\n\n${
      whole
        ? `(The message goes on: the whole of it is in ${whole.filename}.)`
        : `(The message goes on for ${rest} more characters, too many to keep.)`
    }`;
  }
  if (dropped.length) text += `${text ? "\n\n" : ""}(Attachments too large to keep: ${dropped.join(", ")})`;
  if (!text && !attachments.length) return leftOut("Nothing to read: no text, no subject and no file.");

  const thread = {
    subject: mail.subject ?? "",
    messageId: eventId,
    // What the reply's References carry on: the thread so far (the parent's References, else its
    // In-Reply-To, RFC 5322 3.6.4) and this message.
    references: [
      ...(references.length ? references : inReplyTo ? [inReplyTo] : []).filter((id) => id !== eventId),
      eventId,
    ],
    address,
    ...(person.name ? { name: person.name } : {}),
  } satisfies EmailThread;
  return {
    event: {
      eventId,
      threadKey,
      sender: { id: address, email: address, ...(person.name ? { name: person.name } : {}) },
      text,
      attachments,
      thread,
      ...(at === undefined ? {} : { at }),
    },
    fromInbox: !!inbox && from === inbox,
  };
}

/**
 * A mail's text too long for its message, whole as a file of the message (message.txt), when it fits in what is left of
 * the event's inline bytes (`budget`, base64); else none, and the message says how much is not kept. Neither the text
 * past the cut nor the raw message is kept anywhere else.
 */
function wholeText(text: string, budget: number): InboundAttachment | null {
  const bytes = new TextEncoder().encode(text);
  if (Math.ceil(bytes.byteLength / 3) * 4 > budget) return null;
  const filename = "message.txt";
  return { kind: "file", ref: filename, filename, contentType: "text/plain; charset=utf-8", inline: toBase64(bytes) };
}

/** The first `n` characters of `text`, never half of a character written as two (a surrogate pair). */
const cut = (text: string, n: number) => text.slice(0, /[\uD800-\uDBFF]/.test(text[n - 1] ?? "") ? n - 1 : n);

/**
 * The connected e-mail inbox whose address is `to` (case does not matter), if there is one. Only a
 * connected inbox holds its address: saving an address claims nothing, so no inbox (of any
 * organization) takes the mail of an address another inbox answers, and connect refuses it.
 */
export async function emailInboxFor(
  env: Bindings,
  to: string,
  except?: string,
): Promise<{ inboxId: string; organizationId: string } | null> {
  const row = await getDb(env.DB)
    .select({ inboxId: inboxChannels.inboxId, organizationId: inboxChannels.organizationId })
    .from(inboxChannels)
    .where(
      and(
        eq(inboxChannels.channelType, "email"),
        inArray(inboxChannels.status, ["connected", "failing"]),
        sql`lower(json_extract(${inboxChannels.settings}, '$.address')) = ${to.trim().toLowerCase()}`,
        except ? ne(inboxChannels.inboxId, except) : undefined,
      ),
    )
    .get();
  return row ?? null;
}

function threadOf(thread: unknown): EmailThread {
  const t = (thread ?? {}) as Partial<EmailThread>;
  if (typeof t.address !== "string" || !isAddress(t.address))
    throw new PlatformError("this conversation has no e-mail address to answer", 400);
  return {
    subject: typeof t.subject === "string" ? t.subject : "",
    messageId: typeof t.messageId === "string" ? t.messageId : "",
    references: Array.isArray(t.references) ? t.references.filter((r): r is string => typeof r === "string") : [],
    address: t.address,
    name: typeof t.name === "string" ? t.name : undefined,
  };
}

/** Why Email Service refused, and whether trying later can help (a limit, an outage) or not (an address it refuses). */
function refused(err: unknown): PlatformError {
  const said = err instanceof Error ? err.message : String(err);
  const status = /rate.?limit|too many/i.test(said)
    ? 429
    : /timed? ?out|temporar|unavailable|internal error|overloaded|try again/i.test(said)
      ? 503
      : 400;
  return new PlatformError(`Email Service refused the message: ${said}`, status);
}

function sendBinding(ctx: PlatformContext): SendEmail {
  const binding = ctx.env.EMAIL;
  if (!binding || typeof binding.send !== "function")
    throw new PlatformError(
      'the EMAIL send_email binding is not configured (wrangler.toml [[send_email]] name = "EMAIL")',
      400,
    );
  return binding;
}

export const email: ChannelAdapter<Promise<InboundEvent[]>> = {
  platform: "email",
  // Mail comes through the Worker's email handler (Email Routing), never as an HTTP request.
  verify: async () => false,
  parse: (raw, channel) => readEmail(raw, channel.credentials.address),
  async connect(ctx) {
    sendBinding(ctx);
    const address = (ctx.channel.credentials.address ?? "").trim();
    if (!isAddress(address)) throw new PlatformError(`"${address}" is not an e-mail address`, 400);
    const other = await emailInboxFor(ctx.env, address, ctx.channel.inboxId);
    if (other) throw new PlatformError(`${address} already belongs to another inbox (${other.inboxId})`, 409);
    return (
      `Ready: in Cloudflare Email Routing, route ${address} to this Worker (Routing rules > Custom address > ` +
      `Send to a Worker), ` +
      `and onboard ${address.split("@")[1]} to Email Sending so replies can leave from ${address}.`
    );
  },
  async send(ctx, message) {
    const binding = sendBinding(ctx);
    const from = (ctx.channel.credentials.address ?? "").trim();
    if (!isAddress(from)) throw new PlatformError(`the inbox's address "${from}" is not an e-mail address`, 400);
    const thread = threadOf(message.thread);
    // Kept as a failed delivery saying why, not tried again: Email Service would refuse it every time, or lose it.
    if (!canSendTo(thread.address))
      throw new PlatformError(
        `Email Service cannot send to ${thread.address}: the part before the @ is not ASCII, and Cloudflare's ` +
          "e-mail does not carry internationalised addresses (SMTPUTF8, RFC 6531); answer from another mailbox",
        400,
      );
    let markdown = withCitations(message.text, message.citations);
    // Files a human agent attached, as links: the message stays small and every client shows them.
    if (message.attachments.length) {
      const links = message.attachments.map((a) => `- [${a.filename.replace(/[[\]]/g, "")}](${a.url})`);
      markdown += `\n\n${links.join("\n")}`;
    }
    const { references: all } = thread;
    const references = all.length > MAX_REFERENCES ? [all[0], ...all.slice(-(MAX_REFERENCES - 1))] : all;
    const messageId = `<${crypto.randomUUID()}@${from.split("@")[1]}>`;
    const raw = replyMime({
      from,
      fromName: ctx.channel.credentials.fromName?.trim() || message.senderName,
      to: thread.address,
      toName: thread.name,
      subject: replySubject(thread.subject),
      messageId,
      inReplyTo: thread.messageId || undefined,
      references,
      text: toPlainText(markdown),
      html: toEmailHtml(markdown),
      automatic: !message.fromPerson,
    });
    // One message: sent by an earlier attempt, it is not sent again.
    return sendInOrder(message, [raw], async (mime) => {
      let result: EmailSendResult | undefined;
      try {
        result = await binding.send(new EmailMessage(from, thread.address, mime));
      } catch (err) {
        throw refused(err);
      }
      // Email Service may give the message an id of its own (the local binding always does): that is
      // the one the visitor's client will quote.
      return result?.messageId || messageId;
    });
  },
};
