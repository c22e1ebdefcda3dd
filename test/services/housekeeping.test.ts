import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { apiKeys, chatbots, consoleSessions, inboxes, knowledgeBaseFiles, members } from "../../src/db/schema";
import { newSession } from "../../src/services/console-sessions";
import { uuidv7 } from "../../src/lib/ids";
import { createKnowledgeBase, waitForFile } from "../fixtures/knowledge";
import { runHousekeeping } from "../../src/services/housekeeping";
import { db, seedMember, seedOwner } from "../harness";
import { bodyOf } from "../support/api";
import { createChatbot } from "../fixtures/chatbots";
import { storedDatabaseUrl } from "../routes/chatbots/helpers";

const DAY = 86_400_000;

describe("housekeeping cron", () => {
  it("removes keys revoked or expired more than 30 days ago, and keeps the others", async () => {
    const owner = await seedOwner();
    const now = Date.now();
    const ids: Record<string, string> = {};
    for (const [name, values] of Object.entries({
      revokedLongAgo: { revokedAt: now - 31 * DAY },
      expiredLongAgo: { expiresAt: now - 31 * DAY },
      revokedRecently: { revokedAt: now - 2 * DAY },
      expiresLater: { expiresAt: now + 10 * DAY },
    })) {
      const res = await owner.fetch("POST", "/api-keys/", { name });
      expect(res.status).toBe(201);
      ids[name] = (await bodyOf<"POST /api-keys/">(res)).id;
      await db().update(apiKeys).set(values).where(eq(apiKeys.id, ids[name]));
    }
    await runHousekeeping(env, now);
    const left = new Set(
      (await db().select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.userId, owner.userId))).map((k) => k.id),
    );
    expect(left.has(ids.revokedLongAgo)).toBe(false);
    expect(left.has(ids.expiredLongAgo)).toBe(false);
    expect(left.has(ids.revokedRecently)).toBe(true);
    expect(left.has(ids.expiresLater)).toBe(true);
    expect((await owner.fetch("GET", "/users/current/")).status).toBe(200);
  });

  it("removes console sessions revoked or lapsed more than 30 days ago, and keeps the others", async () => {
    const owner = await seedOwner();
    const now = Date.now();
    const session = async (values: { lastUsedAt: number; revokedAt?: number }) => {
      const { values: row } = await newSession(
        { userId: owner.userId, organizationId: null, method: "api_key", userAgent: null },
        values.lastUsedAt,
      );
      await db()
        .insert(consoleSessions)
        .values({ ...row, revokedAt: values.revokedAt ?? null });
      return row.id;
    };
    const revokedLongAgo = await session({ lastUsedAt: now - 40 * DAY, revokedAt: now - 31 * DAY });
    const lapsedLongAgo = await session({ lastUsedAt: now - 31 * DAY });
    const lapsedRecently = await session({ lastUsedAt: now - 2 * DAY });
    const live = await session({ lastUsedAt: now - 60_000 });
    await runHousekeeping(env, now);
    const left = new Set(
      (
        await db()
          .select({ id: consoleSessions.id })
          .from(consoleSessions)
          .where(eq(consoleSessions.userId, owner.userId))
      ).map((s) => s.id),
    );
    expect([left.has(revokedLongAgo), left.has(lapsedLongAgo), left.has(lapsedRecently), left.has(live)]).toEqual([
      false,
      false,
      true,
      true,
    ]);
  });
});

describe("housekeeping cron: stranded knowledge-base files", () => {
  it("queues again a file whose queue message was lost, which then gets indexed", async () => {
    const owner = await seedOwner();
    const kb = await createKnowledgeBase(owner);
    const fileId = uuidv7();
    const key = `knowledge-bases/${kb.id}/${fileId}/lost.txt`;
    await env.FILES.put(key, "A message that the queue never saw.");
    const old = Date.now() - 3_600_000;
    // Written as the upload route writes it, but never enqueued.
    await db().insert(knowledgeBaseFiles).values({
      id: fileId,
      knowledgeBaseId: kb.id,
      filename: "lost.txt",
      objectKey: key,
      fileType: "txt",
      size: 35,
      queuedAt: old,
      createdAt: old,
      updatedAt: old,
    });
    await runHousekeeping(env);
    expect((await waitForFile(owner, kb.id, fileId)).status).toBe("done");
  });

  it(
    "deletes the personal assistants a member removed before removals took them left in the organization, with " +
      "their default inbox; those of members who stay remain",
    async () => {
      const owner = await seedOwner();
      const left = await seedMember(owner, ["chatbot.manage"]);
      const stays = await seedMember(owner, ["chatbot.manage"]);
      const orphan = await createChatbot(left, { organization: "" });
      const kept = await createChatbot(stays, { organization: "" });
      // The membership alone goes, as a removal did before it deleted their personal assistants.
      await db().delete(members).where(eq(members.id, left.memberId));
      const counted = async () =>
        (await bodyOf<"GET /organizations/{id}/">(await owner.fetch("GET", `/organizations/${owner.organizationId}/`)))
          .usageStatistics.chatbotsCount;
      const before = await counted();
      await runHousekeeping(env);
      expect(await db().select().from(chatbots).where(eq(chatbots.id, orphan.id))).toEqual([]);
      expect(await db().select().from(inboxes).where(eq(inboxes.id, orphan.defaultInbox!.id))).toEqual([]);
      expect(await db().select({ id: chatbots.id }).from(chatbots).where(eq(chatbots.id, kept.id))).toEqual([
        { id: kept.id },
      ]);
      expect(await counted()).toBe(before - 1);
    },
  );

  it("seals an assistant's connection string an earlier version stored in clear; its record is unchanged", async () => {
    const owner = await seedOwner();
    const bot = await createChatbot(owner);
    const url = "postgresql://bot:s3cret@db.example.com/shop";
    await env.DB.prepare("UPDATE chatbots SET database_url = ? WHERE id = ?").bind(url, bot.id).run();
    const shown = async () =>
      (await bodyOf<"GET /chatbots/{id}/">(await owner.fetch("GET", `/chatbots/${bot.id}/`))).databaseUrl;
    expect(await shown()).toBe("postgresql://bot:****@db.example.com/shop");
    await runHousekeeping(env);
    expect(await storedDatabaseUrl(bot.id)).toBe(url);
    expect(await shown()).toBe("postgresql://bot:****@db.example.com/shop");
  });
});
