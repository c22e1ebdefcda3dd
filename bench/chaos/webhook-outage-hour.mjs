// A webhook receiver down for one hour of the retry clock, which runs SCALE times faster
// (WEBHOOK_RETRY_TIME_SCALE; CHAOS_TIME_SCALE, default 60: the hour lasts a minute), with many events.
import { prepareReceiver } from "./_webhooks.mjs";
import { outage } from "./_webhooks-outage.mjs";

const SCALE = Number(process.env.CHAOS_TIME_SCALE ?? 60);
const EVENTS = Number(process.env.CHAOS_EVENTS ?? 1000);

export const description =
  "webhook receiver answering 503 for 1 h on the retry clock " + `(run ${SCALE}x faster), ${EVENTS} events`;
export const prepare = () => prepareReceiver({ WEBHOOK_RETRY_TIME_SCALE: String(SCALE) });

export default (ctx) =>
  outage(ctx, {
    events: EVENTS,
    outageMs: 3_600_000 / SCALE,
    scale: SCALE,
    label: `receiver down 1 h (simulated, ${SCALE}x)`,
  });
