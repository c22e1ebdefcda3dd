// `npm run bench -- reads [ref]`: the operator console's conversation reads of the working tree beside a baseline
// (a git ref, default HEAD), in one run: both started with `wrangler dev` (the runtime's own address, without the
// proxy), seeded alike through the API (BENCH_CONVERSATIONS conversations, default 300, with labels and, every other
// one, an assignee), then each read asked BENCH_READS times (default 400), alternating the sides request by request
// so both see the same machine. Prints p50/p95 per read and side and the working/baseline ratio of the p50s: for the
// reads the data plane's move splits in two (docs/scale.md §5 step 4), "reads as fast as today" is this ratio.
import { baselineCheckout, median, percentile, startServer, stopServers, LOCAL_LLM } from "./lib.mjs";

const PORT = Number(process.env.BENCH_PORT ?? 8861);
const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 300);
const READS = Number(process.env.BENCH_READS ?? 400);
/** The built-in local model: the reads need an assistant, not its answers. */

/** One server with an assistant's web inbox, three labels and CONVERSATIONS conversations. */
async function prepare(name, root, [port, inspectorPort]) {
  const server = await startServer({ root, port, inspectorPort, devtools: false });
  const api = server.api;
  const me = await api("/users/current/", { method: "GET" });
  const bot = await api("/chatbots/", { body: { name: "Reads bench", largeLanguageModel: LOCAL_LLM } });
  const inbox = await api("/inboxes/", { body: { name: "Site", channelType: "web", chatbot: { id: bot.id } } });
  const labels = [];
  for (const name of ["billing", "refund", "vip"])
    labels.push(await api("/labels/", { body: { name, color: "#1f77b4" } }));
  const ids = [];
  for (let i = 0; i < CONVERSATIONS; i++) {
    const conversation = await api("/conversations/", { body: { webChat: inbox.channel.id, title: `Question ${i}` } });
    ids.push(conversation.id);
    await api(`/conversations/${conversation.id}/labels/`, {
      method: "PUT",
      body: { labelIds: labels.slice(0, 1 + (i % 3)).map((l) => l.id) },
    });
    if (i % 2) await api(`/conversations/${conversation.id}/assign/`, { body: { assigneeId: me.id } });
  }
  return { name, server, ids, inbox: inbox.id, label: labels[2].id };
}

/** The reads, each a path of the API given the side's seeded ids. */
const READS_ASKED = {
  "conversation list (first page, 20)": () => "/conversations/?page_size=20",
  "conversation list, one inbox": (s) => `/conversations/?page_size=20&inbox=${s.inbox}`,
  "conversation list, one label": (s) => `/conversations/?page_size=20&label=${s.label}`,
  "one conversation": (s, i) => `/conversations/${s.ids[i % s.ids.length]}/`,
  "inbox list": () => "/inboxes/",
};

async function timed(side, path) {
  const started = performance.now();
  const res = await fetch(`${side.server.runtime ?? side.server.base}/api/v1${path}`, { headers: side.server.headers });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${side.name}: GET ${path}: ${res.status}`);
  return performance.now() - started;
}

export default async function reads(args) {
  const ref = args[0] ?? "HEAD";
  const checkout = baselineCheckout(ref);
  try {
    console.log(`baseline: ${ref}; working: the working tree; ${CONVERSATIONS} conversations, ${READS} reads each`);
    const sides = [
      await prepare("working", undefined, [PORT, PORT + 1]),
      await prepare("baseline", checkout.dir, [PORT + 2, PORT + 3]),
    ];
    for (const [read, path] of Object.entries(READS_ASKED)) {
      for (const side of sides) for (let i = 0; i < 20; i++) await timed(side, path(side, i)); // warm up
      const times = { working: [], baseline: [] };
      for (let i = 0; i < READS; i++)
        for (const side of i % 2 ? sides : [...sides].reverse())
          times[side.name].push(await timed(side, path(side, i)));
      const [w, b] = [times.working, times.baseline];
      console.log(
        `${read}: working p50 ${median(w).toFixed(2)} ms, p95 ${percentile(w, 95).toFixed(2)}; baseline p50 ` +
          `${median(b).toFixed(2)} ms, p95 ${percentile(b, 95).toFixed(2)}; ratio of p50s ` +
          `${(median(w) / median(b)).toFixed(2)}x`,
      );
    }
  } finally {
    await stopServers();
    checkout.remove();
  }
}
