import { eq } from "drizzle-orm";
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { groups, members, organizations } from "../../../src/db/schema";
import { NO_SUCH_ID, PREFIXES, call, db, expectError, seedMember, seedOwner } from "../../harness";
import { expectDenied, expectNotFound } from "../../support/refusals";
import { createKnowledgeBase, uploadFiles, waitForFile } from "../../fixtures/knowledge";
import { uploadSkill } from "../skills/support";
import { createDatabase, createTable } from "../sql-databases/support";
import type { ManagedDatabase } from "../../../durable-objects/managed-database";
import { botsOneRefusing } from "../../channels/telegram-support";

const orgExists = async (id: string) =>
  (await db().select().from(organizations).where(eq(organizations.id, id))).length === 1;

describe("DELETE /organizations/{id}/", () => {
  it.each(PREFIXES)("the owner deletes the organization and everything in it under %s", async (prefix) => {
    const owner = await seedOwner();
    const member = await seedMember(owner, ["organization.manage"]);
    await env.FILES.put(`public/organizations/${owner.organizationId}/logo.png`, "png");
    const res = await owner.fetch("DELETE", `/organizations/${owner.organizationId}/`, undefined, { prefix });
    expect(res.status).toBe(204);
    expect(await orgExists(owner.organizationId)).toBe(false);
    expect(await db().select().from(members).where(eq(members.organizationId, owner.organizationId))).toEqual([]);
    expect(await db().select().from(groups).where(eq(groups.id, member.groupId!))).toEqual([]);
    await expectNotFound(await owner.fetch("GET", `/organizations/${owner.organizationId}/`));
    await expect
      .poll(
        async () => (await env.FILES.list({ prefix: `public/organizations/${owner.organizationId}/` })).objects.length,
      )
      .toBe(0);
  });

  it(
    "what lives outside D1 goes too: knowledge base bytes and vectors, skill packages, uploads and managed SQL " +
      "databases",
    async () => {
      const owner = await seedOwner();
      const org = owner.organizationId;
      const kb = await createKnowledgeBase(owner);
      const [file] = await uploadFiles(owner, kb.id, [{ name: "notes.txt", content: "Refunds take five days." }]);
      expect((await waitForFile(owner, kb.id, file.id)).status).toBe("done");
      await uploadSkill(owner, "refunds");
      const database = await createDatabase(owner);
      await createTable(owner, database.id);
      await env.FILES.put(`uploads/${org}/attachment/${crypto.randomUUID()}/a.txt`, "x");
      const objects = async (prefix: string) => (await env.FILES.list({ prefix })).objects.length;
      const managed = env.MANAGED_DATABASE.get(env.MANAGED_DATABASE.idFromName(database.id));
      // Inside the object: over RPC its `unknown[][]` rows are typed as nothing at all.
      const tables = () =>
        runInDurableObject(
          managed,
          (instance: ManagedDatabase) =>
            instance.query("SELECT name FROM sqlite_master WHERE type = 'table'", 10).rows.length,
        );
      for (const prefix of [`knowledge-bases/${kb.id}/`, `skills/${org}/`, `uploads/${org}/`])
        expect(await objects(prefix), prefix).toBeGreaterThan(0);
      expect(await tables()).toBeGreaterThan(0);
      expect((await owner.fetch("DELETE", `/organizations/${org}/`)).status).toBe(204);
      for (const prefix of [`knowledge-bases/${kb.id}/`, `skills/${org}/`, `uploads/${org}/`])
        await expect.poll(() => objects(prefix), { timeout: 15_000 }).toBe(0);
      await expect.poll(tables).toBe(0);
    },
  );

  it("its Telegram bots' webhooks are removed, as a channel's disconnect does; a refusal is logged", async () => {
    const { owner, expectLeft } = await botsOneRefusing();
    await expectLeft(async () => {
      // With settings: answered once its `waitUntil` work is done.
      const res = await owner.fetch("DELETE", `/organizations/${owner.organizationId}/`, undefined, { settings: {} });
      expect(res.status).toBe(204);
      expect(await orgExists(owner.organizationId)).toBe(false);
    });
  });

  it("401 without a key", async () => {
    const owner = await seedOwner();
    await expectError(await call("DELETE", `/api/v1/organizations/${owner.organizationId}/`), 401, "not_authenticated");
    expect(await orgExists(owner.organizationId)).toBe(true);
  });

  it("403 for a member who is not the owner, even with organization.manage", async () => {
    const owner = await seedOwner();
    const member = await seedMember(owner, ["organization.manage", "member.manage"]);
    await expectDenied(await member.fetch("DELETE", `/organizations/${owner.organizationId}/`));
    expect(await orgExists(owner.organizationId)).toBe(true);
  });

  it("404 for another organization", async () => {
    const owner = await seedOwner();
    const stranger = await seedOwner();
    await expectNotFound(await stranger.fetch("DELETE", `/organizations/${owner.organizationId}/`));
    await expectNotFound(await stranger.fetch("DELETE", `/organizations/${NO_SUCH_ID}/`));
    expect(await orgExists(owner.organizationId)).toBe(true);
  });
});
