import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  NO_SUCH_ID,
  PREFIXES,
  call,
  conversationData,
  expectError,
  seedMember,
  seedOwner,
  type Actor,
} from "../../harness";
import { client } from "../../../src/db/prepared";
import { createChatbot } from "../../fixtures/chatbots";
import { readXlsx } from "../../support/xlsx";
import { ok } from "../statistics/helpers";

type Durations = { count: number; median: number | null; p90: number | null };
type Figures = {
  handoffsCount: number;
  resolvedCount: number;
  waitingTime: Durations;
  firstResponseTime: Durations;
  resolutionTime: Durations;
  csat: { count: number; average: number | null; distribution: Record<string, number> };
};

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const RANGE = "startDate=2026-06-10&endDate=2026-06-11";
const path = (orgId: string, query = RANGE) => `/organizations/${orgId}/human-statistics/?${query}`;
const exportPath = (orgId: string, query = RANGE) => `/organizations/${orgId}/human-statistics/export-excel/?${query}`;
const at = (iso: string) => Date.parse(iso);
const S = 1000;

/** A visitor of `chatbotId` asks for a person (the assistant hands off): the new conversation's id. */
async function handOff(actor: Actor, chatbotId: string, test = false) {
  const res = await ok<"POST /chatbots/{chatbotId}/completions/">(
    await actor.fetch("POST", `/chatbots/${chatbotId}/completions/`, {
      message: { content: "I need to talk to a person" },
      test,
    }),
  );
  return res.conversationId;
}

/** Puts a conversation's stretch at known times (the flows ran now; the figures are checked on fixed numbers). */
async function timeStretch(
  d1: D1Database,
  conversationId: string,
  queuedAt: number,
  offsets: { assigned?: number; response?: number; ended?: number },
) {
  const plus = (s: number | undefined) => (s === undefined ? null : queuedAt + s * S);
  await d1
    .prepare(
      "UPDATE conversation_handoffs SET queued_at = ?, assigned_at = ?, first_response_at = ?, ended_at = ? " +
        "WHERE conversation_id = ?",
    )
    .bind(queuedAt, plus(offsets.assigned), plus(offsets.response), plus(offsets.ended), conversationId)
    .run();
}

/**
 * Two assistants, a team, a label and an agent; conversations handed off by visitors, taken over,
 * answered and resolved through the API, then placed at known times; ratings written into the rows
 * (the satisfaction endpoint is another part's).
 */
async function seeded() {
  const owner = await seedOwner("Owner");
  const agent = await seedMember(owner, ["conversation.manage"]);
  const a = await createChatbot(owner, { name: "Alpha desk" });
  const b = await createChatbot(owner, { name: "Beta desk" });
  const team = await ok<"POST /organizations/{organizationPk}/groups/">(
    await owner.fetch("POST", `/organizations/${owner.organizationId}/groups/`, {
      name: "Billing team",
      permissions: [],
    }),
    201,
  );
  // Each conversation's rows are in its part of the organization's data plane.
  const part = async (conversationId: string) => client(await conversationData(owner.organizationId, conversationId));
  const labelId = crypto.randomUUID();
  await env.DB.prepare(
    "INSERT INTO labels (id, organization_id, name, color, created_at, updated_at) VALUES (?, ?, 'VIP', " +
      "'#aa0000', 0, 0)",
  )
    .bind(labelId, owner.organizationId)
    .run();

  // 1: the owner takes it over, answers and resolves it; it is the team's and labelled.
  const one = await handOff(owner, a.id);
  await (await part(one)).prepare("UPDATE conversations SET team_id = ? WHERE id = ?").bind(team.id, one).run();
  await (await part(one))
    .prepare(
      "INSERT INTO conversation_labels (conversation_id, label_id, organization_id, created_at) VALUES (?, ?, ?, 0)",
    )
    .bind(one, labelId, owner.organizationId)
    .run();
  await ok<"POST /conversations/{id}/take-over/">(await owner.fetch("POST", `/conversations/${one}/take-over/`));
  await ok<"POST /messages/outgoing/">(
    await owner.fetch("POST", "/messages/outgoing/", { conversation: one, content: "Hello, Ada here" }),
    201,
  );
  await ok<"POST /conversations/{id}/resolve/">(await owner.fetch("POST", `/conversations/${one}/resolve/`));
  // 2: the agent takes it over and answers; still open.
  const two = await handOff(owner, b.id);
  await ok<"POST /conversations/{id}/take-over/">(await agent.fetch("POST", `/conversations/${two}/take-over/`));
  await ok<"POST /messages/outgoing/">(
    await agent.fetch("POST", "/messages/outgoing/", { conversation: two, content: "On it" }),
    201,
  );
  // 3: nobody yet. 4: a test conversation (try-it). 5: out of the range.
  const three = await handOff(owner, a.id);
  const four = await handOff(owner, a.id, true);
  const five = await handOff(owner, a.id);

  await timeStretch(await part(one), one, at("2026-06-10T10:00:00Z"), { assigned: 60, response: 120, ended: 600 });
  await timeStretch(await part(two), two, at("2026-06-10T11:00:00Z"), { assigned: 200, response: 300 });
  await timeStretch(await part(three), three, at("2026-06-11T09:00:00Z"), {});
  await timeStretch(await part(four), four, at("2026-06-11T09:30:00Z"), { response: 10 });
  await timeStretch(await part(five), five, at("2026-06-12T00:00:00Z"), { response: 10 });
  const rate = async (id: string, rating: number) =>
    (await part(id))
      .prepare("UPDATE conversations SET csat_rating = ?, csat_at = 1 WHERE id = ?")
      .bind(rating, id)
      .run();
  await Promise.all([rate(one, 5), rate(two, 3), rate(four, 1), rate(five, 1)]);
  return { owner, agent, a, b, team, labelId, one, two, three };
}

const TOTAL: Figures = {
  handoffsCount: 3,
  resolvedCount: 1,
  waitingTime: { count: 2, median: 130, p90: 186 },
  firstResponseTime: { count: 2, median: 210, p90: 282 },
  resolutionTime: { count: 1, median: 600, p90: 600 },
  csat: { count: 2, average: 4, distribution: { "1": 0, "2": 0, "3": 1, "4": 0, "5": 1 } },
};

describe("GET /organizations/{organizationPk}/human-statistics/", () => {
  it.each(PREFIXES)("figures in total and per agent, from stretches the API flows left (%s)", async (prefix) => {
    const { owner, agent } = await seeded();
    const answer = await ok<"GET /organizations/{organizationPk}/human-statistics/">(
      await owner.fetch("GET", path(owner.organizationId, `${RANGE}&groupBy=agent`), undefined, { prefix }),
    );
    expect(answer).toMatchObject({ startDate: "2026-06-10", endDate: "2026-06-11", timezone: "UTC", groupBy: "agent" });
    expect(answer.total).toEqual(TOTAL);
    expect(
      answer.results.map((g) => [
        g.key,
        g.name,
        g.handoffsCount,
        g.resolvedCount,
        g.firstResponseTime.median,
        g.csat.average,
      ]),
    ).toEqual([
      [agent.userId, "member", 1, 0, 300, 3],
      [owner.userId, "Owner", 1, 1, 120, 5],
      [null, null, 1, 0, null, null],
    ]);
    expect(answer.results[1].waitingTime).toEqual({ count: 1, median: 60, p90: 60 });
  });

  it("per team, assistant and day, and filtered by inbox, assistant, label; tests on request", async () => {
    const { owner, a, b, team, labelId } = await seeded();
    const get = async (query: string) =>
      ok<"GET /organizations/{organizationPk}/human-statistics/">(
        await owner.fetch("GET", path(owner.organizationId, `${RANGE}&${query}`)),
      );
    const byTeam = await get("groupBy=team");
    expect(byTeam.results.map((g) => [g.key, g.name, g.handoffsCount])).toEqual([
      [null, null, 2],
      [team.id, "Billing team", 1],
    ]);
    const byAssistant = await get("groupBy=assistant");
    expect(byAssistant.results.map((g) => [g.key, g.name, g.handoffsCount, g.resolvedCount])).toEqual([
      [a.id, "Alpha desk", 2, 1],
      [b.id, "Beta desk", 1, 0],
    ]);
    const byDay = await get("groupBy=day");
    expect(byDay.results.map((g) => [g.key, g.handoffsCount, g.firstResponseTime.median])).toEqual([
      ["2026-06-10", 2, 210],
      ["2026-06-11", 1, null],
    ]);
    // The days are local: in Taipei (UTC+8) 10:00 and 11:00 UTC of the 10th and 09:00 UTC of the 11th keep their dates.
    const taipei = await get("groupBy=day&timezone=Asia/Taipei");
    expect(taipei.results.map((g) => [g.key, g.handoffsCount])).toEqual([
      ["2026-06-10", 2],
      ["2026-06-11", 1],
    ]);
    expect((await get(`label=${labelId}`)).total).toMatchObject({ handoffsCount: 1, resolvedCount: 1 });
    expect((await get(`chatbot=${b.id}`)).total).toMatchObject({ handoffsCount: 1, resolvedCount: 0 });
    expect((await get(`inbox=${a.defaultInbox!.id}`)).total.handoffsCount).toBe(2);
    const withTests = await get("includeTests=true");
    expect(withTests.total).toMatchObject({
      handoffsCount: 4,
      firstResponseTime: { count: 3, median: 120 },
      csat: { count: 3, distribution: { "1": 1, "3": 1, "5": 1 } },
    });
    // A range without stretches: zeros and nulls, every day listed.
    const empty = await ok<"GET /organizations/{organizationPk}/human-statistics/">(
      await owner.fetch("GET", path(owner.organizationId, "startDate=2026-05-01&endDate=2026-05-03&groupBy=day")),
    );
    expect(empty.total).toEqual({
      ...TOTAL,
      handoffsCount: 0,
      resolvedCount: 0,
      waitingTime: { count: 0, median: null, p90: null },
      firstResponseTime: { count: 0, median: null, p90: null },
      resolutionTime: { count: 0, median: null, p90: null },
      csat: { count: 0, average: null, distribution: { "1": 0, "2": 0, "3": 0, "4": 0, "5": 0 } },
    });
    expect(empty.results.map((g) => g.key)).toEqual(["2026-05-01", "2026-05-02", "2026-05-03"]);
  });

  it("in a timezone off whole hours, a day runs from its own midnight (stretches carry exact times)", async () => {
    const owner = await seedOwner("Owner");
    const bot = await createChatbot(owner);
    const part = async (conversationId: string) => client(await conversationData(owner.organizationId, conversationId));
    // In Asia/Kolkata (UTC+05:30) 10 June runs from 18:30 UTC on the 9th to 18:30 UTC on the 10th.
    // So many stretches at each time that a day moved by half an hour shows in every count.
    for (const [queued, times] of [
      ["2026-06-09T18:15:00Z", 1], // 9 June, 23:45: before the range
      ["2026-06-10T18:15:00Z", 2], // 10 June, 23:45
      ["2026-06-10T18:45:00Z", 1], // 11 June, 00:15
      ["2026-06-11T18:15:00Z", 3], // 11 June, 23:45
      ["2026-06-11T18:45:00Z", 1], // 12 June, 00:15: after the range
    ] as const)
      for (let n = 0; n < times; n++) {
        const id = await handOff(owner, bot.id);
        await timeStretch(await part(id), id, at(queued), {});
      }
    const answer = await ok<"GET /organizations/{organizationPk}/human-statistics/">(
      await owner.fetch("GET", path(owner.organizationId, `${RANGE}&groupBy=day&timezone=Asia/Kolkata`)),
    );
    expect(answer.total.handoffsCount).toBe(6);
    expect(answer.results.map((g) => [g.key, g.handoffsCount])).toEqual([
      ["2026-06-10", 2],
      ["2026-06-11", 4],
    ]);
  });

  it("without dates: this month up to today, local to the timezone; a later start alone is that one day", async () => {
    const owner = await seedOwner();
    const get = async (query: string) =>
      ok<"GET /organizations/{organizationPk}/human-statistics/">(
        await owner.fetch("GET", path(owner.organizationId, query)),
      );
    // Kiritimati is UTC+14: its today is not UTC's for most of the UTC day.
    for (const timezone of ["UTC", "Pacific/Kiritimati"]) {
      const localToday = () => new Intl.DateTimeFormat("en-CA", { timeZone: timezone }).format(new Date());
      const before = localToday();
      const answer = await get(`groupBy=day&timezone=${timezone}`);
      expect([before, localToday()]).toContain(answer.endDate);
      expect(answer.startDate).toBe(`${answer.endDate.slice(0, 7)}-01`);
      expect(answer.results).toHaveLength(Number(answer.endDate.slice(8)));
    }
    expect(await get("startDate=2099-01-05")).toMatchObject({ startDate: "2099-01-05", endDate: "2099-01-05" });
  });

  it("400 for bad input with a clear detail", async () => {
    const owner = await seedOwner();
    for (const [query, field] of [
      ["groupBy=week", "groupBy"],
      ["startDate=2026-13-01", "startDate"],
      ["startDate=2026-06-10&endDate=2026-06-01", "endDate"],
      ["inbox=not-a-uuid", "inbox"],
      ["includeTests=yes", "includeTests"],
      ["timezone=Mars/Olympus", "timezone"],
    ]) {
      for (const p of [path, exportPath]) {
        const res = await owner.fetch("GET", p(owner.organizationId, query));
        const body = await expectError(res, 400);
        expect(body.detail, query).toMatch(new RegExp(field));
      }
    }
  });

  it("401 without a key, 403 without statistics.view, 404 for another organization and its filters", async () => {
    const { owner, a, labelId } = await seeded();
    for (const p of [path, exportPath]) {
      await expectError(await call("GET", `/api/v1${p(owner.organizationId)}`), 401);
      const viewer = await seedMember(owner, ["conversation.view"]);
      await expectError(await viewer.fetch("GET", p(owner.organizationId)), 403);
      const stranger = await seedOwner("stranger");
      await expectError(await stranger.fetch("GET", p(owner.organizationId)), 404);
      await expectError(await stranger.fetch("GET", p(NO_SUCH_ID)), 404);
      for (const filter of [`chatbot=${a.id}`, `inbox=${a.defaultInbox!.id}`, `label=${labelId}`]) {
        await expectError(await stranger.fetch("GET", p(stranger.organizationId, `${RANGE}&${filter}`)), 404);
      }
      const allowed = await seedMember(owner, ["statistics.view"]);
      expect((await allowed.fetch("GET", p(owner.organizationId))).status).toBe(200);
    }
  });
});

describe("GET /organizations/{organizationPk}/human-statistics/export-excel/", () => {
  it.each(PREFIXES)("the figures per group and in total as an .xlsx, read back (%s)", async (prefix) => {
    const { owner, a, b } = await seeded();
    const res = await owner.fetch("GET", exportPath(owner.organizationId, `${RANGE}&groupBy=assistant`), undefined, {
      prefix,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe(XLSX);
    expect(res.headers.get("Content-Disposition")).toBe(
      'attachment; filename="human-statistics-assistant-2026-06-10-2026-06-11.xlsx"',
    );
    const rows = readXlsx(await res.arrayBuffer());
    expect(rows[0]).toEqual([
      "Assistant",
      "Id",
      "Handoffs",
      "Resolved",
      "Waiting median (s)",
      "Waiting p90 (s)",
      "First response median (s)",
      "First response p90 (s)",
      "Resolution median (s)",
      "Resolution p90 (s)",
      "CSAT ratings",
      "CSAT average",
      "CSAT 1",
      "CSAT 2",
      "CSAT 3",
      "CSAT 4",
      "CSAT 5",
    ]);
    expect(rows.slice(1)).toEqual([
      ["Alpha desk", a.id, 2, 1, 60, 60, 120, 120, 600, 600, 1, 5, 0, 0, 0, 0, 1],
      ["Beta desk", b.id, 1, 0, 200, 200, 300, 300, null, null, 1, 3, 0, 0, 1, 0, 0],
      ["Total", null, 3, 1, 130, 186, 210, 282, 600, 600, 2, 4, 0, 0, 1, 0, 1],
    ]);
  });
});
