import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { members, organizations } from "../../../src/db/schema";
import { PREFIXES, call, db, expectError, seedOwner, unique } from "../../harness";
import { bodyOf } from "../../support/api";

const ownedBy = (userId: string) => db().select().from(organizations).where(eq(organizations.ownerId, userId));

describe("POST /organizations/", () => {
  it.each(PREFIXES)("creates an organization owned by the caller under %s", async (prefix) => {
    const user = await seedOwner();
    const name = unique("Acme");
    const res = await user.fetch(
      "POST",
      "/organizations/",
      { name, compact_logo: "https://cdn.example.com/c.png", fullLogo: "https://cdn.example.com/f.png" },
      { prefix },
    );
    expect(res.status, await res.clone().text()).toBe(201);
    const body = await bodyOf<"POST /organizations/">(res);
    expect(body).toMatchObject({
      name,
      compactLogo: "https://cdn.example.com/c.png",
      fullLogo: "https://cdn.example.com/f.png",
      organizationPlan: { id: "self-hosted", planType: "self_hosted" },
      approvalStatus: "pending",
      canUseAiGateway: false,
      usageStatistics: { chatbotsCount: 0 },
    });
    const [membership] = await db()
      .select()
      .from(members)
      .where(and(eq(members.organizationId, body.id), eq(members.userId, user.userId)));
    expect(membership.isOwner).toBe(true);
    // The caller can now act in it.
    expect((await user.fetch("GET", `/organizations/${body.id}/`)).status).toBe(200);
  });

  it("400 naming the fields for a missing name or a bad logo URL, and nothing is written", async () => {
    const user = await seedOwner();
    const body = await expectError(
      await user.fetch("POST", "/organizations/", { name: " ", fullLogo: "not a url" }),
      400,
      "invalid",
    );
    expect(Object.keys(body.errors!).sort()).toEqual(["fullLogo", "name"]);
    expect(await ownedBy(user.userId)).toHaveLength(1);
  });

  it("415 for a multipart body, and nothing is written", async () => {
    const user = await seedOwner();
    const form = new FormData();
    form.set("name", "Multipart Inc");
    await expectError(await user.fetch("POST", "/organizations/", form), 415, "unsupported_media_type");
    expect(await ownedBy(user.userId)).toHaveLength(1);
  });

  it("401 without a key", async () => {
    await expectError(await call("POST", "/api/v1/organizations/", { name: "Nobody" }), 401, "not_authenticated");
  });
});
