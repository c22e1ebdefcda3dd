import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { organizations } from "../../../src/db/schema";
import {
  CONFIGURED_PLANS,
  NO_SUCH_ID,
  PREFIXES,
  call,
  db,
  expectError,
  seedMember,
  seedOwner,
  seedStaff,
} from "../../harness";
import { expectDenied, expectNotFound, expectInvalid } from "../../support/refusals";

const path = (id: string) => `/organizations/${id}/`;
const row = async (id: string) => (await db().select().from(organizations).where(eq(organizations.id, id)))[0];

describe("PUT and PATCH /organizations/{id}/ (JSON)", () => {
  it.each(PREFIXES)("PUT updates the organization under %s, snake_case accepted", async (prefix) => {
    const owner = await seedOwner();
    const res = await owner.fetch(
      "PUT",
      path(owner.organizationId),
      {
        name: "Renamed",
        theme_primary_color: "#3366FF",
        compactLogo: "https://cdn.example.com/c.png",
        taxId: "12345678",
        application_metadata: { a_b: 1 },
      },
      { prefix },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({
      id: owner.organizationId,
      name: "Renamed",
      themePrimaryColor: "#3366FF",
      compactLogo: "https://cdn.example.com/c.png",
      taxId: "12345678",
      applicationMetadata: { a_b: 1 },
    });
    expect(await row(owner.organizationId)).toMatchObject({ name: "Renamed", themePrimaryColor: "#3366FF" });
  });

  it("PATCH changes only what it is sent; null clears", async () => {
    const owner = await seedOwner();
    await owner.fetch("PATCH", path(owner.organizationId), {
      fullLogo: "https://cdn.example.com/f.png",
      companyName: "Acme Inc.",
    });
    const before = await row(owner.organizationId);
    const res = await owner.fetch("PATCH", path(owner.organizationId), { fullLogo: null }, { prefix: "/api" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ name: before.name, fullLogo: null, companyName: "Acme Inc." });
  });

  it("400 naming the fields, and nothing is written", async () => {
    const owner = await seedOwner();
    const before = await row(owner.organizationId);
    let body = await expectInvalid(
      await owner.fetch("PUT", path(owner.organizationId), { themePrimaryColor: "#123456" }),
      "name",
    );
    body = await expectError(
      await owner.fetch("PATCH", path(owner.organizationId), { name: "Ok", themePrimaryColor: "blue", taxId: "12" }),
      400,
      "invalid",
    );
    expect(Object.keys(body.errors!).sort()).toEqual(["taxId", "themePrimaryColor"]);
    // Logos are shown in the console: http(s) URLs only.
    body = await expectError(
      await owner.fetch("PATCH", path(owner.organizationId), {
        compactLogo: "javascript:alert(1)",
        fullLogo: "data:image/svg+xml,<svg onload=alert(1)>",
      }),
      400,
      "invalid",
    );
    expect(Object.keys(body.errors!).sort()).toEqual(["compactLogo", "fullLogo"]);
    expect(await row(owner.organizationId)).toEqual(before);
  });

  it("415 for another media type, or a PUT without one", async () => {
    const owner = await seedOwner();
    await expectError(
      await owner.fetch("PATCH", path(owner.organizationId), "name=x", { headers: { "Content-Type": "text/plain" } }),
      415,
      "unsupported_media_type",
    );
    await expectError(await owner.fetch("PUT", path(owner.organizationId)), 415, "unsupported_media_type");
  });

  it("staff-only fields are 403 for the owner, and nothing is written", async () => {
    const owner = await seedOwner();
    const before = await row(owner.organizationId);
    for (const body of [
      { planId: "enterprise" },
      { name: "X", canUseAiGateway: true },
      { gateway_service_fee_percent: "1.50" },
      { approvalStatus: "approved" },
    ]) {
      await expectDenied(await owner.fetch("PATCH", path(owner.organizationId), body));
    }
    expect(await row(owner.organizationId)).toEqual(before);
  });

  it("staff set plan, flags and fees on an organization they are a member of", async () => {
    const staff = await seedStaff();
    const settings = CONFIGURED_PLANS;
    let res = await staff.fetch(
      "PATCH",
      path(staff.organizationId),
      { planId: "enterprise", canUseAiGateway: true, gatewayServiceFeePercent: "1.50", approvalStatus: "approved" },
      { settings },
    );
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toMatchObject({
      organizationPlan: { planType: "enterprise" },
      canUseAiGateway: true,
      gatewayServiceFeePercent: "1.50",
      approvalStatus: "approved",
    });
    // In a customer's organization, as a plain member (no organization.manage).
    const customer = await seedOwner();
    expect(
      (await customer.fetch("POST", `/organizations/${customer.organizationId}/members/`, { email: staff.email }))
        .status,
    ).toBe(201);
    res = await staff.fetch("PATCH", path(customer.organizationId), { planId: "pro" }, { settings });
    expect(res.status).toBe(200);
    expect((await row(customer.organizationId)).planId).toBe("pro");
    // A plan the operator did not configure is a 400 naming the configured ones.
    const unknown = await expectError(
      await staff.fetch("PATCH", path(customer.organizationId), { planId: "platinum" }, { settings }),
      400,
      "invalid",
    );
    expect(unknown.errors!.planId[0]).toContain("free, pro, enterprise");
    expect((await row(customer.organizationId)).planId).toBe("pro");
    // Not a member: not found, even for staff.
    const elsewhere = await seedOwner();
    await expectNotFound(await staff.fetch("PATCH", path(elsewhere.organizationId), { planId: "pro" }, { settings }));
    expect((await row(elsewhere.organizationId)).planId).toBe("self-hosted");
  });

  it(
    "staff putting an organization on a paid plan approve it, pending or rejected; a free or trial plan, or an " +
      "approval status sent with it, leaves the approval to staff",
    async () => {
      const staff = await seedStaff();
      const plans = { free: { planName: "Free" }, trial: { planName: "Trial", planType: "trial" }, pro: {} };
      const patch = async (body: Record<string, unknown>, more: Record<string, unknown> = {}) => {
        const settings = { PLANS: JSON.stringify({ ...plans, ...more }), DEFAULT_PLAN: "free" };
        const res = await staff.fetch("PATCH", path(staff.organizationId), body, { settings });
        expect(res.status, await res.clone().text()).toBe(200);
        return ((await res.json()) as { approvalStatus: string }).approvalStatus;
      };
      expect(await patch({ approvalStatus: "rejected" })).toBe("rejected");
      for (const planId of ["free", "trial"]) expect(await patch({ planId }), planId).toBe("rejected");
      expect(await patch({ planId: "pro" })).toBe("approved");
      expect((await row(staff.organizationId)).approvalStatus).toBe("approved");
      expect(await patch({ approvalStatus: "pending", planId: "free" })).toBe("pending");
      expect(await patch({ planId: "pro", approvalStatus: "rejected" })).toBe("rejected");
      // The operator says which plans are paid where their type does not.
      expect(await patch({ planId: "partner" }, { partner: { planName: "Partner", paid: false } })).toBe("rejected");
    },
  );

  it("401 without a key", async () => {
    const owner = await seedOwner();
    await expectError(
      await call("PATCH", `/api/v1${path(owner.organizationId)}`, { name: "X" }),
      401,
      "not_authenticated",
    );
  });

  it("403 without organization.manage; with it, the member may update", async () => {
    const owner = await seedOwner();
    const before = await row(owner.organizationId);
    const member = await seedMember(owner, ["member.manage"]);
    await expectDenied(await member.fetch("PATCH", path(owner.organizationId), { name: "Hijacked" }));
    expect((await row(owner.organizationId)).name).toBe(before.name);
    const manager = await seedMember(owner, ["organization.manage"]);
    expect((await manager.fetch("PUT", path(owner.organizationId), { name: "Managed" })).status).toBe(200);
    expect((await row(owner.organizationId)).name).toBe("Managed");
  });

  it("404 for another organization", async () => {
    const owner = await seedOwner();
    const stranger = await seedOwner();
    await expectNotFound(await stranger.fetch("PUT", path(owner.organizationId), { name: "Mine now" }));
    await expectNotFound(await stranger.fetch("PATCH", path(NO_SUCH_ID), { name: "Mine now" }));
    expect((await row(owner.organizationId)).name).not.toBe("Mine now");
  });
});
