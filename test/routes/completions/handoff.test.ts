import { describe, expect, it } from "vitest";
import { seedMember, seedOwner, type Actor } from "../../harness";
import { createChatbot, createUnanswering } from "../../fixtures/chatbots";
import { readEvents, storedReply, type StreamEvent, streamedText } from "../../support/sse";
import { asksForPerson } from "../../../src/services/conversation/handoff";
import { lastUpstreamRequest, upstreamModel } from "../chat-completions/fixtures";
import { WEEKDAYS, type BusinessHours } from "../../../src/services/business-hours";
import { bodyOf, problemOf, refinedBodyOf } from "../../support/api";

const completions = (chatbotId: string) => `/chatbots/${chatbotId}/completions/`;
const DEFAULT_EN = "I'll pass you to a member of our team, who will reply here as soon as they can.";

const conversationOf = async (actor: Actor, id: string) =>
  await bodyOf<"GET /conversations/{id}/">(await actor.fetch("GET", `/conversations/${id}/`));
const messagesOf = async (actor: Actor, id: string) =>
  (await bodyOf<"GET /messages/">(await actor.fetch("GET", `/messages/?conversation=${id}&pageSize=100`))).results.sort(
    (a, b) => a.sequence - b.sequence,
  );

describe("an assistant hands the conversation to a person when the visitor asks for one", () => {
  it(
    "on a new conversation's first turn: says the handoff message once, queues the conversation, and is silent " +
      "after",
    async () => {
      const owner = await seedOwner();
      const bot = await createChatbot(owner);
      const res = await owner.fetch("POST", completions(bot.id), {
        message: { content: "I need to talk to a person about order 4471" },
      });
      expect(res.status, await res.clone().text()).toBe(200);
      const reply = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res);
      expect(reply.content).toBe(DEFAULT_EN);
      expect(reply.message).toMatchObject({
        senderType: "chatbot",
        sequence: 2,
        contentPayload: { handoff: { reason: "visitor_request" } },
      });
      expect(await conversationOf(owner, reply.conversationId)).toMatchObject({
        status: "queued",
        progressStatus: "waiting_for_human",
        autoReplyEnabled: false,
      });

      // The assistant stays silent; the visitor's next message waits for the person.
      const next = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
        await owner.fetch("POST", completions(bot.id), {
          conversation: reply.conversationId,
          message: { content: "Is anyone there?" },
        }),
      );
      expect(next).toMatchObject({ content: "", message: null });
      expect((await messagesOf(owner, reply.conversationId)).map((m) => `${m.sequence}:${m.senderType}`)).toEqual([
        "1:contact",
        "2:chatbot",
        "3:contact",
      ]);
    },
  );

  it("streamed, and in a conversation under way (through its object), in the visitor's language", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const first = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", completions(bot.id), { message: { content: "Where is my parcel?" } }),
    );
    expect(first.content).toBe('You said: "Where is my parcel?".');
    const res = await owner.fetch("POST", completions(bot.id), {
      conversation: first.conversationId,
      message: { content: "我要轉人工" },
      isStreaming: true,
    });
    const events = await readEvents<StreamEvent>(res);
    const done = storedReply(events);
    expect(done).toMatchObject({
      done: true,
      message: {
        content: "我會請團隊成員來協助您，他們會盡快在這裡回覆。",
        contentPayload: { handoff: { reason: "visitor_request" } },
      },
    });
    expect(streamedText(events)).toBe(done.message.content);
    expect(await conversationOf(owner, first.conversationId)).toMatchObject({
      status: "queued",
      progressStatus: "waiting_for_human",
      autoReplyEnabled: false,
    });

    // Words both scripts write alike are answered in the script the visitor wrote in before.
    const simplified = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", completions(bot.id), { message: { content: "我想退货" } }),
    );
    const ambiguous = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", completions(bot.id), {
        conversation: simplified.conversationId,
        message: { content: "我要找真人客服" },
      }),
    );
    expect(ambiguous.content).toBe("我会请团队成员来协助您，他们会尽快在这里回复。");

    // A first turn streamed in the worker hands off too.
    const streamed = await readEvents<StreamEvent>(
      await owner.fetch("POST", completions(bot.id), {
        message: { content: "Can I speak to a real person?" },
        isStreaming: true,
      }),
    );
    const last = storedReply(streamed);
    expect(last.message.content).toBe(DEFAULT_EN);
    expect(await conversationOf(owner, last.conversationId)).toMatchObject({
      progressStatus: "waiting_for_human",
      autoReplyEnabled: false,
    });
  });

  it("an asynchronous message (POST /messages/) hands off as well", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const { conversationId } = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", completions(bot.id), { message: { content: "Hi" } }),
    );
    const res = await owner.fetch("POST", "/messages/", { conversation: conversationId, content: "human please" });
    expect(res.status, await res.clone().text()).toBe(201);
    await expect
      .poll(async () => (await conversationOf(owner, conversationId)).progressStatus)
      .toBe("waiting_for_human");
    expect((await messagesOf(owner, conversationId)).at(-1)).toMatchObject({
      senderType: "chatbot",
      content: DEFAULT_EN,
    });
  });

  it(
    "follows the assistant's settings: its own message, or no handoff at all; a handed-back conversation is " +
      "answered again",
    async () => {
      const owner = await seedOwner();
      const bot = await createChatbot(owner, { handoff: { message: "  Olivia will take it from here.  " } });
      expect(bot.handoff).toEqual({
        enabled: true,
        afterUnanswered: 2,
        message: "Olivia will take it from here.",
        outsideHoursMessage: null,
      });
      const reply = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
        await owner.fetch("POST", completions(bot.id), { message: { content: "Let me talk to a human" } }),
      );
      expect(reply.content).toBe("Olivia will take it from here.");

      // Handed back, the assistant answers again, and hands off again when asked.
      expect(
        (
          await owner.fetch("PATCH", `/conversations/${reply.conversationId}/update-auto-reply/`, {
            autoReplyEnabled: true,
          })
        ).status,
      ).toBe(200);
      const again = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
        await owner.fetch("POST", completions(bot.id), {
          conversation: reply.conversationId,
          message: { content: "What time do you open?" },
        }),
      );
      expect(again.content).toBe('You said: "What time do you open?".');

      const patched = await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { handoff: { enabled: false } });
      expect((await bodyOf<"PATCH /chatbots/{id}/">(patched)).handoff).toEqual({
        enabled: false,
        afterUnanswered: 2,
        message: null,
        outsideHoursMessage: null,
      });
      const answered = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
        await owner.fetch("POST", completions(bot.id), { message: { content: "Let me talk to a human" } }),
      );
      expect(answered.content).toBe('You said: "Let me talk to a human".');

      const reset = await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { handoff: null });
      expect((await bodyOf<"PATCH /chatbots/{id}/">(reset)).handoff).toEqual({
        enabled: true,
        afterUnanswered: 2,
        message: null,
        outsideHoursMessage: null,
      });
    },
  );

  it(
    "after afterUnanswered replies in a row that could not answer, the last one goes on with the handoff " + "message",
    async () => {
      const owner = await seedOwner();
      const bot = await createUnanswering(owner);
      const first = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
        await owner.fetch("POST", completions(bot.id), { message: { content: "What colour is the sky on Mars?" } }),
      );
      expect(first.content).toBe("I don't know that.");
      expect(await conversationOf(owner, first.conversationId)).toMatchObject({
        progressStatus: "ai_processing",
        autoReplyEnabled: true,
      });
      const events = await readEvents<StreamEvent>(
        await owner.fetch("POST", completions(bot.id), {
          conversation: first.conversationId,
          message: { content: "And on Venus?" },
          isStreaming: true,
        }),
      );
      const done = storedReply(events);
      expect(done.message.content).toBe(`I don't know that.\n\n${DEFAULT_EN}`);
      expect(done.message.contentPayload).toEqual({ handoff: { reason: "unanswered" } });
      expect(streamedText(events)).toBe(done.message.content);
      expect(await conversationOf(owner, first.conversationId)).toMatchObject({
        status: "queued",
        progressStatus: "waiting_for_human",
        autoReplyEnabled: false,
      });

      // Handed back, the count starts again from the handoff; with afterUnanswered 0 it never hands off.
      await owner.fetch("PATCH", `/conversations/${first.conversationId}/update-auto-reply/`, {
        autoReplyEnabled: true,
      });
      const after = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
        await owner.fetch("POST", completions(bot.id), {
          conversation: first.conversationId,
          message: { content: "And on Jupiter?" },
        }),
      );
      expect(after.content).toBe("I don't know that.");
      await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { handoff: { afterUnanswered: 0 } });
      const never = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
        await owner.fetch("POST", completions(bot.id), {
          conversation: first.conversationId,
          message: { content: "And on Saturn?" },
        }),
      );
      expect(never.content).toBe("I don't know that.");
      expect(await conversationOf(owner, first.conversationId)).toMatchObject({ progressStatus: "ai_processing" });
    },
  );

  it("a person's answer between two misses starts the row again; a private note does not", async () => {
    const owner = await seedOwner();
    const bot = await createUnanswering(owner);
    const ask = async (content: string, conversation?: string) =>
      await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
        await owner.fetch("POST", completions(bot.id), {
          message: { content },
          ...(conversation ? { conversation } : {}),
        }),
      );
    const first = await ask("What colour is the sky on Mars?");
    const id = first.conversationId;
    // A person takes over, answers, and hands back: the visitor was served between the misses.
    expect((await owner.fetch("POST", `/conversations/${id}/take-over/`)).status).toBe(200);
    const answer = await owner.fetch("POST", "/messages/outgoing/", { conversation: id, content: "Butterscotch." });
    expect(answer.status, await answer.clone().text()).toBe(201);
    await owner.fetch("PATCH", `/conversations/${id}/update-auto-reply/`, { autoReplyEnabled: true });
    expect((await ask("And on Venus?", id)).content).toBe("I don't know that.");
    expect(await conversationOf(owner, id)).toMatchObject({ progressStatus: "ai_processing" });
    // A note is the team's, not an answer the visitor saw: the row goes on through it.
    const note = await owner.fetch("POST", "/messages/outgoing/", {
      conversation: id,
      content: "Ask Ops",
      private: true,
    });
    expect(note.status, await note.clone().text()).toBe(201);
    expect((await ask("And on Jupiter?", id)).content).toBe(`I don't know that.\n\n${DEFAULT_EN}`);
    expect(await conversationOf(owner, id)).toMatchObject({ progressStatus: "waiting_for_human" });
  });

  it("the built-in model's \"I don't know\" counts as a reply that could not answer", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner, { instructions: "You answer questions about our bike shop." });
    const unknown = "I don't know the answer to that from my sources.";
    const first = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", completions(bot.id), { message: { content: "What colour is the sky on Mars?" } }),
    );
    expect(first.content).toBe(unknown);
    const second = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await owner.fetch("POST", completions(bot.id), {
        conversation: first.conversationId,
        message: { content: "What is the capital of Peru?" },
      }),
    );
    expect(second.content).toBe(`${unknown}\n\n${DEFAULT_EN}`);
    expect(await conversationOf(owner, first.conversationId)).toMatchObject({
      progressStatus: "waiting_for_human",
      autoReplyEnabled: false,
    });
  });

  it("refuses bad settings with a 400 naming the field, and changes nothing", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner, { handoff: { enabled: false } });
    for (const handoff of [
      { enabled: "yes" },
      { message: "x".repeat(2001) },
      { afterUnanswered: -1 },
      { afterUnanswered: 1.5 },
      { afterwards: true },
      "on",
    ]) {
      const res = await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { handoff });
      expect(res.status).toBe(400);
      expect((await problemOf(res)).detail).toMatch(/handoff/);
    }
    expect((await bodyOf<"GET /chatbots/{id}/">(await owner.fetch("GET", `/chatbots/${bot.id}/`))).handoff).toEqual({
      enabled: false,
      afterUnanswered: 2,
      message: null,
      outsideHoursMessage: null,
    });
    // A member without the permission to change assistants cannot change these either.
    const member = await seedMember(owner, []);
    expect((await member.fetch("PATCH", `/chatbots/${bot.id}/`, { handoff: { enabled: true } })).status).toBe(403);
  });
});

describe("outside the inbox's business hours", () => {
  it(
    "a handoff says the outside-hours message and keeps the next opening; within hours the usual one; hours are " +
      "validated",
    async () => {
      const owner = await seedOwner();
      const bot = await createChatbot(owner, {
        handoff: { outsideHoursMessage: "We are closed; a colleague answers from 9:00." },
      });
      const inbox = bot.defaultInbox!.id;
      // Open one hour, two days from now in Taipei (UTC+8): closed now, the next opening 01:00 UTC that day.
      const inTwoDays = new Date(Date.now() + 8 * 3600_000 + 2 * 86_400_000);
      const day = WEEKDAYS[inTwoDays.getUTCDay()];
      const hours: BusinessHours = { timeZone: "Asia/Taipei", weekly: { [day]: [["09:00", "10:00"]] }, holidays: [] };
      const patched = await owner.fetch("PATCH", `/inboxes/${inbox}/`, { businessHours: hours });
      expect(patched.status, await patched.clone().text()).toBe(200);
      expect(await patched.json()).toMatchObject({ businessHours: hours });
      const reply = await refinedBodyOf<
        "POST /chatbots/{chatbotId}/completions/",
        { message: { contentPayload: { handoff: { reason: string; outsideHours: boolean; nextOpeningAt: string } } } }
      >(await owner.fetch("POST", completions(bot.id), { message: { content: "I need to talk to a person" } }));
      expect(reply.content).toBe("We are closed; a colleague answers from 9:00.");
      const { nextOpeningAt } = reply.message.contentPayload.handoff;
      expect(new Date(Number(nextOpeningAt)).toISOString()).toBe(
        `${inTwoDays.toISOString().slice(0, 10)}T01:00:00.000Z`,
      );
      expect(reply.message.contentPayload).toMatchObject({
        handoff: { reason: "visitor_request", outsideHours: true },
      });
      expect(await conversationOf(owner, reply.conversationId)).toMatchObject({
        status: "queued",
        progressStatus: "waiting_for_human",
      });

      // Always open: the usual message; hours removed: the usual message.
      await owner.fetch("PATCH", `/inboxes/${inbox}/`, {
        businessHours: {
          timeZone: "UTC",
          weekly: Object.fromEntries(
            ["sun", "mon", "tue", "wed", "thu", "fri", "sat"].map((d) => [d, [["00:00", "24:00"]]]),
          ),
        },
      });
      const within = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
        await owner.fetch("POST", completions(bot.id), { message: { content: "I need to talk to a person" } }),
      );
      expect(within.content).toBe(DEFAULT_EN);
      // Default outside-hours message in the visitor's language.
      await owner.fetch("PATCH", `/inboxes/${inbox}/`, {
        businessHours: { timeZone: "UTC", weekly: {}, holidays: [] },
      });
      await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { handoff: {} });
      const zh = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
        await owner.fetch("POST", completions(bot.id), { message: { content: "我要轉人工" } }),
      );
      expect(zh.content).toBe("我們的團隊目前不在線上。我已轉交您的訊息，團隊成員會在營業時間於這裡回覆您。");

      for (const bad of [
        { timeZone: "Mars/Olympus", weekly: {} },
        { timeZone: "UTC", weekly: { mon: [["18:00", "09:00"]] } },
        { timeZone: "UTC", weekly: { monday: [] } },
        { timeZone: "UTC", weekly: { mon: [["9:00", "10:00"]] } },
      ]) {
        const res = await owner.fetch("PATCH", `/inboxes/${inbox}/`, { businessHours: bad });
        expect(res.status, JSON.stringify(bad)).toBe(400);
        expect((await problemOf(res)).detail).toMatch(/businessHours/);
      }
      expect(await bodyOf<"GET /inboxes/{id}/">(await owner.fetch("GET", `/inboxes/${inbox}/`))).toMatchObject({
        businessHours: { timeZone: "UTC", weekly: {} },
      });
    },
  );
});

describe("an agent hands off through its built-in handoff tool", () => {
  it(
    "a model that calls `handoff` ends its reply with the handoff message and queues the conversation; without " +
      "handoff the tool is not offered",
    async () => {
      const owner = await seedOwner();
      const model = await upstreamModel(owner);
      const bot = await createChatbot(owner, { largeLanguageModel: model.id, replyMode: "agent" });
      const reply = await refinedBodyOf<
        "POST /chatbots/{chatbotId}/completions/",
        { message: { contentPayload: Record<string, unknown> } }
      >(
        await owner.fetch("POST", completions(bot.id), {
          message: { content: 'My refund was refused, please handoff ARGS {"reason": "refund dispute"}' },
        }),
      );
      expect(reply.message.contentPayload.toolCalls).toMatchObject([
        { name: "handoff", toolType: "handoff", output: { handedOff: true, reason: "refund dispute" } },
      ]);
      expect(reply.message.contentPayload.handoff).toEqual({ reason: "tool" });
      expect(reply.content.endsWith(`\n\n${DEFAULT_EN}`)).toBe(true);
      expect(await conversationOf(owner, reply.conversationId)).toMatchObject({
        status: "queued",
        progressStatus: "waiting_for_human",
        autoReplyEnabled: false,
      });
      const offered = (await lastUpstreamRequest(model.modelName)).body.tools!.map(
        (t: { function: { name: string } }) => t.function.name,
      );
      expect(offered).toEqual(["handoff"]);

      // An ordinary question: the model does not call it, the conversation stays with the assistant.
      const plain = await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
        await owner.fetch("POST", completions(bot.id), { message: { content: "What time do you open?" } }),
      );
      expect(await conversationOf(owner, plain.conversationId)).toMatchObject({
        progressStatus: "ai_processing",
        autoReplyEnabled: true,
      });

      await owner.fetch("PATCH", `/chatbots/${bot.id}/`, { handoff: { enabled: false } });
      await owner.fetch("POST", completions(bot.id), { message: { content: "Again, please handoff" } });
      expect((await lastUpstreamRequest(model.modelName)).body.tools).toBeUndefined();
    },
  );
});

describe("asksForPerson", () => {
  it.each([
    "I need to talk to a person about order 4471",
    "Can I speak to someone?",
    "human please",
    "Agent",
    "I want a real person",
    "Is anyone there?",
    "connect me with customer service",
    "轉人工",
    "我要找真人",
    "人工客服",
    "客服",
    "有人在嗎",
    "转人工服务",
    "担当者と話したいです",
    "オペレーターをお願いします",
    // Whether it can be done asks for it; a sentence before the ask, negative or not, does not take it back.
    "Is it possible to talk to a human?",
    "Is there a way to speak to a real person?",
    "I don't understand your answer. I want to talk to a person.",
    "This doesn't help, I don't know what to do. Can I speak to an agent?",
    "Are you a bot? I want to talk to a human",
    "你是機器人嗎？我要找真人",
    "是否可以轉人工？",
  ])("%s: asks for a person", (text) => expect(asksForPerson(text)).toBe(true));

  it.each([
    "What are your customer service hours?",
    "Do you ship to the United States?",
    "Who is the person on the cover of the handbook?",
    "客服電話是多少?",
    "你們的營業時間?",
    "Thanks, bye!",
    "What does a travel agent do?",
    "Am I talking to a real person?",
  ])("%s: asks the assistant", (text) => expect(asksForPerson(text)).toBe(false));

  it.each([
    "I don't want to talk to an agent",
    "I don't need a human",
    "No need to talk to a person, thanks.",
    "I'd rather not speak to an agent",
    "Please don't transfer me to an agent.",
    "不用轉人工",
    "我不需要客服",
    "担当者と話したくないです",
  ])("%s: declines a person", (text) => expect(asksForPerson(text)).toBe(false));
});
