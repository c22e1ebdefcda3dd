// The organization's canned responses: CRUD, search, unique short codes, and the permissions
// (reading: conversation.manage; writing: canned_response.manage).
import { describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { cannedResponses } from "../../../src/db/schema";
import { call, db, expectError, NO_SUCH_ID, PREFIXES, seedMember, seedOwner, type Actor } from "../../harness";
import { expectDenied } from "../../support/refusals";
import { bodyOf, problemOf, type Schemas } from "../../support/api";

type Canned = Schemas["CannedResponse"];

const rows = async (organizationId: string) =>
  db().select().from(cannedResponses).where(eq(cannedResponses.organizationId, organizationId));

async function create(actor: Actor, shortCode: string, content: string): Promise<Canned> {
  const res = await actor.fetch("POST", "/canned-responses/", { shortCode, content });
  expect(res.status, await res.clone().text()).toBe(201);
  return await bodyOf<"POST /canned-responses/">(res);
}

describe("/canned-responses/", () => {
  it(
    "creates, lists (by short code, searched over code and content, paged), reads, updates and deletes, under " +
      "both prefixes",
    async () => {
      const owner = await seedOwner();
      for (const prefix of PREFIXES) {
        const tag = prefix === "/api" ? "a" : "v";
        const res = await owner.fetch(
          "POST",
          "/canned-responses/",
          { shortCode: `refund-${tag}`, content: "Hi {{contact.name}}, your refund is on its way. {{agent.name}}" },
          { prefix },
        );
        expect(res.status, await res.clone().text()).toBe(201);
        const made = await bodyOf<"POST /canned-responses/">(res);
        expect(made).toMatchObject({
          shortCode: `refund-${tag}`,
          content: "Hi {{contact.name}}, your refund is on its way. {{agent.name}}",
          createdAt: expect.stringMatching(/^\d+$/),
          updatedAt: expect.stringMatching(/^\d+$/),
        });
        const got = await owner.fetch("GET", `/canned-responses/${made.id}/`, undefined, { prefix });
        expect(await got.json()).toEqual(made);
      }
      await create(owner, "hours", "We open at 9.");
      await create(owner, "bye_1", "Have a nice day!");

      const all = await bodyOf<"GET /canned-responses/">(await owner.fetch("GET", "/canned-responses/"));
      expect(all.count).toBe(4);
      expect(all.results.map((c) => c.shortCode)).toEqual(["bye_1", "hours", "refund-a", "refund-v"]);
      const byCode = await bodyOf<"GET /canned-responses/">(await owner.fetch("GET", "/canned-responses/?search=REF"));
      expect(byCode.results.map((c) => c.shortCode)).toEqual(["refund-a", "refund-v"]);
      const byContent = await bodyOf<"GET /canned-responses/">(
        await owner.fetch("GET", "/canned-responses/?search=nice day"),
      );
      expect(byContent.results.map((c) => c.shortCode)).toEqual(["bye_1"]);
      // LIKE's wildcards are matched as themselves.
      expect(
        (await bodyOf<"GET /canned-responses/">(await owner.fetch("GET", "/canned-responses/?search=%25"))).count,
      ).toBe(0);
      const paged = await bodyOf<"GET /canned-responses/">(
        await owner.fetch("GET", "/canned-responses/?pageSize=3&page=2"),
      );
      expect(paged).toMatchObject({ count: 4, next: null, previous: expect.stringContaining("pageSize=3") });
      expect(paged.results.map((c) => c.shortCode)).toEqual(["refund-v"]);

      const hours = all.results[1];
      const patched = await owner.fetch("PATCH", `/canned-responses/${hours.id}/`, { content: "We open at 8." });
      expect(patched.status).toBe(200);
      expect(await patched.json()).toMatchObject({ id: hours.id, shortCode: "hours", content: "We open at 8." });
      const renamed = await bodyOf<"PATCH /canned-responses/{id}/">(
        await owner.fetch("PATCH", `/canned-responses/${hours.id}/`, { shortCode: "opening-hours" }),
      );
      expect(renamed).toMatchObject({ shortCode: "opening-hours", content: "We open at 8." });

      expect((await owner.fetch("DELETE", `/canned-responses/${hours.id}/`)).status).toBe(204);
      await expectError(await owner.fetch("GET", `/canned-responses/${hours.id}/`), 404);
      expect((await rows(owner.organizationId)).map((r) => r.shortCode).sort()).toEqual([
        "bye_1",
        "refund-a",
        "refund-v",
      ]);
    },
  );

  it(
    "answers a short code the organization has already with 409 (create and rename); another organization may " +
      "use it",
    async () => {
      const owner = await seedOwner();
      const other = await seedOwner();
      await create(owner, "hello", "Hello!");
      const second = await create(owner, "hi", "Hi!");
      const dup = await owner.fetch("POST", "/canned-responses/", { shortCode: "hello", content: "Again" });
      await expectError(dup.clone(), 409, "conflict");
      expect((await problemOf(dup)).detail).toContain('"hello" already exists');
      await expectError(
        await owner.fetch("PATCH", `/canned-responses/${second.id}/`, { shortCode: "hello" }),
        409,
        "conflict",
      );
      expect((await rows(owner.organizationId)).map((r) => [r.shortCode, r.content]).sort()).toEqual([
        ["hello", "Hello!"],
        ["hi", "Hi!"],
      ]);
      await create(other, "hello", "Hello from elsewhere!");
    },
  );

  it("400 with a clear detail for bad input, nothing written", async () => {
    const owner = await seedOwner();
    const made = await create(owner, "ok", "Fine.");
    const bodies: [unknown, string][] = [
      [{ content: "x" }, "shortCode"],
      [{ shortCode: "ok2" }, "content"],
      [{ shortCode: "Upper", content: "x" }, "shortCode"],
      [{ shortCode: "has space", content: "x" }, "shortCode"],
      [{ shortCode: "", content: "x" }, "shortCode"],
      [{ shortCode: "a".repeat(51), content: "x" }, "shortCode"],
      [{ shortCode: "blank", content: "   " }, "content"],
      [{ shortCode: "long", content: "x".repeat(5001) }, "content"],
      [{ shortCode: 5, content: "x" }, "shortCode"],
    ];
    for (const [body, field] of bodies) {
      const res = await owner.fetch("POST", "/canned-responses/", body);
      await expectError(res.clone(), 400, "invalid");
      expect((await problemOf(res)).detail).toContain(field);
    }
    await expectError(
      await owner.fetch("PATCH", `/canned-responses/${made.id}/`, { shortCode: "Nope!" }),
      400,
      "invalid",
    );
    await expectError(await owner.fetch("PATCH", `/canned-responses/${made.id}/`, { content: "" }), 400, "invalid");
    await expectError(await owner.fetch("GET", "/canned-responses/not-a-uuid/"), 404); // as every malformed id
    await expectError(await owner.fetch("GET", `/canned-responses/?search=${"x".repeat(201)}`), 400);
    const stored = await db()
      .select()
      .from(cannedResponses)
      .where(and(eq(cannedResponses.organizationId, owner.organizationId)));
    expect(stored.map((r) => [r.shortCode, r.content])).toEqual([["ok", "Fine."]]);
  });

  it("401 without a key; 404 for another organization's canned response (nothing changed); 404 for none", async () => {
    const owner = await seedOwner();
    const other = await seedOwner();
    const made = await create(owner, "mine", "Mine.");
    await expectError(await call("GET", "/api/v1/canned-responses/"), 401);
    await expectError(await call("POST", "/api/v1/canned-responses/", { shortCode: "x", content: "x" }), 401);
    await expectError(await call("GET", `/api/v1/canned-responses/${made.id}/`), 401);
    await expectError(await other.fetch("GET", `/canned-responses/${made.id}/`), 404);
    await expectError(await other.fetch("PATCH", `/canned-responses/${made.id}/`, { content: "Theirs." }), 404);
    await expectError(await other.fetch("DELETE", `/canned-responses/${made.id}/`), 404);
    await expectError(await owner.fetch("GET", `/canned-responses/${NO_SUCH_ID}/`), 404);
    expect((await bodyOf<"GET /canned-responses/">(await other.fetch("GET", "/canned-responses/"))).count).toBe(0);
    expect((await rows(owner.organizationId)).map((r) => r.content)).toEqual(["Mine."]);
  });

  it("reading needs conversation.manage, writing canned_response.manage (403, nothing written)", async () => {
    const owner = await seedOwner();
    const made = await create(owner, "shared", "Shared.");
    const viewer = await seedMember(owner, ["conversation.view"]);
    await expectDenied(await viewer.fetch("GET", "/canned-responses/"));
    await expectDenied(await viewer.fetch("GET", `/canned-responses/${made.id}/`));
    const agent = await seedMember(owner, ["conversation.manage"]);
    expect(
      (await bodyOf<"GET /canned-responses/">(await agent.fetch("GET", "/canned-responses/"))).results.map(
        (c) => c.shortCode,
      ),
    ).toEqual(["shared"]);
    expect((await agent.fetch("GET", `/canned-responses/${made.id}/`)).status).toBe(200);
    await expectDenied(await agent.fetch("POST", "/canned-responses/", { shortCode: "agent", content: "x" }));
    await expectDenied(await agent.fetch("PATCH", `/canned-responses/${made.id}/`, { content: "x" }));
    await expectDenied(await agent.fetch("DELETE", `/canned-responses/${made.id}/`));
    expect((await rows(owner.organizationId)).map((r) => [r.shortCode, r.content])).toEqual([["shared", "Shared."]]);
    const editor = await seedMember(owner, ["canned_response.manage"]);
    expect((await editor.fetch("PATCH", `/canned-responses/${made.id}/`, { content: "Edited." })).status).toBe(200);
  });
});
