// One webhook outage, played by the two webhook outage scenarios: the receiver answers 503 for
// `outageMs` while visitors post `events` messages (over `postOverMs`), then comes back. Two webhooks
// of the inbox see it: one with retryFailedDeliveries, one without, for which one redeliver-failed
// call is made when the receiver is back. Every event must reach each within 10 minutes of that.
import { drain, outcome, postEvents, setUp } from "./_webhooks.mjs";

const KEYS = { retry: "retrying", manual: "redeliver-failed" };
const WAIT_AFTER_BACK_MS = 10 * 60_000;

export async function outage(ctx, { events: n, outageMs, postOverMs = 0, scale = 1, label }) {
  const { receiver, api, request, log } = ctx;
  for (const key of Object.values(KEYS)) receiver.setMode(key, "down");
  const world = await setUp(ctx, 10, [
    { key: KEYS.retry, retry: true },
    { key: KEYS.manual, retry: false },
  ]);
  const downAt = Date.now();
  const backAt = downAt + outageMs;
  const events = await postEvents(ctx, world.conversations, n, postOverMs);
  log(
    `${events.size} events posted in ${((Date.now() - downAt) / 1000).toFixed(1)} s; the receiver answers 503 ` +
      `for ${(outageMs / 1000).toFixed(0)} s`,
  );
  if (Date.now() > backAt) log("warning: posting outlasted the outage");
  await new Promise((r) => setTimeout(r, Math.max(0, backAt - Date.now())));
  for (const key of Object.values(KEYS)) receiver.setMode(key, "ok");
  const { count } = await api(
    "POST",
    `/inboxes/${world.inboxId}/webhooks/${world.webhookIds[KEYS.manual]}/redeliver-failed/`,
  );
  log(`receiver back; redeliver-failed queued ${count} events`);
  for (const key of Object.values(KEYS)) await drain(receiver, key, events, backAt + WAIT_AFTER_BACK_MS);
  // The 503s of the outage stay visible as attempts of their own.
  const records = async (key, status) =>
    (
      await request(
        "GET",
        `/inboxes/${world.inboxId}/webhooks/${world.webhookIds[key]}/records/?status=${status}&pageSize=1`,
      )
    ).json?.count;
  const note = async (key) =>
    `${await records(key, "success")} successful and ${await records(key, "failure")} failed attempts recorded`;
  return [
    {
      fault: `${label}, retries on`,
      ...outcome(receiver, KEYS.retry, events, backAt, scale),
      note: await note(KEYS.retry),
    },
    {
      fault: `${label}, retries off + redeliver-failed`,
      ...outcome(receiver, KEYS.manual, events, backAt),
      note: await note(KEYS.manual),
    },
  ];
}
