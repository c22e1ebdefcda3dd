import { it } from "vitest";
import { call, expectError, NO_SUCH_ID, seedMember, seedOwner, type Actor } from "../../harness";
import { createChatbot } from "../../fixtures/chatbots";
import { expectDenied, expectInvalid, expectNotFound } from "../../support/refusals";

// An assistant's statistics (its counts, its model usage) are read alike: by an assistant's id with a query of dates,
// refused alike for a query they cannot read and for a caller who may not read them.

/** A test per query of `cases`: 400 naming its field, asked of `statistic` (the path for an assistant and a query). */
export function refusesQueries(statistic: (chatbotId: string, query: string) => string, cases: [string, string][]) {
  it.each(cases)("400 for %s", async (query, field) => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    await expectInvalid(await owner.fetch("GET", statistic(bot.id, query)), field);
  });
}

/**
 * The refusals of `statistic` (the path for an assistant) of `owner`'s assistant `chatbotId`: 401 without a key (under
 * `prefix`), 403 for a member who manages an assistant of their own but lacks statistics.view, 404 for another
 * organization's owner and for an unknown id.
 */
export async function expectStatisticGuarded(
  owner: Actor,
  chatbotId: string,
  statistic: (chatbotId: string) => string,
  prefix: string,
) {
  await expectError(await call("GET", `${prefix}${statistic(chatbotId)}`), 401, "not_authenticated");
  const manager = await seedMember(owner, ["chatbot.manage"]);
  await expectDenied(await manager.fetch("GET", statistic((await createChatbot(manager)).id)));
  await expectNotFound(await (await seedOwner()).fetch("GET", statistic(chatbotId)));
  await expectNotFound(await owner.fetch("GET", statistic(NO_SUCH_ID)));
}
