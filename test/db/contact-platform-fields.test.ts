// Migrations 0050 (DB) and 0006 (shards): the `webChat` and `channel` the service once wrote into contacts' custom
// fields are taken out; the business's own fields, and a `channel` or `webChat` of theirs, stay.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { fromBeforeTheShards, seedOwner } from "../harness";
import { seedWebChat } from "../routes/widget/fixtures";
import { SHARDS, shardDb } from "../../src/services/shards";
import { uuidv7 } from "../../src/lib/ids";

type Migration = { name: string; queries: string[] };

/** Runs a migration's statements on `d1` limited to one organization's contacts (test files share the databases). */
async function migrate(d1: D1Database, migrations: unknown, prefix: string, organizationId: string) {
  const { queries } = (migrations as Migration[]).find((m) => m.name.startsWith(prefix))!;
  for (const q of queries)
    await d1
      .prepare(`${q.replace(/;\s*$/, "")} AND \`organization_id\` = ?1`)
      .bind(organizationId)
      .run();
}

/** Contacts with the metadata given, linked to `inboxId`; gives their ids in the same order. */
async function contactsWith(d1: D1Database, organizationId: string, inboxId: string, rows: [string | null, object][]) {
  const ids = rows.map(() => uuidv7());
  await d1.batch(
    rows.flatMap(([sourceId, metadata], i) => [
      d1
        .prepare(
          "INSERT INTO contacts (id, organization_id, name, source_id, metadata, created_at, updated_at) " +
            "VALUES (?1, ?2, 'c', ?3, ?4, 0, 0)",
        )
        .bind(ids[i], organizationId, sourceId, JSON.stringify(metadata)),
      d1.prepare("INSERT INTO contact_inboxes (contact_id, inbox_id) VALUES (?1, ?2)").bind(ids[i], inboxId),
    ]),
  );
  return ids;
}

async function metadataOf(d1: D1Database, ids: string[]) {
  const rows = await Promise.all(
    ids.map((id) => d1.prepare("SELECT metadata FROM contacts WHERE id = ?1").bind(id).first<string>("metadata")),
  );
  return rows.map((m) => JSON.parse(m!));
}

describe("the service's fields out of contacts' metadata", () => {
  it("takes out a web chat's id and a platform's name the service wrote; keeps the business's fields", async () => {
    const owner = await seedOwner();
    const chat = await seedWebChat(owner);
    const given: [string | null, object][] = [
      [null, { webChat: chat.id }],
      [null, { webChat: chat.id, tier: "gold" }],
      ["5551234", { channel: "telegram" }],
      ["U123", { channel: "slack", orders: 3 }],
      // Not what the service wrote: a channel without a platform id, a name no platform has, a web chat of words.
      [null, { channel: "telegram" }],
      ["42", { channel: "phone" }],
      [null, { webChat: "the blue one" }],
    ];
    const after = [{}, { tier: "gold" }, {}, { orders: 3 }, ...given.slice(4).map(([, metadata]) => metadata)];

    // An organization's contacts are in DB when it is from before the shards, else in its shard.
    await fromBeforeTheShards(owner.organizationId);
    const inDb = await contactsWith(env.DB, owner.organizationId, chat.inboxId, given);
    await migrate(env.DB, env.TEST_MIGRATIONS, "0050_", owner.organizationId);
    expect(await metadataOf(env.DB, inDb)).toEqual(after);

    const shard = shardDb(env, SHARDS[0]!);
    const inShard = await contactsWith(shard, owner.organizationId, chat.inboxId, given);
    await migrate(shard, env.TEST_SHARD_MIGRATIONS, "0006_", owner.organizationId);
    expect(await metadataOf(shard, inShard)).toEqual(after);
  });
});
