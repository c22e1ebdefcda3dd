// The two planes of the schema (src/db/planes.ts): every table is named in exactly one, and the organization's data
// plane (`dataDb`) refuses a statement naming a control table, however it is run, as a second database will, and is
// the organization's shard when the directory says so.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { CONTROL_TABLES, DATA_TABLES, otherPlaneTables } from "../../src/db/planes";
import { client } from "../../src/db/prepared";
import { chatbots, conversations, inboxes } from "../../src/db/schema";
import { organizationShards } from "../../src/db/schema";
import { SHARDS, dataDbs, shardDb } from "../../src/services/shards";
import { countRows, NO_SUCH_ID, data, db, seedOwner } from "../harness";

describe("the schema's planes", () => {
  // Less the tables other test files make for themselves in the shared database (write-queue.test.ts).
  it("name every table of the migrated schema once", async () => {
    const { results } = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' " +
        "AND name <> 'd1_migrations' AND name NOT GLOB '*_fts_*' AND name NOT GLOB 'write_queue_*'",
    ).all<{ name: string }>();
    const named = [...DATA_TABLES, ...CONTROL_TABLES] as string[];
    expect(new Set(named).size).toBe(named.length);
    expect(results.map((r) => r.name).sort()).toEqual([...named].sort());
  });

  it("find the other plane's tables a statement names, quoted or not, in joins and subqueries", () => {
    expect(otherPlaneTables('select "id" from "conversations" where "inbox_id" = ?', "data")).toEqual([]);
    expect(
      otherPlaneTables(
        'select * from "conversations" left join "inboxes" on x where y in (select id from chatbots)',
        "data",
      ),
    ).toEqual(["inboxes", "chatbots"]);
    expect(otherPlaneTables("INSERT INTO webhook_deliveries SELECT id FROM webhooks", "data")).toEqual(["webhooks"]);
    expect(otherPlaneTables("UPDATE conversations SET updated_at = 1", "control")).toEqual(["conversations"]);
    expect(otherPlaneTables("insert into usage_hourly values (1) on conflict do update set n = 1", "data")).toEqual([]);
  });
});

describe("an organization's data plane", () => {
  it("runs statements on data tables, through the builder, raw SQL and batches", async () => {
    const plane = await data(NO_SUCH_ID);
    expect(await plane.select().from(conversations).where(eq(conversations.id, NO_SUCH_ID))).toEqual([]);
    expect(await client(plane).prepare("SELECT id FROM contacts WHERE id = ?1").bind(NO_SUCH_ID).first()).toBeNull();
    await plane.batch([plane.select().from(conversations).limit(1), plane.run(sql`select 1 from messages limit 1`)]);
    expect(dataDbs(env)).toHaveLength(SHARDS.length + 1);
  });

  it("refuses a statement naming a control table, before it runs", async () => {
    const plane = await data(NO_SUCH_ID);
    const join = plane
      .select({ id: conversations.id })
      .from(conversations)
      .innerJoin(inboxes, eq(inboxes.id, conversations.inboxId));
    await expect(join).rejects.toThrow(/on the data plane names inboxes/);
    expect(() => client(plane).prepare("UPDATE chatbots SET name = 'x' WHERE id = ?1")).toThrow(/names chatbots/);
    // The control plane's builder is the deployment's: it runs either until every service is moved.
    expect(await db().select().from(chatbots).where(eq(chatbots.id, NO_SUCH_ID))).toEqual([]);
  });
});

describe("where an organization's data plane is", () => {
  it("is its shard once its directory row says so, else DB; a change in this isolate is seen at once", async () => {
    const { organizationId } = await seedOwner();
    const [shard] = SHARDS;
    await db()
      .insert(organizationShards)
      .values({ organizationId, shard, since: Date.now(), dataPlane: "db" })
      .onConflictDoUpdate({ target: organizationShards.organizationId, set: { shard, dataPlane: "db" } });
    const marker = async () =>
      countRows(
        client(await data(organizationId)),
        "conversation_terms_cursors WHERE id = ?1",
        `planes-${organizationId}`,
      );
    await shardDb(env, shard)
      .prepare("INSERT INTO conversation_terms_cursors (id, position) VALUES (?1, '')")
      .bind(`planes-${organizationId}`)
      .run();
    expect(await marker()).toBe(0);
    await db()
      .update(organizationShards)
      .set({ dataPlane: "shard" })
      .where(eq(organizationShards.organizationId, organizationId));
    expect(await marker()).toBe(1);
  });
});
