// `npm run bench -- reads [ref]`: the operator console's conversation reads of the working tree beside a baseline
// (a git ref, default HEAD), in one run: both started with `wrangler dev` (the runtime's own address, without the
// proxy), seeded alike through the API (BENCH_CONVERSATIONS conversations, default 300, with labels and, every other
// one, an assignee), then each read asked BENCH_READS times (default 400), alternating the sides request by request
// so both see the same machine. Prints p50/p95 per read and side and the working/baseline ratio of the p50s: for the
// reads the data plane's move splits in two (docs/scale.md §5 step 4), "reads as fast as today" is this ratio.
// Then BENCH_BULK conversations (default 200,000) are written straight into each side's data plane, as a busy
// organization's months leave them (most open with the assistant; a few queued for a person, resolved, a team's,
// tests), and the lists an operator filters are read again: the reads whose cost grows with the organization unless
// an index leads to their page (docs/decisions.md, "The conversation list's indexes").
import { DatabaseSync } from "node:sqlite";
import { baselineCheckout, median, percentile, startServer, stopServers, uuidv7At, LOCAL_LLM } from "./lib.mjs";
import { d1Files } from "../test/support/local-d1.mjs";

const PORT = Number(process.env.BENCH_PORT ?? 8861);
const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 300);
const READS = Number(process.env.BENCH_READS ?? 400);
const BULK = Number(process.env.BENCH_BULK ?? 200_000);
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
  const [organization] = (await api("/organizations/", { method: "GET" })).results;
  const team = await api(`/organizations/${organization.id}/groups/`, {
    body: { name: "Billing team", permissions: [] },
  });
  const rare = await api("/chatbots/", { body: { name: "Returns", largeLanguageModel: LOCAL_LLM } });
  return {
    name,
    root,
    server,
    ids,
    me: me.id,
    bot: bot.id,
    rareBot: rare.id,
    inbox: inbox.id,
    label: labels[2].id,
    labels: labels.map((l) => l.id),
    team: team.id,
  };
}

/**
 * BULK conversations newer than the API's, in the data plane holding the side's conversations, with the server
 * stopped: one in 500 queued for a person (a fifth of those for the team), one in 125 served by a person, one in 11
 * resolved, one in 1,000 a test and one in 1,000 another assistant's; a label on one in three, another on one in
 * 1,000; the rest open with the first assistant. Then the server starts again on that state.
 */
async function seedBulk(side) {
  await side.server.stop({ keep: true });
  const files = [...d1Files(side.server.state, side.root ?? ".").values()];
  const file = files.find((f) => {
    const db = new DatabaseSync(f, { readOnly: true });
    try {
      return (
        db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'conversations'").get() &&
        db.prepare("SELECT 1 FROM conversations WHERE id = ?").get(side.ids[0])
      );
    } finally {
      db.close();
    }
  });
  const db = new DatabaseSync(file);
  const { organization_id: org } = db
    .prepare("SELECT organization_id FROM conversations WHERE id = ?")
    .get(side.ids[0]);
  const insert = db.prepare(
    "INSERT INTO conversations (id, organization_id, inbox_id, chatbot_id, title, status, progress_status, " +
      "assignee_id, team_id, waiting_since, is_test, last_message, last_message_at, created_at, updated_at) " +
      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const link = db.prepare(
    "INSERT INTO conversation_labels (conversation_id, label_id, organization_id, created_at) VALUES (?, ?, ?, ?)",
  );
  const started = Date.now();
  db.exec("BEGIN");
  for (let i = 0; i < BULK; i++) {
    const at = started + i;
    const id = uuidv7At(at);
    const [status, progress, assignee, team, waiting] =
      i % 500 === 0
        ? ["queued", "waiting_for_human", null, i % 2500 === 0 ? side.team : null, at]
        : i % 125 === 0
          ? ["open", "human_serving", side.me, null, null]
          : i % 11 === 0
            ? ["resolved", "resolved", side.me, null, null]
            : ["open", "ai_processing", null, null, null];
    insert.run(
      id,
      org,
      side.inbox,
      i % 1000 === 500 ? side.rareBot : side.bot,
      `Bulk ${i}`,
      status,
      progress,
      assignee,
      team,
      waiting,
      i % 1000 === 999 ? 1 : 0,
      "Where is my order?",
      at,
      at,
      at,
    );
    // The first label on one in three, the second on one in 1,000.
    if (i % 3 === 0) link.run(id, side.labels[0], org, at);
    if (i % 1000 === 250) link.run(id, side.labels[1], org, at);
  }
  db.exec("COMMIT");
  db.close();
  side.server = await startServer({
    root: side.root,
    port: side.server.port,
    inspectorPort: side.server.port + 1,
    devtools: false,
    state: side.server.state,
    key: side.server.key,
  });
}

/** The reads, each a path of the API given the side's seeded ids. */
const READS_ASKED = {
  "conversation list (first page, 20)": () => "/conversations/?page_size=20",
  "conversation list, one inbox": (s) => `/conversations/?page_size=20&inbox=${s.inbox}`,
  "conversation list, one label": (s) => `/conversations/?page_size=20&label=${s.label}`,
  "one conversation": (s, i) => `/conversations/${s.ids[i % s.ids.length]}/`,
  "inbox list": () => "/inboxes/",
};
/** After the bulk: the filters an operator uses, whose matches are few among many. */
const FILTERED_READS = {
  "conversation list (first page, 20)": READS_ASKED["conversation list (first page, 20)"],
  "waiting view (queued, longest waiting first)": () => "/conversations/?page_size=20&view=waiting",
  "status=queued": () => "/conversations/?page_size=20&status=queued",
  "progressStatus=human_serving": () => "/conversations/?page_size=20&progressStatus=human_serving",
  "a team's unassigned": (s) => `/conversations/?page_size=20&view=unassigned&team=${s.team}`,
  "a label on one in three": (s) => `/conversations/?page_size=20&label=${s.labels[0]}`,
  "a label on one in 1,000": (s) => `/conversations/?page_size=20&label=${s.labels[1]}`,
  "one assistant of few conversations": (s) => `/conversations/?page_size=20&chatbot=${s.rareBot}`,
  "tests only": () => "/conversations/?page_size=20&isTest=true",
  mine: () => "/conversations/?page_size=20&view=mine",
};

async function timed(side, path) {
  const started = performance.now();
  const res = await fetch(`${side.server.runtime ?? side.server.base}/api/v1${path}`, { headers: side.server.headers });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${side.name}: GET ${path}: ${res.status}`);
  return performance.now() - started;
}

/** Each read asked `times` times of both sides, alternating; p50/p95 per side and the ratio of the p50s. */
async function compare(sides, reads, times) {
  for (const [read, path] of Object.entries(reads)) {
    for (const side of sides) for (let i = 0; i < 20; i++) await timed(side, path(side, i)); // warm up
    const taken = { working: [], baseline: [] };
    for (let i = 0; i < times; i++)
      for (const side of i % 2 ? sides : [...sides].reverse()) taken[side.name].push(await timed(side, path(side, i)));
    const [w, b] = [taken.working, taken.baseline];
    console.log(
      `${read}: working p50 ${median(w).toFixed(2)} ms, p95 ${percentile(w, 95).toFixed(2)}; baseline p50 ` +
        `${median(b).toFixed(2)} ms, p95 ${percentile(b, 95).toFixed(2)}; ratio of p50s ` +
        `${(median(w) / median(b)).toFixed(2)}x`,
    );
  }
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
    await compare(sides, READS_ASKED, READS);
    if (!BULK) return;
    for (const side of sides) await seedBulk(side);
    console.log(`after ${BULK.toLocaleString("en")} more conversations in each side's data plane:`);
    await compare(sides, FILTERED_READS, Math.min(READS, 100));
  } finally {
    await stopServers();
    checkout.remove();
  }
}
