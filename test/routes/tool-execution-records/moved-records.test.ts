import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { toolExecutionRecords, toolRecordSegments } from "../../../src/db/schema";
import { uuidv7 } from "../../../src/lib/ids";
import { cutoffAt, writeSegments } from "../../../src/services/statistics/record-segments";
import {
  finishedRecords,
  moveFinishedToolRecords,
  readToolRecordSegment,
  toolRecordMove,
} from "../../../src/services/tools/record-segments";
import { runHousekeeping } from "../../../src/services/housekeeping";
import { data, seedMember, seedOwner, unique } from "../../harness";
import { createChatbot } from "../../fixtures/chatbots";
import { createTool, functionToolBody } from "../../fixtures/tools";
import { comparableBodyOf } from "../../support/api";

/**
 * Finished tool execution records move from D1 to hourly R2 segments (services/tools/record-segments.ts); every
 * list, read and filter option answers as it did while the records were in D1. This file runs in a database of its
 * own (vitest.config.ts): the moves take every organization's finished records, and it asserts on all of D1.
 */

const HOUR = 3_600_000;
const utc = (iso: string) => Date.parse(iso);

/**
 * Two tools (one shared with a member's group), two assistants (one shared with the group) and records over three
 * days of May: built-in knowledge searches, two calls in the same millisecond, every status, an old desktop call still
 * pending, and two calls of the last hour (too young to move).
 */
async function seedWorld() {
  const owner = await seedOwner();
  const member = await seedMember(owner, ["tool.view", "chatbot.view"]);
  const tool = (name: string, groups: { id: string }[] = []) => createTool(owner, functionToolBody(name, groups));
  const shared = await tool(unique("shared").replace(/-/g, "_"), [{ id: member.groupId! }]);
  const secret = await tool(unique("secret").replace(/-/g, "_"));
  const bot = await createChatbot(owner, { replyMode: "agent", groups: [{ id: member.groupId! }] });
  const other = await createChatbot(owner, { replyMode: "agent" });
  type Tool = typeof shared | null;
  type Bot = typeof bot;
  const row = (b: Bot, t: Tool, status: "success" | "failure" | "timeout" | "pending", at: number, text: string) => ({
    id: uuidv7(),
    organizationId: owner.organizationId,
    chatbotId: b.id,
    chatbotName: b.name,
    toolId: t?.id ?? null,
    toolName: t?.name ?? "search_knowledge",
    toolDisplayName: t?.displayName ?? "Knowledge search",
    toolType: t ? "function" : "knowledge",
    conversationId: crypto.randomUUID(),
    messageId: crypto.randomUUID(),
    messageText: text,
    callId: `call_${text.length}`,
    status,
    input: { q: text, n: [1, 2.5, null] },
    output: status === "success" ? { ok: true, text: `answer to ${text}` } : status === "pending" ? null : "partial",
    error: status === "failure" || status === "timeout" ? `boom: ${text}` : null,
    durationMs: status === "pending" ? null : text.length,
    createdAt: at,
    updatedAt: at + 500,
  });
  const recent = Date.now() - HOUR;
  const rows = [
    row(bot, shared, "success", utc("2026-05-01T09:00:00Z"), "Where is my PARCEL?"),
    row(bot, shared, "failure", utc("2026-05-01T09:10:00Z"), "100% refund please"),
    row(bot, null, "success", utc("2026-05-01T09:20:00Z"), "opening hours"),
    row(other, null, "success", utc("2026-05-01T10:30:00Z"), "knowledge of the other"),
    row(bot, secret, "timeout", utc("2026-05-01T20:15:00Z"), "same time A"),
    row(bot, shared, "success", utc("2026-05-01T20:15:00Z"), "same time B"),
    row(other, shared, "success", utc("2026-05-01T20:15:00Z"), "same time C"),
    row(other, secret, "success", utc("2026-05-02T12:00:00Z"), "parcel again"),
    row(bot, secret, "pending", utc("2026-05-02T13:00:00Z"), "desktop still pending"),
    row(bot, shared, "failure", utc("2026-05-02T23:59:00Z"), "late refund"),
    row(bot, null, "success", utc("2026-05-03T00:00:00Z"), "first of the third"),
    row(bot, shared, "success", recent, "recent parcel"),
    row(bot, secret, "success", recent + 60_000, "recent two"),
  ];
  // D1 binds at most 100 values a statement.
  const records = await data(owner.organizationId);
  for (const r of rows) await records.insert(toolExecutionRecords).values(r);
  return { owner, member, shared, secret, bot, other, rows };
}

type World = Awaited<ReturnType<typeof seedWorld>>;

function paths({ shared, secret, bot, other, rows }: World) {
  const lists = [
    "",
    "?pageSize=3",
    "?pageSize=3&page=2",
    "?pageSize=3&page=3",
    "?pageSize=4&page=3",
    "?pageSize=5&page=2",
    "?pageSize=2&page=9",
    `?tool=${shared.id}`,
    `?tool=${secret.id}&pageSize=2&page=2`,
    `?chatbot=${other.id}`,
    `?chatbot=${bot.id}&status=success&pageSize=2&page=2`,
    "?toolType=knowledge",
    "?status=failure",
    "?status=pending",
    "?query=parcel",
    "?query=parcel&pageSize=1&page=2",
    `?query=${encodeURIComponent("100%")}`,
    `?query=${encodeURIComponent(bot.name.toUpperCase())}&pageSize=4&page=2`,
    "?query=KNOWLEDGE",
    "?startDate=2026-05-01&endDate=2026-05-01",
    "?startDate=2026-05-02&endDate=2026-05-02&pageSize=1&page=2",
    "?startDate=2026-05-02",
    "?endDate=2026-05-02&pageSize=3&page=2",
    "?startDate=2026-06-01&endDate=2026-06-30",
  ];
  return [
    ...lists.map((q) => `/tool-execution-records/${q}`),
    ...["", "?pageSize=2&page=2", "?status=success"].map((q) => `/tools/${shared.id}/tool-execution-records/${q}`),
    ...rows.flatMap((r) => [
      `/tool-execution-records/${r.id}/`,
      `/tools/${shared.id}/tool-execution-records/${r.id}/`,
      `/tools/${secret.id}/tool-execution-records/${r.id}/`,
    ]),
    "/tool-execution-records/chatbots/",
    "/tool-execution-records/tools/",
    `/tools/${shared.id}/tool-execution-records/chatbots/`,
    `/tools/${secret.id}/tool-execution-records/tools/`,
  ];
}

/** Every answer the owner and the member get, whole JSON bodies (an error's request id aside). */
async function answers(world: World) {
  const out: { who: string; path: string; status: number; body: unknown }[] = [];
  for (const [who, actor] of Object.entries({ owner: world.owner, member: world.member })) {
    const all = paths(world);
    const results = await Promise.all(
      all.map(async (path) => {
        const res = await actor.fetch("GET", path);
        return { who, path, status: res.status, body: await comparableBodyOf(res) };
      }),
    );
    out.push(...results);
    // A moved record is not pending: its result is refused as it was in D1.
    const res = await actor.fetch("POST", `/tool-execution-records/${world.rows[0].id}/result/`, { output: 1 });
    out.push({ who, path: "result", status: res.status, body: await comparableBodyOf(res) });
  }
  return out;
}

/** The ids of an organization's records in D1, sorted. */
async function d1Ids(organizationId: string) {
  const t = toolExecutionRecords;
  const rows = await (await data(organizationId))
    .select({ id: t.id })
    .from(t)
    .where(eq(t.organizationId, organizationId));
  return rows.map((row) => row.id).sort();
}

const segmentsOf = async (organizationId: string) =>
  (await data(organizationId))
    .select()
    .from(toolRecordSegments)
    .where(eq(toolRecordSegments.organizationId, organizationId));

/** Puts an organization's moved records back in D1 as its segments read them now, and unlists the segments. */
async function moveBack(organizationId: string) {
  const records = await data(organizationId);
  for (const segment of await segmentsOf(organizationId)) {
    for (const line of await readToolRecordSegment(env, segment))
      await records.insert(toolExecutionRecords).values(line);
    await records.delete(toolRecordSegments).where(eq(toolRecordSegments.key, segment.key));
  }
}

describe("tool execution records moved to R2 segments", () => {
  it("every list, read and option answers the same; D1 keeps what is pending or young", async () => {
    const world = await seedWorld();
    const { owner, rows } = world;
    const before = await answers(world);
    expect(before.find((a) => a.path === "/tool-execution-records/" && a.who === "owner")?.body).toMatchObject({
      count: 13,
    });
    expect(before.find((a) => a.path === "/tool-execution-records/" && a.who === "member")?.body).toMatchObject({
      count: 8,
    });

    await moveFinishedToolRecords(env, await data(owner.organizationId));
    const left = await d1Ids(owner.organizationId);
    expect(left).toEqual([rows[8].id, rows[11].id, rows[12].id].sort());
    const segments = await segmentsOf(owner.organizationId);
    // One per (assistant, tool, hour) with a finished record.
    expect(segments.length).toBe(9);
    expect(segments.reduce((n, s) => n + s.records, 0)).toBe(10);
    for (const s of segments) {
      expect(s.key.startsWith(`tool-records/${owner.organizationId}/${s.chatbotId}/${s.toolId ?? "none"}/`)).toBe(true);
      const lines = await readToolRecordSegment(env, s);
      const ids = lines.map((l) => l.id).sort();
      const times = lines.map((l) => l.createdAt);
      expect([lines.length, Math.min(...times), Math.max(...times), ids[0], ids.at(-1)]).toEqual([
        s.records,
        s.minCreatedAt,
        s.maxCreatedAt,
        s.minId,
        s.maxId,
      ]);
    }

    expect(await answers(world)).toEqual(before);
    expect(await moveFinishedToolRecords(env, await data(owner.organizationId))).toBe(0);

    // Once its desktop client answers, the pending call moves too.
    await (await data(owner.organizationId))
      .update(toolExecutionRecords)
      .set({ status: "success", output: "done", durationMs: 9 })
      .where(eq(toolExecutionRecords.id, rows[8].id));
    const answered = await answers(world);
    expect(await moveFinishedToolRecords(env, await data(owner.organizationId))).toBe(1);
    expect(await d1Ids(owner.organizationId)).toHaveLength(2);
    expect(await answers(world)).toEqual(answered);
  });

  it("a deleted tool or assistant reads as it would in D1", async () => {
    const world = await seedWorld();
    await moveFinishedToolRecords(env, await data(world.owner.organizationId));
    expect((await world.owner.fetch("DELETE", `/tools/${world.secret.id}/`)).status).toBe(204);
    expect((await world.owner.fetch("DELETE", `/chatbots/${world.other.id}/`)).status).toBe(204);
    const moved = await answers(world);
    await moveBack(world.owner.organizationId);
    expect(await answers(world)).toEqual(moved);
  });

  it("a page among D1's records reads no segment", async () => {
    const world = await seedWorld();
    const page = (q: string) => world.owner.fetch("GET", `/tool-execution-records/${q}`).then((res) => res.json());
    // The two calls of the last hour are newer than every moved record (the old pending one is not).
    const first = await page("?pageSize=2");
    await moveFinishedToolRecords(env, await data(world.owner.organizationId));
    // Without their objects, a read of any of them would fail the request.
    await env.FILES.delete((await segmentsOf(world.owner.organizationId)).map((s) => s.key));
    expect(await page("?pageSize=2")).toEqual(first);
  });

  it("a move stopped between writing its segments and its D1 batch changes no answer, and moves later", async () => {
    const world = await seedWorld();
    const before = await answers(world);
    const cutoff = cutoffAt(Date.now());
    // Only this organization's: the tests of this file share their database.
    const lines = (await finishedRecords(await data(world.owner.organizationId), cutoff.asked)).filter(
      (l) => l.organizationId === world.owner.organizationId,
    );
    expect(lines.length).toBe(10);
    expect((await writeSegments(env, toolRecordMove, lines)).length).toBe(9);
    expect(await answers(world)).toEqual(before);
    expect(await segmentsOf(world.owner.organizationId)).toEqual([]);

    await runHousekeeping(env);
    expect(await answers(world)).toEqual(before);
    expect(await d1Ids(world.owner.organizationId)).toHaveLength(3);
  });

  it("another organization never reads this one's records", async () => {
    const mine = await seedWorld();
    const theirs = await seedWorld();
    const before = await answers(theirs);
    await moveFinishedToolRecords(env, await data(mine.owner.organizationId));
    for (const s of await segmentsOf(mine.owner.organizationId))
      expect(s.organizationId).toBe(mine.owner.organizationId);
    expect(await answers(theirs)).toEqual(before);
    const stranger = theirs.owner;
    for (const r of mine.rows)
      expect((await stranger.fetch("GET", `/tool-execution-records/${r.id}/`)).status).toBe(404);
    const own = await seedOwner();
    expect(await (await own.fetch("GET", "/tool-execution-records/")).json()).toMatchObject({ count: 0, results: [] });
    expect(await (await own.fetch("GET", "/tool-execution-records/tools/")).json()).toEqual([]);
    expect(await (await own.fetch("GET", "/tool-execution-records/chatbots/")).json()).toEqual([]);
  });
});
