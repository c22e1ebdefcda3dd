// A webhook whose stored row the delivery consumer cannot read (its headers are damaged in D1 behind
// the service's back), beside a healthy webhook of the same inbox: the healthy one must get every
// event, and every attempt of the damaged one must end in the dead-letter queue, whose consumer
// records it as a failed attempt (after the consumer's 4 tries: 5 + 10 + 20 s of retry delays).
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { drain, outcome, postEvents, prepareReceiver, setUp } from "./_webhooks.mjs";

const EVENTS = Number(process.env.CHAOS_EVENTS ?? 200);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export const description =
  `a webhook row the delivery consumer cannot read (poison) beside a healthy one, ${EVENTS} events: dead-letter ` +
  `queue`;
export const prepare = () => prepareReceiver();

/** SQL on the running server's local D1 (wrangler's own client, as an operator would). */
function d1(state, command) {
  const run = spawnSync(
    "wrangler",
    ["d1", "execute", "DB", "--local", "--persist-to", state, "--json", "--command", command],
    { cwd: root, encoding: "utf8" },
  );
  if (run.status !== 0) throw new Error(`wrangler d1 execute: ${run.stderr || run.stdout}`);
  return JSON.parse(run.stdout)[0].results;
}

export default async function (ctx) {
  const { receiver, server, log } = ctx;
  const world = await setUp(ctx, 10, [
    { key: "healthy", retry: false },
    { key: "poisoned", retry: false },
  ]);
  const poisoned = world.webhookIds.poisoned;
  d1(server.state, `UPDATE webhooks SET headers = '{damaged' WHERE id = '${poisoned}'`);
  const started = Date.now();
  const events = await postEvents(ctx, world.conversations, EVENTS);
  log(`${events.size} events posted; waiting for the dead-letter queue`);
  await drain(receiver, "healthy", events, started + 5 * 60_000);
  let recorded = 0;
  let settledAt = started;
  for (const deadline = started + 5 * 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 2000))) {
    [{ n: recorded }] = d1(
      server.state,
      `SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id = '${poisoned}' AND status = 'failure' ` +
        `AND error LIKE '%dead-lettered%'`,
    );
    settledAt = Date.now();
    if (recorded >= events.size) break;
  }
  const healthy = outcome(receiver, "healthy", events, started);
  const unaccounted = events.size - recorded;
  return [
    {
      fault: "webhook row the consumer cannot read: a healthy webhook beside it",
      ...healthy,
      recovery: `all in ${healthy.recovery} from the first event`,
    },
    {
      fault: "webhook row the consumer cannot read: its attempts",
      operations: events.size,
      lost: unaccounted,
      duplicated: 0,
      recovery: `${((settledAt - started) / 1000).toFixed(1)} s until all recorded as dead-lettered`,
      note:
        `${recorded} attempts recorded as failed by the dead-letter consumer; none was sent (nothing reached ` +
        `/switch/poisoned: ${receiver.requests.filter((r) => r.path.startsWith("/switch/poisoned")).length} ` +
        `requests)`,
    },
  ];
}
