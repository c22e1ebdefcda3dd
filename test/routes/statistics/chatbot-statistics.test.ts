import { describe, expect, it } from "vitest";
import { expectError, fromEveryPart, PREFIXES, seedMember, seedOwner } from "../../harness";
import { client } from "../../../src/db/prepared";
import { prng } from "../../../src/lib/random";
import { createChatbot } from "../../fixtures/chatbots";
import { ok, rateAnswers, seedContact, seedConversation, sumOverParts, utc } from "./helpers";
import { expectStatisticGuarded, refusesQueries } from "./refusals";

const path = (id: string, query = "") => `/chatbots/${id}/statistics/${query}`;

describe("GET /chatbots/{chatbotPk}/statistics/", () => {
  it.each(PREFIXES)("counts what completions store, per day, today included by default (%s)", async (prefix) => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const first = await ok<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "Where is my parcel?" } }),
    );
    await ok<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, {
        conversation: first.conversationId,
        message: { content: "And the invoice?" },
      }),
    );
    await ok<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "Hello" } }),
    );

    const stats = await ok<"GET /chatbots/{chatbotPk}/statistics/">(
      await owner.fetch("GET", path(bot.id), undefined, { prefix }),
    );
    expect(stats.timezone).toBe("UTC");
    expect(stats.results).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    expect(stats.results.at(-1)!.time).toBe(today);
    expect(stats.total).toMatchObject({
      conversationsCount: 2,
      incomingMessagesCount: 3,
      outgoingMessagesCount: 3,
      messagesCount: 6,
      repliesCount: 3,
      failedRepliesCount: 0,
    });
    expect(stats.total.averageReplyTime).toBeGreaterThanOrEqual(0);
    expect(stats.results.at(-1)).toMatchObject({ conversationsCount: 2, messagesCount: 6 });
    expect(stats.results.slice(0, -1).every((b) => b.messagesCount === 0)).toBe(true);
  });

  it("splits buckets at UTC midnight and month ends, and in a timezone at its own midnight", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const contact = await seedContact(owner.organizationId);
    const inbox = bot.defaultInbox!.id;
    // 23:59:59 on 31 January and 00:00:00 on 1 February (UTC); 16:00 UTC on 31 January is midnight in Taipei.
    await seedConversation(owner.organizationId, bot.id, inbox, [{ at: utc("2026-01-31T23:59:59Z"), replyMs: 500 }], {
      contactId: contact,
    });
    await seedConversation(owner.organizationId, bot.id, inbox, [{ at: utc("2026-02-01T00:00:00Z"), replyMs: 1500 }], {
      contactId: contact,
    });
    await seedConversation(owner.organizationId, bot.id, inbox, [{ at: utc("2026-01-31T15:59:00Z"), replyMs: 2000 }]);

    const days = await ok<"GET /chatbots/{chatbotPk}/statistics/">(
      await owner.fetch("GET", path(bot.id, "?datetimeFrom=2026-01-30&datetimeTo=2026-02-02&timeGranularity=day")),
    );
    expect(days.results.map((b) => [b.time, b.incomingMessagesCount])).toEqual([
      ["2026-01-30", 0],
      ["2026-01-31", 2],
      ["2026-02-01", 1],
      ["2026-02-02", 0],
    ]);
    expect(days.results[1]).toMatchObject({ contactsCount: 1, repliesCount: 2, averageReplyTime: 1.25 });
    expect(days.total).toMatchObject({
      contactsCount: 1,
      conversationsCount: 3,
      averageReplyTime: Math.round(4000 / 3) / 1000,
    });

    const months = await ok<"GET /chatbots/{chatbotPk}/statistics/">(
      await owner.fetch("GET", path(bot.id, "?datetime_from=2026-01-01&datetime_to=2026-02-28&time_granularity=month")),
    );
    expect(months.results.map((b) => [b.time, b.incomingMessagesCount])).toEqual([
      ["2026-01", 2],
      ["2026-02", 1],
    ]);

    const taipei = await ok<"GET /chatbots/{chatbotPk}/statistics/">(
      await owner.fetch("GET", path(bot.id, "?datetimeFrom=2026-01-31&datetimeTo=2026-02-01&timezone=Asia/Taipei")),
    );
    expect(taipei.datetimeFrom).toBe(String(utc("2026-01-30T16:00:00Z")));
    expect(taipei.results.map((b) => [b.time, b.incomingMessagesCount])).toEqual([
      ["2026-01-31", 1],
      ["2026-02-01", 2],
    ]);

    const hours = await ok<"GET /chatbots/{chatbotPk}/statistics/">(
      await owner.fetch(
        "GET",
        path(bot.id, "?datetimeFrom=2026-01-31T23:00:00Z&datetimeTo=2026-02-01T01:00:00Z&timeGranularity=hour"),
      ),
    );
    expect(hours.results.map((b) => [b.time, b.incomingMessagesCount, b.outgoingMessagesCount])).toEqual([
      ["2026-01-31T23:00", 1, 1],
      ["2026-02-01T00:00", 1, 1],
    ]);
  });

  it("a day whose midnight DST skips starts at the jump, and the day before keeps its 24 hours", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    // 23:30 on 5 September in Santiago (-04), the last half hour before its clocks jump from 00:00 to 01:00 (-03).
    await seedConversation(owner.organizationId, bot.id, bot.defaultInbox!.id, [{ at: utc("2026-09-06T03:30:00Z") }]);
    for (const [timezone, before, day, jump] of [
      ["America/Santiago", "2026-09-05", "2026-09-06", "2026-09-06T04:00:00Z"],
      ["America/Havana", "2026-03-07", "2026-03-08", "2026-03-08T05:00:00Z"],
      ["Atlantic/Azores", "2026-03-28", "2026-03-29", "2026-03-29T01:00:00Z"],
    ]) {
      const days = await ok<"GET /chatbots/{chatbotPk}/statistics/">(
        await owner.fetch("GET", path(bot.id, `?datetimeFrom=${before}&datetimeTo=${day}&timezone=${timezone}`)),
      );
      expect(
        days.results.map((b) => b.time),
        timezone,
      ).toEqual([before, day]);
      const [first, second] = days.results;
      expect((Number(first.endAt) - Number(first.startAt)) / 3_600_000, timezone).toBe(24);
      expect(second.startAt, timezone).toBe(String(utc(jump)));
      if (timezone === "America/Santiago") expect(first.incomingMessagesCount).toBe(1);
    }
  });

  it("counts exactly what a scan of the same messages finds", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const inbox = bot.defaultInbox!.id;
    const contacts = await Promise.all([0, 1, 2, 3].map((i) => seedContact(owner.organizationId, `c${i}`)));
    const rand = prng(7);
    const base = utc("2026-03-01T00:00:00Z");
    for (let c = 0; c < 12; c++) {
      const turns = Array.from({ length: 1 + Math.floor(rand() * 4) }, (_, i) => ({
        at: base + Math.floor(rand() * 10 * 86_400_000) + i,
        replyMs: 200 + Math.floor(rand() * 3000),
        feedback: (["like", "dislike", null] as const)[Math.floor(rand() * 3)],
        toolCalls: Math.floor(rand() * 3),
        answer: rand() < 0.1 ? null : "ok",
      }));
      turns.sort((a, b) => a.at - b.at);
      await seedConversation(owner.organizationId, bot.id, inbox, turns, { contactId: contacts[c % 4] });
    }
    const stats = await ok<"GET /chatbots/{chatbotPk}/statistics/">(
      await owner.fetch("GET", path(bot.id, "?datetimeFrom=2026-03-01&datetimeTo=2026-03-10")),
    );
    // The assistant's messages in every part, each in its conversation's, counted by day as the figures count them:
    // a contact who asked in conversations of two parts on one day is one.
    const messages = await fromEveryPart(owner.organizationId, async (part) => {
      const { results } = await client(part)
        .prepare(
          `SELECT strftime('%Y-%m-%d', m.created_at / 1000, 'unixepoch') AS day, m.type, m.feedback,
          coalesce(json_array_length(m.content_payload, '$.toolCalls'), 0) AS tools, c.contact_id AS contact
        FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE c.chatbot_id = ?`,
        )
        .bind(bot.id)
        .all<{ day: string; type: string; feedback: string | null; tools: number; contact: string | null }>();
      return results;
    });
    const byDay = new Map<
      string,
      { incoming: number; outgoing: number; likes: number; dislikes: number; tools: number; contacts: number }
    >();
    const contactsOn = new Map<string, Set<string>>();
    for (const m of messages) {
      const day = byDay.get(m.day) ?? { incoming: 0, outgoing: 0, likes: 0, dislikes: 0, tools: 0, contacts: 0 };
      byDay.set(m.day, day);
      day.incoming += Number(m.type === "incoming");
      day.outgoing += Number(m.type === "outgoing");
      day.likes += Number(m.feedback === "like");
      day.dislikes += Number(m.feedback === "dislike");
      day.tools += m.tools;
      if (m.type !== "incoming" || !m.contact) continue;
      const contacts = contactsOn.get(m.day) ?? new Set();
      contactsOn.set(m.day, contacts.add(m.contact));
      day.contacts = contacts.size;
    }
    expect(messages.length).toBeGreaterThan(12);
    for (const b of stats.results) {
      const s = byDay.get(b.time);
      expect([
        b.time,
        b.incomingMessagesCount,
        b.outgoingMessagesCount,
        b.likesCount,
        b.dislikesCount,
        b.toolCallsCount,
        b.contactsCount,
      ]).toEqual([
        b.time,
        s?.incoming ?? 0,
        s?.outgoing ?? 0,
        s?.likes ?? 0,
        s?.dislikes ?? 0,
        s?.tools ?? 0,
        s?.contacts ?? 0,
      ]);
    }
    const conversations = await sumOverParts(
      owner.organizationId,
      "SELECT count(*) AS n FROM conversations WHERE chatbot_id = ?",
      bot.id,
    );
    expect(conversations.n).toBe(12);
    expect(stats.total.conversationsCount).toBe(conversations.n);
  });

  it("moves feedback counts when a rating changes", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const at = utc("2026-04-02T10:00:00Z");
    const conversation = await seedConversation(owner.organizationId, bot.id, bot.defaultInbox!.id, [
      { at, feedback: "like" },
    ]);
    const read = async () =>
      (
        await ok<"GET /chatbots/{chatbotPk}/statistics/">(
          await owner.fetch("GET", path(bot.id, "?datetimeFrom=2026-04-02&datetimeTo=2026-04-02")),
        )
      ).total;
    expect(await read()).toMatchObject({ likesCount: 1, dislikesCount: 0 });
    await rateAnswers(conversation, "dislike");
    expect(await read()).toMatchObject({ likesCount: 0, dislikesCount: 1 });
    await rateAnswers(conversation, null);
    expect(await read()).toMatchObject({ likesCount: 0, dislikesCount: 0 });
  });

  refusesQueries(path, [
    ["?timeGranularity=week", "timeGranularity"],
    ["?datetimeFrom=yesterday", "datetimeFrom"],
    ["?datetimeFrom=2026-02-30", "datetimeFrom"],
    ["?datetimeFrom=2026-03-02&datetimeTo=2026-03-01", "datetimeTo"],
    ["?timezone=Mars/Olympus", "timezone"],
    ["?datetimeFrom=2020-01-01&datetimeTo=2026-01-01&timeGranularity=hour", "timeGranularity"],
  ]);

  it("a refused date says what is wrong with it: a day before 1970, a day the calendar has not", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    for (const [value, said] of [
      ["0001-01-01", "Use a date from 1970-01-01 on."],
      ["2026-02-30", "2026-02-30 is no day of the calendar."],
    ]) {
      const refused = await expectError(await owner.fetch("GET", path(bot.id, `?datetimeFrom=${value}`)), 400);
      expect(refused.errors?.datetimeFrom, value).toEqual([said]);
    }
  });

  it("a date-time must be on a day of the calendar and at a time of day, with or without an offset", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const noDay = "2026-02-31 is no day of the calendar.";
    const noTime = (value: string) => `${value} is no time of day (00:00 to 23:59:59, or 24:00 for the day's end).`;
    // Date.UTC and Date.parse read 2026-02-31T10:00 as March 3 and would have answered 200.
    for (const [value, said] of [
      ["2026-02-31T10:00", noDay],
      ["2026-02-31T10:00:00Z", noDay],
      ["2026-06-01T10:00:99", noTime("2026-06-01T10:00:99")],
      ["2026-06-01T10:60", noTime("2026-06-01T10:60")],
      ["2026-06-01T24:30", noTime("2026-06-01T24:30")],
    ]) {
      const refused = await expectError(await owner.fetch("GET", path(bot.id, `?datetimeFrom=${value}`)), 400);
      expect(refused.errors?.datetimeFrom, value).toEqual([said]);
    }
  });

  it("a wall time of 24:00 is the next day's midnight in the request's timezone, not in UTC", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const from = async (datetimeFrom: string, timezone: string) =>
      (
        await ok<"GET /chatbots/{chatbotPk}/statistics/">(
          await owner.fetch(
            "GET",
            path(
              bot.id,
              `?datetimeFrom=${datetimeFrom}&datetimeTo=2026-06-03&timeGranularity=day&timezone=${timezone}`,
            ),
          ),
        )
      ).datetimeFrom;
    // Taipei's 2026-06-01T24:00 is 2026-06-01T16:00Z (it was read as UTC: 8 hours late).
    expect(await from("2026-06-01T24:00", "Asia/Taipei")).toBe(String(utc("2026-06-01T16:00:00Z")));
    expect(await from("2026-06-02T00:00", "Asia/Taipei")).toBe(String(utc("2026-06-01T16:00:00Z")));
    expect(await from("2026-06-01T24:00Z", "Asia/Taipei")).toBe(String(utc("2026-06-02T00:00:00Z")));
  });

  it("a timezone in any casing is read as the zone it names, and answered by its canonical name", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const read = async (timezone: string) =>
      ok<"GET /chatbots/{chatbotPk}/statistics/">(
        await owner.fetch("GET", path(bot.id, `?datetimeFrom=2026-06-01&datetimeTo=2026-06-02&timezone=${timezone}`)),
      );
    const canonical = await read("Asia/Taipei");
    for (const spelling of ["asia/taipei", "ASIA/TAIPEI"]) {
      const body = await read(spelling);
      expect(body.timezone, spelling).toBe("Asia/Taipei");
      expect(body.results, spelling).toEqual(canonical.results);
    }
    expect((await read("etc/utc")).timezone).toBe("UTC");
  });

  it("401 without a key, 403 without statistics.view, 404 for another organization's assistant", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    await expectStatisticGuarded(owner, bot.id, (id) => path(id), "/api/v1");
    const member = await seedMember(owner, ["chatbot.view", "conversation.view"]);
    await expectError(await member.fetch("GET", path(bot.id)), 403, "permission_denied");
    // A member sees the statistics of the assistants they may see (here one they created).
    const viewer = await seedMember(owner, ["statistics.view", "chatbot.manage"]);
    const own = await createChatbot(viewer);
    await ok<"GET /chatbots/{chatbotPk}/statistics/">(await viewer.fetch("GET", path(own.id)));
  });
});
