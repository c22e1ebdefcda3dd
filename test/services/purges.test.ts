// The deletes that cascade from the control plane into the data plane, done in code (services/purges.ts): while the
// foreign keys still cascade, each step is run here against control rows that still exist, so only the code can have
// removed or unlinked what the tests find gone.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { chatbotRecords, contactInboxes, contacts, conversationLabels, conversations } from "../../src/db/schema";
import { attachments, toolExecutionRecords, uploads } from "../../src/db/schema";
import { DATA_TABLES } from "../../src/db/planes";
import { client } from "../../src/db/prepared";
import { uuidv7 } from "../../src/lib/ids";
import type { Db } from "../../src/env";
import { deleteOrganizationData, purgeRows, runPurges, writePurges, type PurgeKind } from "../../src/services/purges";
import { dataDbs } from "../../src/services/shards";
import { createChatbot } from "../fixtures/chatbots";
import { createTool, functionToolBody } from "../fixtures/tools";
import { countRows, conversationData, data, parts, seedOwner, unique, type Actor } from "../harness";
import { createGroup } from "../routes/groups/helpers";
import { createInbox, createWebhook, insertDelivery, seedConversation } from "../routes/webhooks/fixtures";

/** The cron's clock: names to forget carry it. */
const NOW = Date.parse("2026-11-30T12:00:00Z");

/** Rows in the control plane (`DB`). */
const count = (from: string, ...binds: unknown[]) => countRows(env.DB, from, ...binds);
/** Rows in each part of `owner`'s data plane (its shard, and any later part), in the parts' order. */
const partCounts = async (owner: Actor, from: string, ...binds: unknown[]) =>
  Promise.all((await parts(owner.organizationId)).map((part) => countRows(client(part), from, ...binds)));
/** Rows in `owner`'s data plane, every part's added. */
const dataCount = async (owner: Actor, from: string, ...binds: unknown[]) =>
  (await partCounts(owner, from, ...binds)).reduce((a, b) => a + b, 0);
/** `value` once for each part of `owner`'s data plane. */
const inEachPart = async <T>(owner: Actor, value: T) => (await parts(owner.organizationId)).map(() => value);

/** The purge in each part: the control deletes write it to every part, each purged of the rows it holds. */
const purgeOf = (owner: Actor, kind: PurgeKind, id: string) =>
  partCounts(owner, "purges WHERE kind = ?1 AND id = ?2", kind, id);

/** The cron's step, on every part of the organization's data plane (the housekeeping runs it on every data plane). */
const runPurgesOf = async (owner: Actor) => {
  for (const part of await parts(owner.organizationId)) await runPurges(part, NOW);
};

/** When a conversation was named to forget: in its own part, where its page of the purge deleted it. */
const forgottenAt = async (owner: Actor, id: string) =>
  (
    await client(await conversationData(owner.organizationId, id))
      .prepare("SELECT forgotten_at AS at FROM forgotten_conversations WHERE conversation_id = ?1")
      .bind(id)
      .first<{ at: number }>()
  )?.at;

/** Conversations of `inboxId`, straight into the table: each in the part its id names, as the service writes it. */
async function conversationsIn(owner: Actor, inboxId: string, n: number, values: { chatbotId?: string } = {}) {
  const ids = Array.from({ length: n }, () => uuidv7());
  for (const id of ids)
    await (await conversationData(owner.organizationId, id))
      .insert(conversations)
      .values({ id, organizationId: owner.organizationId, inboxId, ...values });
  return ids;
}

async function createLabel(owner: Actor) {
  const res = await owner.fetch("POST", "/labels/", { name: unique("label"), color: "#1f77b4" });
  expect(res.status, await res.clone().text()).toBe(201);
  return await res.json<{ id: string }>();
}

/** `part`, with `before` run ahead of a run's drop of the purge of `id` (once): after its last page. */
function droppingAfter(part: Db, id: string, before: () => Promise<unknown>): Db {
  let pending = true;
  const d1 = client(part);
  const prepare = (query: string) => {
    const statement = d1.prepare(query);
    if (!query.startsWith("DELETE FROM purges")) return statement;
    return {
      bind: (...values: unknown[]) => {
        const bound = statement.bind(...values);
        if (!pending || values[1] !== id) return bound;
        pending = false;
        return { run: async () => (await before(), bound.run()) };
      },
    };
  };
  const watched = new Proxy(d1, { get: (t, key) => (key === "prepare" ? prepare : Reflect.get(t, key, t)) });
  return new Proxy(part, { get: (t, key) => (key === "$client" ? watched : Reflect.get(t, key, t)) });
}

const toolRecord = (
  owner: Actor,
  values: { chatbotId: string | null; toolId: string | null; conversationId: string },
) => ({
  id: uuidv7(),
  organizationId: owner.organizationId,
  chatbotName: "bot",
  toolName: "tool",
  toolDisplayName: "Tool",
  toolType: "function",
  messageText: "question",
  status: "success" as const,
  input: {},
  durationMs: 5,
  createdAt: NOW,
  updatedAt: NOW,
  ...values,
});

describe("purges", () => {
  it("an inbox's: its conversations by pages, named to forget, and its contacts' links; not another's", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const other = await createInbox(owner);
    const gone = await conversationsIn(owner, inbox.id, 3);
    const [kept] = await conversationsIn(owner, other.id, 1);
    const [contact] = await (await data(owner.organizationId))
      .insert(contacts)
      .values({ organizationId: owner.organizationId })
      .returning({ id: contacts.id });
    await (await data(owner.organizationId))
      .insert(contactInboxes)
      .values([inbox.id, other.id].map((inboxId) => ({ contactId: contact.id, inboxId })));
    const inInbox = () => dataCount(owner, "conversations WHERE inbox_id = ?1", inbox.id);

    // One page of two in each part: none is through (an inbox has five kinds of rows); in the part holding the
    // inbox's conversations the first page's go, named, and the third waits for the next run.
    const pages = [];
    for (const part of await parts(owner.organizationId))
      pages.push(await purgeRows(part, { kind: "inbox", id: inbox.id }, NOW, { pages: 1, size: 2 }));
    expect(pages).toEqual(await inEachPart(owner, { done: false, used: 1 }));
    expect(await inInbox()).toBe(1);
    expect((await Promise.all(gone.map((id) => forgottenAt(owner, id)))).filter((at) => at === NOW)).toHaveLength(2);

    await writePurges(await parts(owner.organizationId), [
      { organizationId: owner.organizationId, kind: "inbox", id: inbox.id },
    ]);
    expect(await purgeOf(owner, "inbox", inbox.id)).toEqual(await inEachPart(owner, 1));
    await runPurgesOf(owner);
    expect(await purgeOf(owner, "inbox", inbox.id)).toEqual(await inEachPart(owner, 0));
    expect(await inInbox()).toBe(0);
    for (const id of gone) expect(await forgottenAt(owner, id)).toBe(NOW);
    expect(await dataCount(owner, "contact_inboxes WHERE inbox_id = ?1", inbox.id)).toBe(0);
    // The inbox itself is still in `DB`: no cascade ran.
    expect(await count("inboxes WHERE id = ?1", inbox.id)).toBe(1);
    expect(await dataCount(owner, "conversations WHERE id = ?1", kept)).toBe(1);
    expect(await forgottenAt(owner, kept)).toBeUndefined();
    expect(await dataCount(owner, "contact_inboxes WHERE inbox_id = ?1", other.id)).toBe(1);
  });

  it("a webhook's and a label's: their deliveries and conversation labels, not the others'", async () => {
    const owner = await seedOwner();
    const inbox = await createInbox(owner);
    const [hook, other] = [await createWebhook(owner, inbox.id), await createWebhook(owner, inbox.id)];
    const [label, otherLabel] = [await createLabel(owner), await createLabel(owner)];
    const [conversation] = await conversationsIn(owner, inbox.id, 1);
    // The deliveries and labels of a conversation are in its part.
    for (const webhookId of [hook.id, hook.id, other.id])
      await insertDelivery(owner, {
        webhookId,
        inboxId: inbox.id,
        chatbotId: null,
        messageId: uuidv7(),
        conversationId: conversation,
      });
    await (await conversationData(owner.organizationId, conversation)).insert(conversationLabels).values(
      [label.id, otherLabel.id].map((labelId) => ({
        conversationId: conversation,
        labelId,
        organizationId: owner.organizationId,
      })),
    );
    await writePurges(await parts(owner.organizationId), [
      { organizationId: owner.organizationId, kind: "webhook", id: hook.id },
      { organizationId: owner.organizationId, kind: "label", id: label.id },
    ]);
    await runPurgesOf(owner);
    expect(await purgeOf(owner, "webhook", hook.id)).toEqual(await inEachPart(owner, 0));
    expect(await purgeOf(owner, "label", label.id)).toEqual(await inEachPart(owner, 0));
    expect(await dataCount(owner, "webhook_deliveries WHERE webhook_id = ?1", hook.id)).toBe(0);
    expect(await dataCount(owner, "webhook_deliveries WHERE webhook_id = ?1", other.id)).toBe(1);
    expect(await dataCount(owner, "conversation_labels WHERE label_id = ?1", label.id)).toBe(0);
    expect(await dataCount(owner, "conversation_labels WHERE label_id = ?1", otherLabel.id)).toBe(1);
    expect(await count("webhooks WHERE id = ?1", hook.id)).toBe(1);
    expect(await count("labels WHERE id = ?1", label.id)).toBe(1);
  });

  it("an assistant's, a tool's and a group's: rows unlinked from them, the assistant's records deleted", async () => {
    const owner = await seedOwner();
    const [bot, otherBot] = [await createChatbot(owner), await createChatbot(owner)];
    const inbox = await createInbox(owner);
    const tool = await createTool(owner, functionToolBody(unique("tool").replace(/-/g, "_")));
    const group = await createGroup(owner);
    const [conversation, kept] = [
      ...(await conversationsIn(owner, inbox.id, 1, { chatbotId: bot.id })),
      ...(await conversationsIn(owner, inbox.id, 1, { chatbotId: otherBot.id })),
    ];
    for (const id of [conversation, kept])
      await client(await conversationData(owner.organizationId, id))
        .prepare("UPDATE conversations SET team_id = ?1 WHERE id = ?2")
        .bind(group.id, id)
        .run();
    // What the assistant's conversation left is in its part: a delivery, records, words, a tool's record.
    const part = await conversationData(owner.organizationId, conversation);
    const hook = await createWebhook(owner, inbox.id);
    const delivery = await insertDelivery(owner, {
      webhookId: hook.id,
      inboxId: inbox.id,
      chatbotId: bot.id,
      messageId: uuidv7(),
      conversationId: conversation,
    });
    await part.insert(chatbotRecords).values(
      [bot.id, otherBot.id].map((chatbotId) => ({
        id: uuidv7(),
        organizationId: owner.organizationId,
        chatbotId,
        conversationId: conversation,
        createdAt: NOW,
      })),
    );
    await client(part)
      .prepare("INSERT INTO chatbot_words (chatbot_id, organization_id, words) VALUES (?1, ?3, 5), (?2, ?3, 7)")
      .bind(bot.id, otherBot.id, owner.organizationId)
      .run();
    const [record] = await part
      .insert(toolExecutionRecords)
      .values(toolRecord(owner, { chatbotId: bot.id, toolId: tool.id, conversationId: conversation }))
      .returning({ id: toolExecutionRecords.id });
    await writePurges(
      await parts(owner.organizationId),
      (
        [
          ["chatbot", bot.id],
          ["tool", tool.id],
          ["group", group.id],
        ] as const
      ).map(([kind, id]) => ({ organizationId: owner.organizationId, kind, id })),
    );
    await runPurgesOf(owner);
    for (const [kind, id] of [
      ["chatbot", bot.id],
      ["tool", tool.id],
      ["group", group.id],
    ] as const)
      expect(await purgeOf(owner, kind, id)).toEqual(await inEachPart(owner, 0));
    // Each row as the one part holding it has it.
    const row = async (query: string, id: string) =>
      (
        await Promise.all((await parts(owner.organizationId)).map((p) => client(p).prepare(query).bind(id).first()))
      ).filter((r) => r !== null);
    expect(await row("SELECT chatbot_id, team_id FROM conversations WHERE id = ?1", conversation)).toEqual([
      { chatbot_id: null, team_id: null },
    ]);
    expect(await row("SELECT chatbot_id, team_id FROM conversations WHERE id = ?1", kept)).toEqual([
      { chatbot_id: otherBot.id, team_id: null },
    ]);
    expect(await row("SELECT chatbot_id FROM webhook_deliveries WHERE id = ?1", delivery)).toEqual([
      { chatbot_id: null },
    ]);
    expect(await row("SELECT chatbot_id, tool_id FROM tool_execution_records WHERE id = ?1", record.id)).toEqual([
      { chatbot_id: null, tool_id: null },
    ]);
    expect(await dataCount(owner, "chatbot_records WHERE chatbot_id = ?1", bot.id)).toBe(0);
    expect(await dataCount(owner, "chatbot_records WHERE chatbot_id = ?1", otherBot.id)).toBe(1);
    expect(await dataCount(owner, "chatbot_words WHERE chatbot_id = ?1", bot.id)).toBe(0);
    expect(await dataCount(owner, "chatbot_words WHERE chatbot_id = ?1", otherBot.id)).toBe(1);
    expect(await count("chatbots WHERE id = ?1", bot.id)).toBe(1);
    expect(await count("tools WHERE id = ?1", tool.id)).toBe(1);
    expect(await count("groups WHERE id = ?1", group.id)).toBe(1);
  });

  it("one written again while a run works it off stays, and the next run takes rows written meanwhile", async () => {
    // A label's delete writes its purge again once the label is gone: a set that read the label before linked it,
    // perhaps after this run's pages.
    const owner = await seedOwner();
    const label = await createLabel(owner);
    const [conversation] = await conversationsIn(owner, (await createInbox(owner)).id, 1);
    const part = await conversationData(owner.organizationId, conversation);
    const purge = [{ organizationId: owner.organizationId, kind: "label" as const, id: label.id }];
    await writePurges(await parts(owner.organizationId), purge, NOW);
    const linked = async () => {
      await part
        .insert(conversationLabels)
        .values({ conversationId: conversation, labelId: label.id, organizationId: owner.organizationId });
      // Within the millisecond of the first write, as a delete may be.
      await writePurges(await parts(owner.organizationId), purge, NOW);
    };
    await runPurges(droppingAfter(part, label.id, linked), NOW);
    expect(await purgeOf(owner, "label", label.id)).toEqual(await inEachPart(owner, 1));
    expect(await dataCount(owner, "conversation_labels WHERE label_id = ?1", label.id)).toBe(1);
    await runPurgesOf(owner);
    expect(await purgeOf(owner, "label", label.id)).toEqual(await inEachPart(owner, 0));
    expect(await dataCount(owner, "conversation_labels WHERE label_id = ?1", label.id)).toBe(0);
  });

  it("are written by the control deletes, and the cron drops them once through", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const botHook = await createWebhook(owner, bot.defaultInbox!.id);
    const inbox = await createInbox(owner);
    const inboxHook = await createWebhook(owner, inbox.id);
    const hook = await createWebhook(owner, bot.defaultInbox!.id);
    const label = await createLabel(owner);
    const tool = await createTool(owner, functionToolBody(unique("tool").replace(/-/g, "_")));
    const group = await createGroup(owner);
    const deletes = [
      `/inboxes/${bot.defaultInbox!.id}/webhooks/${hook.id}/`,
      `/inboxes/${inbox.id}/`,
      `/chatbots/${bot.id}/`,
      `/labels/${label.id}/`,
      `/tools/${tool.id}/`,
      `/organizations/${owner.organizationId}/groups/${group.id}/`,
    ];
    for (const path of deletes) expect((await owner.fetch("DELETE", path)).status, path).toBe(204);
    const written: [PurgeKind, string][] = [
      ["webhook", hook.id],
      ["inbox", inbox.id],
      ["webhook", inboxHook.id],
      ["chatbot", bot.id],
      ["inbox", bot.defaultInbox!.id],
      ["webhook", botHook.id],
      ["label", label.id],
      ["tool", tool.id],
      ["group", group.id],
    ];
    for (const [kind, id] of written)
      expect(await purgeOf(owner, kind, id), `${kind} ${id}`).toEqual(await inEachPart(owner, 1));
    const purges = () => partCounts(owner, "purges WHERE organization_id = ?1", owner.organizationId);
    expect(await purges()).toEqual(await inEachPart(owner, written.length));
    await runPurgesOf(owner);
    expect(await purges()).toEqual(await inEachPart(owner, 0));
  });

  it("an organization's data rows go by pages, its conversations named to forget; another's stay", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const { conversationId } = await seedConversation(owner, 1);
    const theirs = await seedConversation(other, 1);
    const inbox = await createInbox(owner);
    const more = await conversationsIn(owner, inbox.id, 3);
    const [contact] = await (await data(owner.organizationId))
      .insert(contacts)
      .values({ organizationId: owner.organizationId })
      .returning({ id: contacts.id });
    // What the organization owns as a whole (contacts, uploads, attachments) is in its own shard.
    const ours = await data(owner.organizationId);
    await ours.insert(contactInboxes).values({ contactId: contact.id, inboxId: inbox.id });
    await writePurges(await parts(owner.organizationId), [
      { organizationId: owner.organizationId, kind: "label", id: uuidv7() },
    ]);
    const key = `uploads/${owner.organizationId}/attachment/${crypto.randomUUID()}/a.txt`;
    const upload = { key, organizationId: owner.organizationId, createdAt: NOW };
    await ours.batch([
      ours
        .insert(uploads)
        .values({ ...upload, modelName: "attachment", fieldName: "file", filename: "a.txt", maxSize: 1 }),
      ours.insert(attachments).values({ ...upload, id: uuidv7(), conversationId, filename: "a.txt", type: "other" }),
    ]);
    const tables = (
      await env.DB.prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%`organization_id`%' " +
          "AND name NOT LIKE '%fts%' AND name NOT LIKE '\\_%' ESCAPE '\\'",
      ).all<{ name: string }>()
    ).results.map((r) => r.name);
    // Each table read where it lives: the data plane's in the organization's parts, the control plane's in `DB`.
    const dataTables: readonly string[] = DATA_TABLES;
    const rowsOf = async (actor: Actor) =>
      Object.fromEntries(
        await Promise.all(
          tables.map(async (t) => {
            const from = `"${t}" WHERE organization_id = ?1`;
            const n = dataTables.includes(t)
              ? await dataCount(actor, from, actor.organizationId)
              : await count(from, actor.organizationId);
            return [t, n] as const;
          }),
        ),
      );
    const before = await rowsOf(owner);
    for (const t of ["conversations", "chatbot_records", "contacts", "purges", "attachments", "uploads"])
      expect(before[t], t).toBeGreaterThan(0);
    const theirsBefore = await rowsOf(other);

    // On every data plane, as the organization's delete runs it (services/organizations.ts): its parts among them.
    for (const plane of dataDbs(env)) await deleteOrganizationData(plane, owner.organizationId, NOW, 2);
    const after = await rowsOf(owner);
    // The data plane's tables are empty of the organization; the control plane's rows wait for its `DB` row's delete.
    // Every data-plane table with an `organization_id` but the search terms' (they have their own delete).
    const emptied = (t: string) => dataTables.includes(t) && !t.startsWith("conversation_terms");
    for (const t of tables) expect(after[t], t).toBe(emptied(t) ? 0 : before[t]);
    expect(await count("organizations WHERE id = ?1", owner.organizationId)).toBe(1);
    for (const id of [conversationId, ...more]) expect(await forgottenAt(owner, id)).toBe(NOW);
    expect(await dataCount(owner, "contact_inboxes WHERE contact_id = ?1", contact.id)).toBe(0);
    expect(await rowsOf(other)).toEqual(theirsBefore);
    expect(await forgottenAt(other, theirs.conversationId)).toBeUndefined();
  });
});
