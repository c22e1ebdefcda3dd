// Moving an organization's data plane from `DB` to its shard while it is written (services/shards/data-plane-move.ts;
// docs/decisions.md, "Moving an organization's data plane"): conversations, contacts, figures and records copied,
// every change made meanwhile replayed, a write made while the last changes are replayed waiting and then landing in
// the shard, nothing left in `DB`, and the API answering as before.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { contacts } from "../../src/db/schema";
import { SHARDS, dataDb, shardDb } from "../../src/services/shards";
import { MOVE_GRACE_MS, startMove } from "../../src/services/shards/move";
import { advanceDataPlaneMoves, MOVED_TABLES, startDataPlaneMove } from "../../src/services/shards/data-plane-move";
import { deleteOrganization } from "../../src/services/organizations";
import { type Actor, db, fromBeforeTheShards, seedOwner } from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import { bodyOf } from "../support/api";
import { rollUpDays, settledThrough } from "../../src/services/statistics/rollup";
import { seedConversation } from "../routes/statistics/helpers";

const directory = (actor: Actor) =>
  env.DB.prepare("SELECT shard, data_plane, cursor FROM organization_shards WHERE organization_id = ?1")
    .bind(actor.organizationId)
    .first<{ shard: string; data_plane: string; cursor: string | null }>();

/** The organization's rows of every moved table in `d1`, by table (contacts' links by their contact's). */
async function rowsIn(d1: D1Database, actor: Actor) {
  const counts: Record<string, number> = {};
  for (const table of MOVED_TABLES) {
    const owned = table.startsWith("contact_")
      ? "contact_id IN (SELECT id FROM contacts WHERE organization_id = ?1)"
      : "organization_id = ?1";
    counts[table] = (await d1
      .prepare(`SELECT count(*) AS n FROM ${table} WHERE ${owned}`)
      .bind(actor.organizationId)
      .first<number>("n"))!;
  }
  return counts;
}
const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

/** What the API answers about the organization's data: the answers a move must leave as they are. */
async function answers(owner: Actor, bots: string[]) {
  const today = new Date().toISOString().slice(0, 10);
  const conversations = await bodyOf<"GET /conversations/">(await owner.fetch("GET", "/conversations/?pageSize=100"));
  const messages: Record<string, string[]> = {};
  for (const c of conversations.results) {
    const page = await bodyOf<"GET /messages/">(await owner.fetch("GET", `/messages/?conversation=${c.id}`));
    messages[c.id] = page.results.map((m) => m.content ?? "").sort();
  }
  const contactList = await bodyOf<"GET /contacts/">(await owner.fetch("GET", "/contacts/?pageSize=100"));
  const statistics: unknown[] = [];
  const records: number[] = [];
  for (const bot of bots) {
    const stats = await bodyOf<"GET /chatbots/{chatbotPk}/statistics/">(
      await owner.fetch("GET", `/chatbots/${bot}/statistics/`),
    );
    statistics.push(stats.total);
    const page = await bodyOf<"GET /chatbots/{chatbotPk}/records/">(
      await owner.fetch("GET", `/chatbots/${bot}/records/?startDate=${today}&endDate=${today}`),
    );
    records.push(page.results.length);
  }
  return {
    conversations: conversations.results.map((c) => c.id).sort(),
    messages,
    contacts: contactList.results.map((c) => `${c.name} [${(c.tags ?? []).map((t) => t.name).join(",")}]`).sort(),
    statistics,
    records,
  };
}

describe("moving an organization's data plane to its shard", () => {
  it("copies everything while it is written, replays the changes, and leaves nothing in DB", async () => {
    const owner = await seedOwner();
    const bystander = await seedOwner("bystander");
    await fromBeforeTheShards(owner.organizationId);
    await fromBeforeTheShards(bystander.organizationId);
    const bots = [(await createChatbot(owner)).id, (await createChatbot(owner)).id];
    await createChatbot(bystander).then((bot) =>
      bystander.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "Not moving" } }),
    );
    let turn = 0;
    const botOf = new Map<string, string>();
    const ask = async (conversation?: string) => {
      const bot = conversation ? botOf.get(conversation)! : bots[turn % 2];
      const body = { message: { content: `Question ${turn++}` }, ...(conversation ? { conversation } : {}) };
      const res = await owner.fetch("POST", `/chatbots/${bot}/completions/`, body);
      expect(res.status, await res.clone().text()).toBe(200);
      const { conversationId } = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res);
      botOf.set(conversationId, bot);
      return conversationId;
    };
    const contactIds: string[] = [];
    const addContact = async (name: string) => {
      const res = await owner.fetch("POST", "/contacts/", { name, tags: ["vip", name] });
      expect(res.status).toBe(201);
      contactIds.push((await bodyOf<"POST /contacts/">(res)).id);
    };
    const conversationIds = [await ask(), await ask(), await ask(), await ask()];
    await ask(conversationIds[0]);
    // A person serving one: its stretch is copied, not opened again by the copy of its conversation.
    expect((await owner.fetch("POST", `/conversations/${conversationIds[3]}/take-over/`)).status).toBe(200);
    for (const name of ["Ada", "Brook", "Cyd", "Dell"]) await addContact(name);
    const inDb = await rowsIn(env.DB, owner);
    expect(inDb.conversations).toBe(4);
    expect(inDb.conversation_handoffs).toBe(1);
    expect(inDb.contacts).toBeGreaterThanOrEqual(4);
    const { shard } = (await directory(owner))!;
    expect(total(await rowsIn(shardDb(env, shard), owner))).toBe(0);
    const bystanderBefore = await rowsIn(env.DB, bystander);

    let now = Date.now();
    expect(await startDataPlaneMove(env, owner.organizationId, now)).toBe(true);
    expect(await startDataPlaneMove(env, owner.organizationId, now)).toBe(false); // one move at a time
    await expect(startMove(env, owner.organizationId, "CONVERSATIONS_1")).rejects.toThrow(/moving there/);
    // A write before the copy starts, then one between every step: new conversations and turns, contacts created,
    // renamed, retagged and deleted.
    conversationIds.push(await ask());
    now += MOVE_GRACE_MS;
    const writes = [
      async () => conversationIds.push(await ask()),
      async () => void (await ask(conversationIds[1])),
      async () => addContact(`Eve${turn++}`),
      async () => {
        const id = contactIds.shift()!;
        expect((await owner.fetch("DELETE", `/contacts/${id}/`)).status).toBe(204);
      },
      async () => {
        const id = contactIds[contactIds.length - 1];
        const res = await owner.fetch("PATCH", `/contacts/${id}/`, { name: `Renamed${turn++}`, tags: ["moved"] });
        expect(res.status).toBe(200);
      },
    ];
    const states = new Set<string>();
    const steps = new Set<string>();
    for (let step = 0; step < 300; step++) {
      await writes[step % writes.length]();
      // A few rows a step, so the steps are many; more than a write logs, so the replay catches up.
      await advanceDataPlaneMoves(env, now, { pages: 4, size: 3 });
      const row = (await directory(owner))!;
      states.add(row.data_plane);
      if (row.cursor) steps.add(JSON.parse(row.cursor).step);
      if (row.data_plane === "shard") break;
    }
    expect([...states]).toEqual(["moving", "shard"]);
    expect([...steps]).toEqual(["copy", "replay", "clean"]); // written during each
    // Written after the switch, before the rows left in DB are deleted: straight to the shard.
    const late = await ask(conversationIds[2]);
    expect(late).toBe(conversationIds[2]);
    const expected = await answers(owner, bots);
    now += MOVE_GRACE_MS;
    await advanceDataPlaneMoves(env, now, { pages: 100, size: 2 });
    expect(await directory(owner)).toMatchObject({ data_plane: "shard", cursor: null });

    expect(total(await rowsIn(env.DB, owner))).toBe(0);
    const changes = await env.DB.prepare("SELECT count(*) AS n FROM data_plane_changes WHERE organization_id = ?1")
      .bind(owner.organizationId)
      .first<number>("n");
    expect(changes).toBe(0);
    const moved = await rowsIn(shardDb(env, shard), owner);
    expect(moved.conversations).toBe(conversationIds.length);
    expect(moved.conversation_handoffs).toBe(1);
    expect(await rowsIn(env.DB, bystander)).toEqual(bystanderBefore);

    // The same answers from the shard, and they hold what every write said.
    const after = await answers(owner, bots);
    expect(after).toEqual(expected);
    expect(after.conversations).toEqual([...conversationIds].sort());
    expect(after.contacts).toHaveLength(contactIds.length);
    expect(after.contacts.filter((c) => c.startsWith("Renamed"))).not.toHaveLength(0);
    for (const c of after.contacts.filter((c) => c.startsWith("Renamed"))) expect(c).toMatch(/\[moved\]$/);
    const conversationsCount = after.statistics.reduce<number>(
      (n, s) => n + (s as { conversationsCount: number }).conversationsCount,
      0,
    );
    expect(conversationsCount).toBe(conversationIds.length); // each counted once, not again by the copy
    for (const id of conversationIds) expect(after.messages[id].length).toBeGreaterThanOrEqual(2);
    // The conversation's own object goes on answering after the move.
    expect(await ask(conversationIds[0])).toBe(conversationIds[0]);
  });

  it("makes a write during the last replay wait and lands it in the shard; a binding held before follows", async () => {
    const owner = await seedOwner();
    await fromBeforeTheShards(owner.organizationId);
    const created = await owner.fetch("POST", "/contacts/", { name: "Held" });
    const contactId = (await bodyOf<"POST /contacts/">(created)).id;
    const quiet = await bodyOf<"POST /contacts/">(await owner.fetch("POST", "/contacts/", { name: "Quiet" }));
    const held = await dataDb(env, owner.organizationId);
    const bot = await createChatbot(owner);
    const ask = (content: string, conversation?: string) =>
      owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content }, conversation });
    const { conversationId } = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(await ask("Before"));

    let now = Date.now();
    expect(await startDataPlaneMove(env, owner.organizationId, now)).toBe(true);
    // While moving, every write in DB is logged for the replay; the held binding's carry the check in their batch.
    const returned = await held
      .update(contacts)
      .set({ name: "Logged" })
      .where(eq(contacts.id, contactId))
      .returning({ id: contacts.id, name: contacts.name });
    expect(returned).toEqual([{ id: contactId, name: "Logged" }]);
    const logged = await env.DB.prepare("SELECT table_name, key FROM data_plane_changes WHERE organization_id = ?1")
      .bind(owner.organizationId)
      .all<{ table_name: string; key: string }>();
    expect(logged.results).toContainEqual({ table_name: "contacts", key: JSON.stringify([contactId]) });

    now += MOVE_GRACE_MS;
    // The copy, then a shard row deleted behind its back: the counts differ at the switch, and the copy runs again.
    const { shard } = (await directory(owner))!;
    for (let i = 0; i < 50 && (await directory(owner))!.cursor !== JSON.stringify({ step: "replay" }); i++)
      await advanceDataPlaneMoves(env, now, { pages: 1, size: 50 });
    expect((await directory(owner))!.data_plane).toBe("moving");
    await shardDb(env, shard).prepare("DELETE FROM contacts WHERE id = ?1").bind(quiet.id).run();
    for (let i = 0; i < 10 && (await directory(owner))!.cursor; i++)
      await advanceDataPlaneMoves(env, now, { pages: 1, size: 50 });
    expect(await directory(owner)).toMatchObject({ data_plane: "moving", cursor: null });
    for (let i = 0; i < 50 && (await directory(owner))!.cursor !== JSON.stringify({ step: "replay" }); i++)
      await advanceDataPlaneMoves(env, now + MOVE_GRACE_MS, { pages: 1, size: 50 });

    // Fenced as the mover does before its last replay: DB drops a write by anything but the held binding...
    await env.DB.prepare("UPDATE organization_shards SET data_plane = 'fenced' WHERE organization_id = ?1")
      .bind(owner.organizationId)
      .run();
    const ignored = await env.DB.prepare("UPDATE contacts SET name = 'Dropped' WHERE id = ?1").bind(contactId).run();
    expect(ignored.meta.changes).toBe(0);
    // ...and does not replay a delete there (housekeeping's, which the shard's own housekeeping redoes).
    await env.DB.prepare("DELETE FROM contacts WHERE id = ?1").bind(quiet.id).run();
    // ...whose write waits, then runs in the shard once the replay has switched the directory.
    const waiting = held.update(contacts).set({ name: "Waited" }).where(eq(contacts.id, contactId));
    const settled = waiting.then(() => Date.now());
    // So does a visitor's turn: its conversation object's batch waits, then lands in the shard.
    const turn = ask("During the fence", conversationId);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const switchedAt = Date.now();
    await advanceDataPlaneMoves(env, now + MOVE_GRACE_MS, { pages: 1, size: 50 });
    expect((await directory(owner))!.data_plane).toBe("shard");
    expect(await settled).toBeGreaterThanOrEqual(switchedAt);
    const [inShard] = await (await dataDb(env, owner.organizationId))
      .select({ name: contacts.name })
      .from(contacts)
      .where(eq(contacts.id, contactId));
    expect(inShard).toEqual({ name: "Waited" });
    const [throughHeld] = await held.select({ name: contacts.name }).from(contacts).where(eq(contacts.id, contactId));
    expect(throughHeld).toEqual({ name: "Waited" });
    const view = await bodyOf<"GET /contacts/{id}/">(await owner.fetch("GET", `/contacts/${contactId}/`));
    expect(view.name).toBe("Waited");
    expect((await owner.fetch("GET", `/contacts/${quiet.id}/`)).status).toBe(200); // copied again, kept
    expect((await turn).status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const records = await bodyOf<"GET /chatbots/{chatbotPk}/records/">(
      await owner.fetch("GET", `/chatbots/${bot.id}/records/?startDate=${today}&endDate=${today}`),
    );
    expect(records.results.map((r) => r.inputMessage).sort()).toEqual(["Before", "During the fence"]);
    const rows = await shardDb(env, shard)
      .prepare("SELECT count(*) AS n FROM chatbot_records WHERE organization_id = ?1")
      .bind(owner.organizationId)
      .first<number>("n");
    expect(rows).toBe(2);
  });

  it("leaves no row in DB or the shard of an organization deleted while it moves", async () => {
    const owner = await seedOwner();
    await fromBeforeTheShards(owner.organizationId);
    const bot = await createChatbot(owner);
    await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "Before the move" } });
    await owner.fetch("POST", "/contacts/", { name: "Gone", tags: ["soon"] });
    const now = Date.now();
    expect(await startDataPlaneMove(env, owner.organizationId, now)).toBe(true);
    const { shard } = (await directory(owner))!;
    await advanceDataPlaneMoves(env, now + MOVE_GRACE_MS, { pages: 3, size: 3 });
    expect(total(await rowsIn(shardDb(env, shard), owner))).toBeGreaterThan(0); // part copied
    await (await deleteOrganization(env, db(), owner.organizationId))();
    const none = Object.fromEntries(MOVED_TABLES.map((t) => [t, 0]));
    expect(await rowsIn(env.DB, owner)).toEqual(none);
    expect(await rowsIn(shardDb(env, shard), owner)).toEqual(none);
    expect(await directory(owner)).toBeNull();
    // The cron finds no move left to advance.
    await advanceDataPlaneMoves(env, now + 2 * MOVE_GRACE_MS);
    expect(total(await rowsIn(shardDb(env, shard), owner))).toBe(0);
  });

  it("moves the tables DB logs, parents first, each logged on insert, update and delete", async () => {
    const logged = await env.DB.prepare(
      "SELECT tbl_name AS t, group_concat(name) AS names FROM sqlite_master WHERE type = 'trigger' " +
        "AND name LIKE 'moving\\_%' ESCAPE '\\' GROUP BY tbl_name",
    ).all<{ t: string; names: string }>();
    expect(logged.results.map((r) => r.t).sort()).toEqual([...MOVED_TABLES].sort());
    for (const { t, names } of logged.results)
      for (const event of ["insert", "update", "delete"]) expect(names.split(","), t).toContain(`moving_${t}_${event}`);
    const tables: readonly string[] = MOVED_TABLES;
    for (const [i, table] of tables.entries()) {
      const keys = await shardDb(env, SHARDS[0])
        .prepare('SELECT "table" FROM pragma_foreign_key_list(?1)')
        .bind(table)
        .all<{ table: string }>();
      for (const key of keys.results) expect(tables.indexOf(key.table), `${table} -> ${key.table}`).toBeLessThan(i);
    }
  });

  it("logs an update of any column of a moved table, so a column a later migration adds is watched too", async () => {
    // A column left out of every `moving_<table>_…` trigger's `UPDATE OF` list would change in DB during a move and
    // never be copied again: the shard would keep the value of the first copy.
    const triggers = await env.DB.prepare(
      "SELECT tbl_name AS t, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'moving\\_%' ESCAPE '\\'",
    ).all<{ t: string; sql: string }>();
    for (const table of MOVED_TABLES) {
      const own = triggers.results.filter((r) => r.t === table).map((r) => r.sql);
      const every = own.some((sql) => /UPDATE ON/.test(sql)); // an update trigger without a column list
      const watched = new Set(
        own.flatMap((sql) =>
          (/UPDATE OF (.*?) ON/.exec(sql)?.[1] ?? "").split(",").map((c) => c.trim().replace(/`/g, "")),
        ),
      );
      const columns = await env.DB.prepare("SELECT name FROM pragma_table_info(?1)")
        .bind(table)
        .all<{ name: string }>();
      expect(columns.results.length, table).toBeGreaterThan(1);
      if (!every)
        expect(
          columns.results.map((c) => c.name).filter((c) => !watched.has(c)),
          table,
        ).toEqual([]);
    }
  });

  it("answers the same usage after the move when the shard rolled up days DB had not", async () => {
    const DAY = 86_400_000;
    const owner = await seedOwner();
    await fromBeforeTheShards(owner.organizationId);
    const bot = await createChatbot(owner);
    const now = Date.now();
    const day = settledThrough(now) - 3 * DAY;
    await rollUpDays(env.DB, now); // DB's watermark exists, and the seeding below rolls it back to `day`
    await seedConversation(owner.organizationId, bot.id, bot.defaultInbox!.id, [
      { at: day + 10 * 3_600_000, words: 4 },
      { at: day + DAY + 5 * 3_600_000, words: 6 },
    ]);
    const { shard } = (await directory(owner))!;
    const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const range = `startDate=${date(day)}&endDate=${date(day + DAY)}`;
    const queries = [
      `members/?${range}`,
      `chatbots/?${range}&includeTime=true`,
      `chatbots/summary/?${range}`,
      `members/summary/?${range}&timeGranularity=day`,
    ];
    // Each request's background rollup done before the next step (`settings`: the worker's own fetch waits for it).
    const usage = () =>
      Promise.all(
        queries.map(async (q) => {
          const path = `/organizations/${owner.organizationId}/usage-statistics/${q}`;
          const res = await owner.fetch("GET", path, undefined, { settings: {} });
          expect(res.status, await res.clone().text()).toBe(200);
          return res.json();
        }),
      );
    const expected = await usage();
    const series = expected[1] as { messagesCount: number }[];
    expect(series.reduce((n, b) => n + b.messagesCount, 0)).toBe(4);
    // DB has not rolled up the two days (as before that answer's background rollup); the shard has, for its other
    // organizations, before the move switches.
    await env.DB.batch([
      env.DB.prepare("UPDATE usage_rollup SET through = min(through, ?1) WHERE id = 'daily'").bind(day),
      env.DB.prepare("DELETE FROM usage_daily_members WHERE organization_id = ?1").bind(owner.organizationId),
      env.DB.prepare("DELETE FROM usage_daily_chatbots WHERE organization_id = ?1").bind(owner.organizationId),
    ]);
    const shardDays = shardDb(env, shard);
    expect(await rollUpDays(shardDays, now)).toBeGreaterThan(day + DAY);

    let clock = now;
    expect(await startDataPlaneMove(env, owner.organizationId, clock)).toBe(true);
    clock += MOVE_GRACE_MS;
    for (let i = 0; i < 20 && (await directory(owner))!.data_plane !== "shard"; i++)
      await advanceDataPlaneMoves(env, clock);
    expect((await directory(owner))!.data_plane).toBe("shard");
    expect(await usage()).toEqual(expected);
    // Once the shard has rolled those days up again, its daily rows hold the organization's too.
    await rollUpDays(shardDays, now);
    expect(await usage()).toEqual(expected);
    const rolled = await shardDays
      .prepare("SELECT sum(incoming_messages) AS n FROM usage_daily_chatbots WHERE organization_id = ?1")
      .bind(owner.organizationId)
      .first<number>("n");
    expect(rolled).toBe(2);
  });

  it("starts only for an organization whose data plane is in DB", async () => {
    const created = await seedOwner(); // a new organization's data plane is in its shard from the start
    expect(await startDataPlaneMove(env, created.organizationId)).toBe(false);
    expect((await directory(created))!.data_plane).toBe("shard");
  });
});
