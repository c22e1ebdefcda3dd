// The e-mail inboxes' outbox in tests: the worker's EMAIL binding (wrangler.toml `[[send_email]]`)
// is a service binding to this worker (vitest.config.ts), which keeps every message sent and hands
// it on to Miniflare's own send_email binding (REAL), so the local binding still checks it as it
// does for `wrangler dev` (a From header matching the envelope sender, a Message-ID, no Received
// header, a message it can parse) and its answer ({messageId}, the id it gives the message) is ours.
// Miniflare's binding keeps what it sends in its own store and temporary .eml files, which a test in
// the Workers pool cannot read; `sent(to)` here is what the tests assert on. A recipient whose address
// starts with "refused-" goes to a binding that may send to nobody else (REFUSING,
// allowedDestinationAddresses), so the tests see Miniflare refuse it as Email Service would.
import { WorkerEntrypoint } from "cloudflare:workers";
import { EmailMessage } from "cloudflare:email";

/** @type {{ from: string, to: string, raw: string, messageId: string }[]} */
const sent = [];

// Miniflare's EmailMessage is a plain object carrying the raw message under this key (its
// workers/email/email.worker.ts); a plain object crosses the service binding as it is.
const RAW = "EmailMessage::raw";

export class Outbox extends WorkerEntrypoint {
  /** EmailMessage's send, as SendEmail.send. */
  async send(message) {
    const raw = await new Response(message[RAW] ?? message.raw).text();
    const binding = /^refused-/i.test(message.to) ? this.env.REFUSING : this.env.REAL;
    const result = await binding.send(new EmailMessage(message.from, message.to, raw));
    const messageId = result?.messageId ?? "";
    // An RPC result, disposed of once read (workerd warns otherwise).
    result?.[Symbol.dispose]?.();
    sent.push({ from: message.from, to: message.to, raw, messageId });
    return { messageId };
  }

  /** The messages sent to `to` (every message without it), oldest first. */
  sent(to) {
    return sent.filter((m) => to === undefined || m.to.toLowerCase() === to.toLowerCase());
  }
}

export default { fetch: () => new Response("the e-mail outbox of the tests", { status: 404 }) };
