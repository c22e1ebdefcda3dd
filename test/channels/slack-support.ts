// Slack's side of its end-to-end tests (slack.test.ts, slack-kinds.test.ts): events in the shape of the Events API,
// signed by its stand-in (test/support/platforms/slack.mjs) with the app's signing secret.
import { seedOwner, unique } from "../harness";
import { slackEnvelope } from "../support/slack-events";
import { channelInbox, post, standIn } from "./support";

export const slack = standIn("slack");
export const SIGNING_SECRET = "8f742231b10e8888abcd99yyyzzz85a5";
const newToken = () => `xoxb-${unique("bot").replace(/[^A-Za-z0-9-]/g, "")}`;
export const credentials = (botToken: string) => ({ botToken, signingSecret: SIGNING_SECRET });

let clock = Math.floor(Date.now() / 1000) * 1_000_000;
/** A message's ts in Slack's format: epoch seconds, a dot, six digits; each one new. */
export const nextTs = () => {
  clock += 1;
  return `${Math.floor(clock / 1_000_000)}.${String(clock % 1_000_000).padStart(6, "0")}`;
};

/** A new event, to the stand-in's bot user. */
export const envelope = (event: Record<string, unknown>) =>
  slackEnvelope(event, {
    botUserId: "U0BOTU5ER",
    eventId: `Ev${unique("")
      .replace(/[^A-Za-z0-9]/g, "")
      .toUpperCase()}`,
    eventTime: Math.floor(Date.now() / 1000),
  });
/** A direct message from Egon Spengler (Slack's example user) to the app. */
export const dm = (text: string, extra: Record<string, unknown> = {}) => {
  const ts = nextTs();
  return envelope({
    type: "message",
    channel: "D024BE91L",
    user: "U2147483697",
    text,
    ts,
    event_ts: ts,
    channel_type: "im",
    ...extra,
  });
};
export const signed = (body: unknown, extra: Record<string, unknown> = {}) =>
  slack.sign({ signingSecret: SIGNING_SECRET, body, ...extra });
export const posted = async (token: string) =>
  (await slack.requests(token)).filter((r) => r.path === "/api/chat.postMessage");

/** A new owner with a Slack inbox of a new bot token, connected. */
export async function slackInbox() {
  const owner = await seedOwner();
  const token = newToken();
  const inbox = await channelInbox(owner, "slack", credentials(token));
  /** Posts Egon's direct message `text` to the inbox's webhook, signed. */
  const sayDm = async (text: string) => post(inbox.path, await signed(dm(text)));
  return { owner, token, inbox, sayDm };
}
