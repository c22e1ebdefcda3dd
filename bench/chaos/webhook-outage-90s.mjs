// A webhook receiver down for 90 seconds of real time, on the real retry schedule: every event must
// arrive within 10 minutes of its return. Takes up to about 12 minutes.
import { prepareReceiver } from "./_webhooks.mjs";
import { outage } from "./_webhooks-outage.mjs";

const EVENTS = Number(process.env.CHAOS_EVENTS ?? 300);

export const description =
  "webhook receiver answering 503 for 90 s of real time, " + `${EVENTS} events posted during the first 60 s`;
export const long = true;
export const prepare = () => prepareReceiver();

export default (ctx) =>
  outage(ctx, { events: EVENTS, outageMs: 90_000, postOverMs: 60_000, label: "receiver down 90 s (real time)" });
