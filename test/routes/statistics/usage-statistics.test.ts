import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { call, expectError, NO_SUCH_ID, PREFIXES, parts, seedMember, seedOwner } from "../../harness";
import { client } from "../../../src/db/prepared";
import { expectDenied, expectInvalid, expectNotFound } from "../../support/refusals";
import { LOCAL_LLM, createChatbot } from "../../fixtures/chatbots";
import { ok, okList, okPage, seedConversation, sumOverParts, utc } from "./helpers";
import { rollBackTo, rollUpDays } from "../../../src/services/statistics/rollup";
import { currentMonth } from "../../../src/services/organizations";
import { enableGateway, QUESTION } from "../chat-completions/fixtures";

const base = (orgId: string) => `/organizations/${orgId}/usage-statistics`;
const RANGE = "startDate=2026-06-01&endDate=2026-06-30";

/** Two assistants; the owner and a member each started conversations; a visitor one more. */
async function seeded() {
  const owner = await seedOwner("owner");
  const member = await seedMember(owner, ["chatbot.view"]);
  const a = await createChatbot(owner, { name: "Alpha desk" });
  const b = await createChatbot(owner, { name: "Beta desk" });
  const opts = (createdById: string | null) => ({ createdById, modelId: LOCAL_LLM });
  await seedConversation(
    owner.organizationId,
    a.id,
    a.defaultInbox!.id,
    [{ at: utc("2026-06-01T00:00:00Z"), words: 10, inputTokens: 100, outputTokens: 12 }],
    opts(owner.userId),
  );
  await seedConversation(
    owner.organizationId,
    b.id,
    b.defaultInbox!.id,
    [
      { at: utc("2026-06-15T12:00:00Z"), words: 5, inputTokens: 50, outputTokens: 6 },
      { at: utc("2026-06-15T12:05:00Z"), words: 5, inputTokens: 50, outputTokens: 6 },
    ],
    opts(member.userId),
  );
  await seedConversation(
    owner.organizationId,
    a.id,
    a.defaultInbox!.id,
    [{ at: utc("2026-06-30T23:59:00Z"), words: 3 }],
    opts(null),
  );
  await seedConversation(
    owner.organizationId,
    a.id,
    a.defaultInbox!.id,
    [{ at: utc("2026-07-01T00:00:00Z"), words: 100 }],
    opts(owner.userId),
  ); // out of range
  return { owner, member, a, b };
}

describe("GET /organizations/{organizationPk}/usage-statistics/members/", () => {
  it.each(PREFIXES)("every member with the usage of the conversations their key started (%s)", async (prefix) => {
    const { owner, member } = await seeded();
    const page = await okPage<"GET /organizations/{organizationPk}/usage-statistics/members/">(
      await owner.fetch(
        "GET",
        `${base(owner.organizationId)}/members/?${RANGE}&sortBy=createdAt&sortOrder=asc`,
        undefined,
        { prefix },
      ),
    );
    expect(page.count).toBe(2);
    expect(
      page.results.map((m) => [
        m.userId,
        m.conversationsCount,
        m.messagesCount,
        m.wordsCount,
        m.inputTokens,
        m.requestsCount,
      ]),
    ).toEqual([
      [owner.userId, 1, 2, 10, 100, 1],
      [member.userId, 1, 4, 10, 100, 2],
    ]);
    expect(page.results[1]).toMatchObject({ id: member.memberId, email: member.email });
    const sorted = await okPage<"GET /organizations/{organizationPk}/usage-statistics/members/">(
      await owner.fetch("GET", `${base(owner.organizationId)}/members/?${RANGE}&sortBy=messagesCount&sortOrder=desc`),
    );
    expect(sorted.results[0].userId).toBe(member.userId);
    const found = await okPage<"GET /organizations/{organizationPk}/usage-statistics/members/">(
      await owner.fetch(
        "GET",
        `${base(owner.organizationId)}/members/?${RANGE}&search=${encodeURIComponent(member.email.slice(0, 12))}`,
      ),
    );
    expect(found.results.map((m) => m.userId)).toEqual([member.userId]);
    const alpha = await seededBot(owner.organizationId, "Alpha desk");
    const ofA = await okPage<"GET /organizations/{organizationPk}/usage-statistics/members/">(
      await owner.fetch(
        "GET",
        `${base(owner.organizationId)}/members/?${RANGE}&sortBy=name&sortOrder=asc&chatbot=${alpha}`,
      ),
    );
    expect(ofA.results.find((m) => m.userId === member.userId)!.messagesCount).toBe(0);
  });

  it("includeTime=true answers only the time series, unpaginated, by day or month", async () => {
    const { owner } = await seeded();
    const days = await okList<"GET /organizations/{organizationPk}/usage-statistics/members/">(
      await owner.fetch("GET", `${base(owner.organizationId)}/members/?${RANGE}&includeTime=true`),
    );
    expect(days).toHaveLength(30);
    expect(days[0]).not.toHaveProperty("userId");
    expect(days.filter((d) => d.messagesCount).map((d) => [d.time, d.messagesCount])).toEqual([
      ["2026-06-01", 2],
      ["2026-06-15", 4],
    ]);
    const months = await okList<"GET /organizations/{organizationPk}/usage-statistics/members/">(
      await owner.fetch(
        "GET",
        `${base(owner.organizationId)}/members/?startDate=2026-06-01&endDate=2026-07-31` +
          "&include_time=true&time_granularity=month",
      ),
    );
    expect(months.map((m) => [m.time, m.messagesCount, m.wordsCount])).toEqual([
      ["2026-06", 6, 20],
      ["2026-07", 2, 100],
    ]);
  });
});

async function seededBot(organizationId: string, name: string) {
  return (await env.DB.prepare("SELECT id FROM chatbots WHERE organization_id = ? AND name = ?")
    .bind(organizationId, name)
    .first<{ id: string }>())!.id;
}

describe("GET /organizations/{organizationPk}/usage-statistics/chatbots/", () => {
  it("every assistant with all its traffic, visitors included, matching a scan", async () => {
    const { owner, a, b } = await seeded();
    const page = await okPage<"GET /organizations/{organizationPk}/usage-statistics/chatbots/">(
      await owner.fetch("GET", `${base(owner.organizationId)}/chatbots/?${RANGE}&sortBy=name&sortOrder=asc`),
    );
    expect(page.results.map((r) => [r.name, r.conversationsCount, r.messagesCount, r.wordsCount])).toEqual([
      ["Alpha desk", 2, 4, 13],
      ["Beta desk", 1, 4, 10],
    ]);
    for (const bot of [a, b]) {
      // The messages of every part, each in its conversation's.
      const scan = await sumOverParts<"n" | "w">(
        owner.organizationId,
        "SELECT count(*) AS n, sum(m.words_count) AS w FROM messages m JOIN conversations c ON c.id = " +
          "m.conversation_id WHERE c.chatbot_id = ? AND m.created_at >= ? AND m.created_at < ?",
        bot.id,
        utc("2026-06-01T00:00:00Z"),
        utc("2026-07-01T00:00:00Z"),
      );
      const row = page.results.find((r) => r.id === bot.id)!;
      expect([row.messagesCount, row.wordsCount]).toEqual([scan.n, scan.w]);
    }
    const found = await okPage<"GET /organizations/{organizationPk}/usage-statistics/chatbots/">(
      await owner.fetch("GET", `${base(owner.organizationId)}/chatbots/?${RANGE}&search=beta`),
    );
    expect(found.results.map((r) => r.id)).toEqual([b.id]);
    const series = await okList<"GET /organizations/{organizationPk}/usage-statistics/chatbots/">(
      await owner.fetch("GET", `${base(owner.organizationId)}/chatbots/?${RANGE}&includeTime=true&chatbot=${a.id}`),
    );
    expect(series.reduce((n, d) => n + d.messagesCount, 0)).toBe(4);
  });
});

describe("daily rollups (organization-wide answers over long ranges)", () => {
  it("answer as the hour rows do, in UTC and in a timezone, before and after the days are rolled up", async () => {
    const { owner } = await seeded();
    const queries = [
      `members/?${RANGE}`,
      `chatbots/?${RANGE}&sortBy=name&sortOrder=asc`,
      `members/?startDate=2026-05-31&endDate=2026-07-01&includeTime=true&timeGranularity=month`,
      `chatbots/?startDate=2026-06-01&endDate=2026-07-01&includeTime=true&timezone=Asia/Taipei`,
      `chatbots/summary/?startDate=2026-05-01&endDate=2026-07-31&timeGranularity=month&timezone=America/New_York`,
    ];
    const read = () =>
      Promise.all(queries.map(async (q) => await ok(await owner.fetch("GET", `${base(owner.organizationId)}/${q}`))));
    // Each part rolls up the days of its own conversations, as the housekeeping runs it on every data plane.
    const usage = (await parts(owner.organizationId)).map(client);
    for (const part of usage) {
      await rollUpDays(part); // the watermark exists
      await rollBackTo(part, utc("2026-01-01T00:00:00Z"));
    }
    const fromHours = await read();
    for (const part of usage) await rollUpDays(part, utc("2026-08-01T12:00:00Z"));
    const rolled = await sumOverParts(
      owner.organizationId,
      "SELECT count(*) AS n, sum(incoming_messages) AS m FROM usage_daily_chatbots WHERE organization_id = ?",
      owner.organizationId,
    );
    expect(rolled).toEqual({ n: 4, m: 5 }); // 1, 15 and 30 June and 1 July (settled 2 h after its end)
    expect(await read()).toEqual(fromHours);
  });
});

describe("GET .../usage-statistics/{members,chatbots}/summary/", () => {
  it.each(PREFIXES)("totals, series, entity counts and the organization's quantities (%s)", async (prefix) => {
    const { owner } = await seeded();
    const members = await ok<"GET /organizations/{organizationPk}/usage-statistics/members/summary/">(
      await owner.fetch("GET", `${base(owner.organizationId)}/members/summary/?${RANGE}`, undefined, { prefix }),
    );
    expect(members).toMatchObject({
      startDate: "2026-06-01",
      endDate: "2026-06-30",
      membersCount: 2,
      activeMembersCount: 2,
      total: { messagesCount: 6, wordsCount: 20, conversationsCount: 2 },
    });
    expect(members.usageStatistics).toMatchObject({ chatbotsCount: 2 });
    expect(members.results).toHaveLength(30);
    const chatbots = await ok<"GET /organizations/{organizationPk}/usage-statistics/chatbots/summary/">(
      await owner.fetch("GET", `${base(owner.organizationId)}/chatbots/summary/?${RANGE}&timeGranularity=month`),
    );
    expect(chatbots).toMatchObject({
      chatbotsCount: 2,
      activeChatbotsCount: 2,
      total: { messagesCount: 8, wordsCount: 23, conversationsCount: 3 },
    });
    expect(chatbots.organizationPlan).toMatchObject({ id: expect.any(String) });
  });

  it("counts the assistants the organization has as its record does: the personal ones it hosts too", async () => {
    const owner = await seedOwner();
    await createChatbot(owner);
    // Made while acting in the organization: a place of its plan, though only its maker sees it.
    const member = await seedMember(owner, ["chatbot.manage"]);
    await createChatbot(member, { organization: null });
    const summary = await ok<"GET /organizations/{organizationPk}/usage-statistics/chatbots/summary/">(
      await owner.fetch("GET", `${base(owner.organizationId)}/chatbots/summary/?${RANGE}`),
    );
    expect(summary.usageStatistics.chatbotsCount).toBe(2);
    expect(summary.chatbotsCount).toBe(2);
  });

  it("a personal assistant it hosts is active and listed with its usage, as it is counted", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner, ["chatbot.manage"]);
    const personal = await createChatbot(member, { organization: null, name: "Own desk" });
    await seedConversation(
      owner.organizationId,
      personal.id,
      personal.defaultInbox!.id,
      [{ at: utc("2026-06-03T08:00:00Z"), words: 7 }],
      { modelId: LOCAL_LLM, createdById: member.userId },
    );
    const summary = await ok<"GET /organizations/{organizationPk}/usage-statistics/chatbots/summary/">(
      await owner.fetch("GET", `${base(owner.organizationId)}/chatbots/summary/?${RANGE}`),
    );
    // Read 0 active of 1 before: the count had it, the active ones did not.
    expect(summary).toMatchObject({ chatbotsCount: 1, activeChatbotsCount: 1, total: { wordsCount: 7 } });
    const page = await okPage<"GET /organizations/{organizationPk}/usage-statistics/chatbots/">(
      await owner.fetch("GET", `${base(owner.organizationId)}/chatbots/?${RANGE}&search=own`),
    );
    expect(page.results.map((r) => [r.id, r.name, r.wordsCount])).toEqual([[personal.id, "Own desk", 7]]);
    const series = await okList<"GET /organizations/{organizationPk}/usage-statistics/chatbots/">(
      await owner.fetch(
        "GET",
        `${base(owner.organizationId)}/chatbots/?${RANGE}&includeTime=true&chatbot=${personal.id}`,
      ),
    );
    expect(series.reduce((n, d) => n + d.wordsCount, 0)).toBe(7);
  });
});

describe("usage summaries: deleted assistants and removed members", () => {
  const MAY = "startDate=2026-05-01&endDate=2026-05-31";
  const at = utc("2026-05-02T05:00:00Z");

  it("a deleted assistant's usage stays in the total, but it is no active assistant", async () => {
    const owner = await seedOwner();
    const kept = await createChatbot(owner);
    const gone = await createChatbot(owner);
    for (const bot of [kept, gone])
      await seedConversation(owner.organizationId, bot.id, bot.defaultInbox!.id, [{ at, words: 4 }], {
        modelId: LOCAL_LLM,
      });
    expect((await owner.fetch("DELETE", `/chatbots/${gone.id}/`)).status).toBe(204);
    const summary = await ok<"GET /organizations/{organizationPk}/usage-statistics/chatbots/summary/">(
      await owner.fetch("GET", `${base(owner.organizationId)}/chatbots/summary/?${MAY}`),
    );
    // Counted as 2 active assistants of 1 before.
    expect(summary).toMatchObject({ chatbotsCount: 1, activeChatbotsCount: 1, total: { wordsCount: 8 } });
  });

  it("a removed member's usage stays in the total, but they are no active member", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner, ["chatbot.view"]);
    const bot = await createChatbot(owner);
    for (const userId of [owner.userId, member.userId])
      await seedConversation(owner.organizationId, bot.id, bot.defaultInbox!.id, [{ at, words: 4 }], {
        modelId: LOCAL_LLM,
        createdById: userId,
      });
    const removed = await owner.fetch("DELETE", `/organizations/${owner.organizationId}/members/${member.memberId}/`);
    expect(removed.status).toBe(204);
    const summary = await ok<"GET /organizations/{organizationPk}/usage-statistics/members/summary/">(
      await owner.fetch("GET", `${base(owner.organizationId)}/members/summary/?${MAY}`),
    );
    // Counted as 2 active members of 1 before.
    expect(summary).toMatchObject({ membersCount: 1, activeMembersCount: 1, total: { wordsCount: 8 } });
  });
});

describe("usage statistics and the AI gateway", () => {
  const AGREE =
    "count a member's gateway answers as the month's words do: the summaries and the member's row add up to them, " +
    "each answer a request of its model but no reply";
  it(AGREE, async () => {
    const owner = await seedOwner("gateway");
    await enableGateway(owner.organizationId);
    // The month's words over the organization's parts (the gateway writes to its first, a conversation to its own).
    const wordsUsed = async () =>
      (
        await sumOverParts<"words">(
          owner.organizationId,
          "SELECT sum(words_count) AS words FROM organization_usage WHERE organization_id = ? AND month = ?",
          owner.organizationId,
          currentMonth(),
        )
      ).words;
    const bot = await createChatbot(owner);
    const completion = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
      message: { content: "What are your opening hours?" },
    });
    expect(completion.status, await completion.clone().text()).toBe(200);
    const replyWords = await wordsUsed();
    expect(replyWords).toBeGreaterThan(0);
    for (const stream of [false, true]) {
      const res = await owner.fetch("POST", "/chat/completions", { model: "Local LLM", messages: QUESTION, stream });
      expect(res.status, await res.clone().text()).toBe(200);
      await res.text();
    }
    // Each answer is 7 words, counted once it is sent.
    await vi.waitFor(async () => expect(await wordsUsed()).toBe(replyWords + 14));
    // The range defaults to this month: every figure is this month's words of the organization's answers.
    const [members, chatbots, rows] = await Promise.all([
      ok<"GET /organizations/{organizationPk}/usage-statistics/members/summary/">(
        await owner.fetch("GET", `${base(owner.organizationId)}/members/summary/`),
      ),
      ok<"GET /organizations/{organizationPk}/usage-statistics/chatbots/summary/">(
        await owner.fetch("GET", `${base(owner.organizationId)}/chatbots/summary/`),
      ),
      okPage<"GET /organizations/{organizationPk}/usage-statistics/members/">(
        await owner.fetch("GET", `${base(owner.organizationId)}/members/`),
      ),
    ]);
    const month = members.usageStatistics.currentMonthUsedWordsCountTotal;
    expect(month).toBe(replyWords + 14);
    expect({
      members: members.total.wordsCount,
      chatbots: chatbots.total.wordsCount,
      member: rows.results.map((r) => r.wordsCount),
    }).toEqual({ members: month, chatbots: month, member: [month] });
    // The completion's reply, then the two gateway answers: requests of the model, not replies of an assistant.
    expect(members.total).toMatchObject({ requestsCount: 3, repliesCount: 1 });
    expect(chatbots.total).toMatchObject({ requestsCount: 3, repliesCount: 1 });
  });
});

describe("usage statistics without dates", () => {
  it("cover this month up to today, local to the timezone; a later start alone is that one day", async () => {
    const owner = await seedOwner();
    const summary = async (query: string) =>
      ok<"GET /organizations/{organizationPk}/usage-statistics/members/summary/">(
        await owner.fetch("GET", `${base(owner.organizationId)}/members/summary/?${query}`),
      );
    // Kiritimati is UTC+14: its today is not UTC's for most of the UTC day.
    for (const timezone of ["UTC", "Pacific/Kiritimati"]) {
      const localToday = () => new Intl.DateTimeFormat("en-CA", { timeZone: timezone }).format(new Date());
      const before = localToday();
      const answer = await summary(`timezone=${timezone}`);
      expect([before, localToday()]).toContain(answer.endDate);
      expect(answer.startDate).toBe(`${answer.endDate.slice(0, 7)}-01`);
      expect(answer.results).toHaveLength(Number(answer.endDate.slice(8)));
    }
    expect(await summary("startDate=2099-01-05")).toMatchObject({ startDate: "2099-01-05", endDate: "2099-01-05" });
  });
});

describe("usage statistics: bad input, 401, 403, 404", () => {
  const paths = ["members/", "chatbots/", "members/summary/", "chatbots/summary/"];
  it.each([
    ["startDate=2026-02-30", "startDate"],
    ["startDate=2026-06-02&endDate=2026-06-01", "endDate"],
    ["timeGranularity=week", "timeGranularity"],
    ["timezone=Atlantis", "timezone"],
  ])("400 for %s", async (query, field) => {
    const owner = await seedOwner();
    for (const p of paths) {
      await expectInvalid(await owner.fetch("GET", `${base(owner.organizationId)}/${p}?${query}`), field);
    }
    for (const q of ["sortBy=colour", "sortOrder=up", "chatbot=nope", "includeTime=yes", "page=0"])
      await expectError(await owner.fetch("GET", `${base(owner.organizationId)}/members/?${q}`), 400);
    await expectError(await owner.fetch("GET", `${base(owner.organizationId)}/chatbots/?sortBy=email`), 400);
  });

  it("401, 403 without statistics.view, 404 for another organization or its assistant", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const member = await seedMember(owner, ["chatbot.manage", "conversation.view"]);
    const viewer = await seedMember(owner, ["statistics.view"]);
    const stranger = await seedOwner();
    for (const p of paths) {
      await expectError(await call("GET", `/api/v1${base(owner.organizationId)}/${p}`), 401, "not_authenticated");
      await expectDenied(await member.fetch("GET", `${base(owner.organizationId)}/${p}`));
      await ok(await viewer.fetch("GET", `${base(owner.organizationId)}/${p}`));
      await expectNotFound(await stranger.fetch("GET", `${base(owner.organizationId)}/${p}`));
    }
    await expectNotFound(await stranger.fetch("GET", `${base(stranger.organizationId)}/members/?chatbot=${bot.id}`));
    await expectNotFound(await owner.fetch("GET", `${base(NO_SUCH_ID)}/members/`));
  });
});
