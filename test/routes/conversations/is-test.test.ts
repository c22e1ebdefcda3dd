// Test traffic apart (docs/decisions.md): a completion with `test: true` (the console's try-it)
// starts a conversation marked `isTest`, listed and filterable in the inbox, and left out of the
// assistant's statistics unless `includeTests=true`.
import { describe, expect, it } from "vitest";
import { PREFIXES, call, expectError, seedMember, seedOwner, waitFor, type Actor } from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { createChatbot } from "../../fixtures/chatbots";
import { bodyOf } from "../../support/api";

async function talk(owner: Actor, botId: string, body: Record<string, unknown>, prefix?: string) {
  const res = await owner.fetch(
    "POST",
    `/chatbots/${botId}/completions/`,
    { message: { content: "Hello!" }, ...body },
    { prefix },
  );
  expect(res.status, await res.clone().text()).toBe(200);
  return (await bodyOf<"POST /chatbots/{chatbotId}/completions/">(res)).conversationId;
}

const today = () => new Date().toISOString().slice(0, 10);

describe("isTest conversations", () => {
  it.each(PREFIXES)(
    "a completion with test: true starts a test conversation; the list shows and filters it (%s)",
    async (prefix) => {
      const owner = await seedOwner();
      const bot = await createChatbot(owner);
      const real = await talk(owner, bot.id, {}, prefix);
      const test = await talk(owner, bot.id, { test: true }, prefix);
      // Continuing it keeps what it is, whatever the flag says.
      await talk(owner, bot.id, { conversation: test, test: false }, prefix);
      const list = async (query = "") =>
        (
          await bodyOf<"GET /conversations/">(
            await owner.fetch("GET", `/conversations/?chatbot=${bot.id}${query}`, undefined, { prefix }),
          )
        ).results;
      const all = await list();
      expect(Object.fromEntries(all.map((c) => [c.id, c.isTest]))).toEqual({ [real]: false, [test]: true });
      expect((await list("&isTest=true")).map((c) => c.id)).toEqual([test]);
      expect((await list("&is_test=false")).map((c) => c.id)).toEqual([real]);
      expect(await (await owner.fetch("GET", `/conversations/${test}/`, undefined, { prefix })).json()).toMatchObject({
        isTest: true,
      });
    },
  );

  it("statistics leave test conversations out unless includeTests=true; usage statistics count them", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    await talk(owner, bot.id, {});
    const test = await talk(owner, bot.id, { test: true });
    await talk(owner, bot.id, { conversation: test });
    const stats = async (query = "") =>
      (
        await bodyOf<"GET /chatbots/{chatbotPk}/statistics/">(
          await owner.fetch("GET", `/chatbots/${bot.id}/statistics/${query}`),
        )
      ).total;
    const withTests = await waitFor(
      () => stats("?includeTests=true"),
      (t) => t.repliesCount === 3,
    );
    expect(withTests).toMatchObject({ conversationsCount: 2, incomingMessagesCount: 3, repliesCount: 3 });
    expect(await stats()).toMatchObject({ conversationsCount: 1, incomingMessagesCount: 1, repliesCount: 1 });
    expect(await stats("?include_tests=false")).toMatchObject({ conversationsCount: 1, repliesCount: 1 });

    const usage = async (query = "") =>
      (
        await bodyOf<"GET /chatbots/{chatbotPk}/llm-usage-statistics/">(
          await owner.fetch(
            "GET",
            `/chatbots/${bot.id}/llm-usage-statistics/?startDate=${today()}&timeGranularity=day${query}`,
          ),
        )
      ).total;
    const all = await usage("&includeTests=true");
    const real = await usage();
    expect(all.requestsCount).toBe(3);
    expect(real.requestsCount).toBe(1);
    expect(real.wordsCount).toBeLessThan(all.wordsCount);
  });

  it("400 for a malformed flag, with a clear detail; nothing is written", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const listed = await expectError(await owner.fetch("GET", "/conversations/?isTest=maybe"), 400, "invalid");
    expect(listed.detail).toContain("isTest");
    const stats = await expectError(
      await owner.fetch("GET", `/chatbots/${bot.id}/statistics/?includeTests=yes`),
      400,
      "invalid",
    );
    expect(stats.detail).toContain("includeTests");
    const completion = await expectError(
      await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "Hi" }, test: "yes" }),
      400,
      "invalid",
    );
    expect(completion.detail).toContain("test");
    expect(
      (await bodyOf<"GET /conversations/">(await owner.fetch("GET", `/conversations/?chatbot=${bot.id}`))).results,
    ).toEqual([]);
  });

  it("401 without credentials, 403 without the permission, 404 for another organization's assistant", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    await expectError(await call("GET", "/api/v1/conversations/?isTest=true"), 401, "not_authenticated");
    await expectDenied(await (await seedMember(owner, [])).fetch("GET", "/conversations/?isTest=true"));
    await expectDenied(
      await (await seedMember(owner, [])).fetch("GET", `/chatbots/${bot.id}/statistics/?includeTests=true`),
    );
    const stranger = await seedOwner();
    await expectNotFound(await stranger.fetch("GET", `/chatbots/${bot.id}/statistics/?includeTests=true`));
    await expectNotFound(
      await stranger.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "Hi" }, test: true }),
    );
  });
});
