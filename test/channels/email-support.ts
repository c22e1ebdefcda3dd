// E-mail's side of its end-to-end tests (email.test.ts, email-kinds.test.ts): a raw message handed to the Worker's
// email handler as Email Routing hands it, and what the EMAIL binding was given (test/support/email-outbox.mjs).
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../src/index";
import { unique, type Actor } from "../harness";
import { channelInbox, eventually } from "./support";

export type Sent = { from: string; to: string; raw: string; messageId: string };

/** A message the way Email Routing gives it to the email handler; what the handler said (setReject). */
export async function deliver(
  raw: string | Uint8Array,
  from: string,
  to: string,
): Promise<{ rejected: string | null }> {
  let rejected: string | null = null;
  const bytes = typeof raw === "string" ? new TextEncoder().encode(raw) : raw;
  const head = new TextDecoder().decode(bytes).split("\r\n\r\n")[0];
  const message: ForwardableEmailMessage = {
    from,
    to,
    raw: new Response(bytes).body!,
    rawSize: bytes.byteLength,
    headers: new Headers([...head.matchAll(/^([\w-]+):\s*(.*)$/gm)].map((m) => [m[1], m[2]] as [string, string])),
    canBeForwarded: true,
    setReject: (reason: string) => void (rejected = reason),
    forward: () => Promise.reject(new Error("not forwarded in these tests")),
    reply: () => Promise.reject(new Error("replies go through the EMAIL binding")),
  };
  const ctx = createExecutionContext();
  await worker.email!(message, env, ctx);
  await waitOnExecutionContext(ctx);
  return { rejected };
}

export const sentTo = (address: string): Promise<Sent[]> => env.TEST_EMAIL_OUTBOX.sent(address);
/** What the binding was given for `address`, once there are `count` messages. */
export const replies = (address: string, count: number) =>
  eventually(async () => ((await sentTo(address)).length >= count ? sentTo(address) : null));

export async function emailInbox(owner: Actor) {
  const address = `${unique("support")}@shop.example`.toLowerCase();
  const inbox = await channelInbox(owner, "email", { address, fromName: "Shop Support" });
  return { ...inbox, address };
}

export const visitorAddress = () => `${unique("jane")}@example.com`.toLowerCase();
export const mailId = () => `<${crypto.randomUUID()}@mail.example.com>`;

/** A plain-text message from `from` to `to`, its body's lines as given, `extra` header lines before its type. */
export const plain = (from: string, to: string, subject: string, body: string[], extra: string[] = []) =>
  [
    "MIME-Version: 1.0",
    "Date: Tue, 3 Dec 2024 10:00:00 +0800",
    `Message-ID: ${mailId()}`,
    `Subject: ${subject}`,
    `From: Visitor <${from}>`,
    `To: ${to}`,
    ...extra,
    'Content-Type: text/plain; charset="UTF-8"',
    "Content-Transfer-Encoding: 8bit",
    "",
    ...body,
    "",
  ].join("\r\n");
