// `npm run bench -- webhooks`: 1,000 visitor messages into 10 conversations (10 inboxes, each with
// 3 enabled webhooks) delivered through the queue to a local receiver. Prints deliveries/s, p50 and
// p95 from message creation to receipt, and the lost and duplicated deliveries (target: 0 and 0).
import { startServer, percentile, LOCAL_LLM } from "./lib.mjs";
import { startReceiver } from "../test/support/webhook-receiver.mjs";

const CONVERSATIONS = 10;
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1000);
const WEBHOOKS_PER_INBOX = 3;
const DRAIN_TIMEOUT_MS = 180_000;

export default async function () {
  const receiver = await startReceiver();
  const server = await startServer({ vars: { WEBHOOK_ALLOWED_HOSTS: new URL(receiver.url).host } });
  const api = async (path, body, method = "POST") => {
    const res = await fetch(`${server.base}/api/v1${path}`, {
      method,
      headers: { ...server.headers, "Content-Type": "application/json" },
      body: body && JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  try {
    const [organization] = await (
      await fetch(`${server.base}/api/v1/organizations/?pagination=false`, { headers: server.headers })
    ).json();
    await api(`/organizations/${organization.id}/`, { planId: "enterprise" }, "PATCH"); // room for 10 assistants
    const conversations = [];
    for (let i = 0; i < CONVERSATIONS; i++) {
      const bot = await api("/chatbots/", {
        name: `Bench bot ${i}`,
        largeLanguageModel: LOCAL_LLM,
      });
      for (let w = 0; w < WEBHOOKS_PER_INBOX; w++) {
        await api(`/inboxes/${bot.defaultInbox.id}/webhooks/`, {
          name: `hook ${w}`,
          direction: "incoming",
          url: `${receiver.url}/ok/${bot.id}/${w}`,
          secretToken: "bench-secret",
        });
      }
      const { conversationId } = await api(`/chatbots/${bot.id}/completions/`, { message: { content: "start" } });
      // Visitors only: the conversations are with a human, so each message is one incoming event.
      await api(`/conversations/${conversationId}/update-auto-reply/`, { autoReplyEnabled: false }, "PATCH");
      conversations.push(conversationId);
    }
    receiver.requests.length = 0;

    const created = new Map();
    const started = performance.now();
    await Promise.all(
      conversations.map(async (conversation, c) => {
        for (let i = c; i < MESSAGES; i += CONVERSATIONS) {
          const message = await api("/messages/", { conversation, content: `message ${i}` });
          created.set(message.id, Number(message.createdAt));
        }
      }),
    );
    const postSeconds = (performance.now() - started) / 1000;
    const expected = MESSAGES * WEBHOOKS_PER_INBOX;
    const deadline = Date.now() + DRAIN_TIMEOUT_MS;
    while (receiver.requests.length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    await new Promise((r) => setTimeout(r, 2000)); // late duplicates would show up here

    const seen = new Map();
    const latencies = [];
    for (const r of receiver.requests) {
      const id = JSON.parse(r.body).id;
      const key = `${id} ${r.path}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      if (created.has(id)) latencies.push(r.receivedAt - created.get(id));
    }
    const delivered = [...seen.keys()].filter((k) => created.has(k.split(" ")[0])).length;
    const duplicated = [...seen.values()].filter((n) => n > 1).reduce((a, n) => a + n - 1, 0);
    const lastReceipt = Math.max(...receiver.requests.map((r) => r.receivedAt));
    const firstCreated = Math.min(...created.values());
    console.log(
      `${MESSAGES} messages into ${CONVERSATIONS} conversations, ${WEBHOOKS_PER_INBOX} webhooks each: ` +
        `${expected} deliveries expected`,
    );
    console.log(`messages posted in ${postSeconds.toFixed(1)} s (${(MESSAGES / postSeconds).toFixed(0)} messages/s)`);
    console.log(
      `deliveries: ${receiver.requests.length} in ${((lastReceipt - firstCreated) / 1000).toFixed(1)} s = ` +
        `${(receiver.requests.length / ((lastReceipt - firstCreated) / 1000)).toFixed(0)} deliveries/s`,
    );
    console.log(
      `message creation to receipt: p50 ${percentile(latencies, 50)} ms, p95 ${percentile(latencies, 95)} ms`,
    );
    console.log(`lost: ${expected - delivered}, duplicated: ${duplicated} (target 0 and 0)`);
    if (expected - delivered || duplicated) process.exitCode = 1;
  } finally {
    await server.stop();
    await receiver.close();
  }
}
