import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { conversationLabels } from "../../../src/db/schema";
import {
  NO_SUCH_ID,
  PREFIXES,
  call,
  conversationData,
  db,
  expectError,
  parts,
  seedMember,
  seedOwner,
  type Actor,
} from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { batchingAfter, deletingAfter, whileBatchingAny } from "../../support/races";
import { deleteLabel, setConversationLabels } from "../../../src/services/labels";
import { runPurges } from "../../../src/services/purges";
import { SHARDS, shardDb } from "../../../src/services/shards";
import { createInbox } from "../inboxes/fixtures";
import { createChatbot } from "../../fixtures/chatbots";
import { liveEvents } from "../../support/sse";
import { bodyOf } from "../../support/api";

const label = async (actor: Actor, name: string, color = "#123456") =>
  await bodyOf<"POST /labels/">(await actor.fetch("POST", "/labels/", { name, color }));
/** A conversation started by a completion (a visitor's question and the assistant's answer). */
const conversation = async (actor: Actor, bot: { id: string }, content = "hello") =>
  (
    await bodyOf<"POST /chatbots/{chatbotId}/completions/">(
      await actor.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content } }),
    )
  ).conversationId;
const linksOf = async (actor: Actor, conversationId: string) =>
  (
    await (
      await conversationData(actor.organizationId, conversationId)
    )
      .select({ labelId: conversationLabels.labelId })
      .from(conversationLabels)
      .where(eq(conversationLabels.conversationId, conversationId))
      .orderBy(conversationLabels.labelId)
  ).map((r) => r.labelId);

/** The housekeeping's step that deletes a deleted label's links, on every part of `actor`'s data plane. */
const runPurgesOf = async (actor: Actor) => {
  for (const part of await parts(actor.organizationId)) await runPurges(part, Date.now());
};

/** An owner's conversation and their label "Mine", and the owner of another organization, for refusals. */
async function labelledAndStranger() {
  const owner = await seedOwner();
  const stranger = await seedOwner();
  const id = await conversation(owner, await createChatbot(owner));
  return { owner, stranger, id, mine: await label(owner, "Mine") };
}

describe("PUT /conversations/{id}/labels/", () => {
  it.each(PREFIXES)(
    "sets a conversation's labels; the record carries them by name in get and list (%s)",
    async (prefix) => {
      const owner = await seedOwner();
      const bot = await createChatbot(owner);
      const [vip, billing] = [await label(owner, "VIP", "#ff0000"), await label(owner, "Billing", "#0000ff")];
      const id = await conversation(owner, bot);
      const fresh = await bodyOf<"GET /conversations/{id}/">(
        await owner.fetch("GET", `/conversations/${id}/`, undefined, { prefix }),
      );
      expect(fresh.labels).toEqual([]);
      const res = await owner.fetch(
        "PUT",
        `/conversations/${id}/labels/`,
        { labelIds: [vip.id, billing.id, vip.id] },
        { prefix },
      );
      expect(res.status, await res.clone().text()).toBe(200);
      const labelled = await bodyOf<"PUT /conversations/{id}/labels/">(res);
      expect(labelled.labels).toEqual([
        { id: billing.id, name: "Billing", color: "#0000ff" },
        { id: vip.id, name: "VIP", color: "#ff0000" },
      ]);
      expect(await (await owner.fetch("GET", `/conversations/${id}/`, undefined, { prefix })).json()).toEqual(labelled);
      const listed = await bodyOf<"GET /conversations/">(
        await owner.fetch("GET", "/conversations/", undefined, { prefix }),
      );
      expect(listed.results.find((c) => c.id === id)!.labels).toEqual(labelled.labels);
      // A renamed label shows at once; a deleted one is gone from the conversation.
      await owner.fetch("PATCH", `/labels/${vip.id}/`, { name: "Very important" });
      await owner.fetch("DELETE", `/labels/${billing.id}/`);
      expect(
        (await bodyOf<"GET /conversations/{id}/">(await owner.fetch("GET", `/conversations/${id}/`))).labels,
      ).toEqual([{ id: vip.id, name: "Very important", color: "#ff0000" }]);
      // Replaced, then emptied.
      expect(
        (
          await bodyOf<"PUT /conversations/{id}/labels/">(
            await owner.fetch("PUT", `/conversations/${id}/labels/`, { labelIds: [] }, { prefix }),
          )
        ).labels,
      ).toEqual([]);
      expect(await linksOf(owner, id)).toEqual([]);
    },
  );

  it("filters the list by label, combined with the other filters", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const [vip, bug] = [await label(owner, "VIP"), await label(owner, "Bug")];
    const [a, b, c] = [
      await conversation(owner, bot, "first"),
      await conversation(owner, bot, "second"),
      await conversation(owner, bot, "third"),
    ];
    await owner.fetch("PUT", `/conversations/${a}/labels/`, { labelIds: [vip.id] });
    await owner.fetch("PUT", `/conversations/${b}/labels/`, { labelIds: [vip.id, bug.id] });
    await owner.fetch("PUT", `/conversations/${c}/labels/`, { labelIds: [bug.id] });
    await owner.fetch("POST", `/conversations/${b}/take-over/`);
    const ids = async (query: string) =>
      (await bodyOf<"GET /conversations/">(await owner.fetch("GET", `/conversations/${query}`))).results.map(
        (x) => x.id,
      );
    expect(await ids(`?label=${vip.id}`)).toEqual([b, a]);
    expect(await ids(`?label=${bug.id}`)).toEqual([c, b]);
    expect(await ids(`?label=${vip.id}&progressStatus=human_serving`)).toEqual([b]);
    expect(await ids(`?label=${vip.id}&keyword=first`)).toEqual([a]);
    expect(await ids(`?label=${vip.id}&pageSize=1`)).toEqual([b]);
    await expectError(await owner.fetch("GET", "/conversations/?label=vip"), 400, "invalid");
    // No such label, another organization's, or one deleted (its links go by a purge a moment later): 404, not the
    // conversations its links still name.
    const stranger = await seedOwner();
    const theirs = await label(stranger, "VIP");
    expect((await owner.fetch("DELETE", `/labels/${bug.id}/`)).status).toBe(204);
    for (const id of [NO_SUCH_ID, theirs.id, bug.id]) {
      const refused = await expectError(await owner.fetch("GET", `/conversations/?label=${id}`), 404, "not_found");
      expect(refused.detail).toBe("Label not found.");
    }
    expect(await ids(`?label=${vip.id}`)).toEqual([b, a]);
  });

  it("400 naming labels of another organization or bad ids, nothing written", async () => {
    const { owner, stranger, id, mine } = await labelledAndStranger();
    const theirs = await label(stranger, "Theirs");
    await owner.fetch("PUT", `/conversations/${id}/labels/`, { labelIds: [mine.id] });
    const error = await expectError(
      await owner.fetch("PUT", `/conversations/${id}/labels/`, { labelIds: [theirs.id, NO_SUCH_ID] }),
      400,
      "invalid",
    );
    expect(error.detail).toContain(theirs.id);
    expect(error.detail).toContain(NO_SUCH_ID);
    expect(error.errors).toHaveProperty("labelIds");
    await expectError(
      await owner.fetch("PUT", `/conversations/${id}/labels/`, { labelIds: ["not-an-id"] }),
      400,
      "invalid",
    );
    await expectError(await owner.fetch("PUT", `/conversations/${id}/labels/`, { labelIds: mine.id }), 400, "invalid");
    await expectError(await owner.fetch("PUT", `/conversations/${id}/labels/`, {}), 400, "invalid");
    const tooMany = (
      await expectError(
        await owner.fetch("PUT", `/conversations/${id}/labels/`, {
          labelIds: Array.from({ length: 21 }, () => mine.id),
        }),
        400,
        "invalid",
      )
    ).errors;
    expect(tooMany).toHaveProperty("labelIds");
    expect(await linksOf(owner, id)).toEqual([mine.id]);
  });

  it("401, 403 without conversation.manage, 404 for another organization's conversation; nothing written", async () => {
    const { owner, stranger, id, mine } = await labelledAndStranger();
    await expectError(
      await call("PUT", `/api/v1/conversations/${id}/labels/`, { labelIds: [mine.id] }),
      401,
      "not_authenticated",
    );
    const viewer = await seedMember(owner, ["conversation.view"]);
    await expectDenied(await viewer.fetch("PUT", `/conversations/${id}/labels/`, { labelIds: [mine.id] }));
    await expectNotFound(await stranger.fetch("PUT", `/conversations/${id}/labels/`, { labelIds: [] }));
    await expectNotFound(await owner.fetch("PUT", `/conversations/${NO_SUCH_ID}/labels/`, { labelIds: [] }));
    expect(await linksOf(owner, id)).toEqual([]);
    // A viewer sees the labels and filters by them.
    await owner.fetch("PUT", `/conversations/${id}/labels/`, { labelIds: [mine.id] });
    const seen = await bodyOf<"GET /conversations/">(await viewer.fetch("GET", `/conversations/?label=${mine.id}`));
    expect(seen.results.map((c) => [c.id, c.labels.map((l) => l.name)])).toEqual([[id, ["Mine"]]]);
    const agent = await seedMember(owner, ["conversation.manage"]);
    expect((await agent.fetch("PUT", `/conversations/${id}/labels/`, { labelIds: [] })).status).toBe(200);
  });

  it("a label deleted while it is being set leaves no link, even with its purge run before the write", async () => {
    const owner = await seedOwner();
    const id = await conversation(owner, await createChatbot(owner));
    const [kept, doomed] = [await label(owner, "Kept"), await label(owner, "Doomed")];
    // After the set read the labels, before it writes: the delete, and the housekeeping's run of its purge.
    const deleted = async () => {
      expect((await owner.fetch("DELETE", `/labels/${doomed.id}/`)).status).toBe(204);
      await runPurgesOf(owner);
    };
    const data = batchingAfter(await conversationData(owner.organizationId, id), deleted);
    await setConversationLabels(db(), data, owner.organizationId, id, [kept.id, doomed.id]);
    expect(await linksOf(owner, id)).toEqual([kept.id]);
    const view = await bodyOf<"GET /conversations/{id}/">(await owner.fetch("GET", `/conversations/${id}/`));
    expect(view.labels.map((l) => l.name)).toEqual(["Kept"]);
  });

  it("a label set while it is being deleted leaves no link once the purges have run", async () => {
    const owner = await seedOwner();
    const id = await conversation(owner, await createChatbot(owner));
    const [kept, doomed] = [await label(owner, "Kept"), await label(owner, "Doomed")];
    // After the delete wrote its purge, before it deletes the label: the housekeeping runs the purge (nothing to
    // take yet), then a set links the label, which still exists.
    const linked = async () => {
      await runPurgesOf(owner);
      const res = await owner.fetch("PUT", `/conversations/${id}/labels/`, { labelIds: [kept.id, doomed.id] });
      expect(res.status).toBe(200);
    };
    await deleteLabel(deletingAfter(db(), linked), await parts(owner.organizationId), owner.organizationId, doomed.id);
    await runPurgesOf(owner);
    expect(await linksOf(owner, id)).toEqual([kept.id]);
  });

  it.each([
    { set: "a label", names: ["VIP"] },
    { set: "none", names: [] },
  ])(
    "a conversation deleted while its labels are set ($set) is a 404 as a read after, and keeps no link",
    async ({ names }) => {
      const owner = await seedOwner();
      const inbox = await createInbox(owner);
      const created = await owner.fetch("POST", "/conversations/", { webChat: inbox.channel!.id });
      const { id } = await bodyOf<"POST /conversations/">(created);
      const labelIds = await Promise.all(names.map(async (name) => (await label(owner, name)).id));
      // After the set found the conversation and its labels, before it writes: the inbox's delete, and the
      // housekeeping's run of its purge, which deletes the conversation.
      const deleted = async () => {
        expect((await owner.fetch("DELETE", `/inboxes/${inbox.id}/`)).status).toBe(204);
        await runPurgesOf(owner);
      };
      const writesLabels = (sql: string[]) => sql.some((s) => /conversation_labels/i.test(s));
      const res = await whileBatchingAny(
        SHARDS.map((name) => shardDb(env, name)),
        writesLabels,
        deleted,
        () => owner.fetch("PUT", `/conversations/${id}/labels/`, { labelIds }),
      );
      await expectNotFound(res);
      await expectNotFound(await owner.fetch("GET", `/conversations/${id}/`));
      expect(await linksOf(owner, id)).toEqual([]);
    },
  );

  it("a label change is a conversation.updated on the live inbox stream", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const id = await conversation(owner, bot);
    const vip = await label(owner, "VIP");
    const res = await owner.fetch("GET", `/organizations/${owner.organizationId}/conversation-events/`);
    expect(res.status).toBe(200);
    const events = liveEvents(res);
    expect((await events.next()).event).toBe("ready");
    await owner.fetch("PUT", `/conversations/${id}/labels/`, { labelIds: [vip.id] });
    const updated = await events.next(
      (e: { event: string; data: { conversation?: { id: string } } }) =>
        e.event === "conversation.updated" && e.data.conversation?.id === id,
    );
    expect(updated.data.conversation).toMatchObject({ id, status: "open" });
    await events.close();
  });
});
