import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { chatbots, organizations } from "../../src/db/schema";
import { deleteLapsedOrganizations, longestLapsed } from "../../src/services/lapsed-plan-cleanup";
import { queryPlan } from "../support/query-plan";
import {
  bindingsWith,
  countInParts,
  db,
  expectError,
  fetchWorker,
  seedOwner,
  type Actor,
  type Settings,
} from "../harness";
import { createChatbot } from "../fixtures/chatbots";
import { bodyOf, healthOf } from "../support/api";

const DAY = 86_400_000;
const PLANS: Settings = { PLANS: JSON.stringify({ basic: { planName: "Basic" } }), DEFAULT_PLAN: "basic" };
const CLEANUP: Settings = { ...PLANS, LAPSED_PLAN_CLEANUP_DAYS: "30" };

/** An organization with an assistant, a conversation with it and a stored upload, its plan expiring at `expiredAt`. */
async function organizationWithData(expiredAt: number | null) {
  const owner = await seedOwner();
  const bot = await createChatbot(owner);
  const res = await owner.fetch("POST", `/chatbots/${bot.id}/completions/`, { message: { content: "Hello there" } });
  expect(res.status, await res.clone().text()).toBe(200);
  const upload = `uploads/${owner.organizationId}/notes.txt`;
  await env.FILES.put(upload, "kept until the organization goes");
  await db().update(organizations).set({ planExpiredAt: expiredAt }).where(eq(organizations.id, owner.organizationId));
  return { owner, upload };
}

/** What is left of the organization: its row, its assistants, its conversations, its upload's object. */
async function leftOf({ owner, upload }: { owner: Actor; upload: string }) {
  const id = owner.organizationId;
  return {
    organization: (await db().select().from(organizations).where(eq(organizations.id, id))).length,
    chatbots: (await db().select().from(chatbots).where(eq(chatbots.organizationId, id))).length,
    conversations: await countInParts(id, "conversations", "organization_id = ?1", id),
    upload: (await env.FILES.head(upload)) !== null,
  };
}
const WHOLE = { organization: 1, chatbots: 1, conversations: 1, upload: true };

/** The worker's housekeeping cron event with `settings`, as the runtime sends it at `scheduledTime`. */
async function housekeeping(settings: Settings, scheduledTime = Date.now()) {
  const ctx = createExecutionContext();
  await worker.scheduled!(
    createScheduledController({ cron: "*/15 * * * *", scheduledTime }),
    bindingsWith(settings),
    ctx,
  );
  await waitOnExecutionContext(ctx);
}

const recordOf = async (owner: Actor, settings: Settings) =>
  bodyOf<"GET /organizations/{id}/">(
    await owner.fetch("GET", `/organizations/${owner.organizationId}/`, undefined, { settings }),
  );

describe("the cleanup of organizations whose plan lapsed (LAPSED_PLAN_CLEANUP_DAYS)", () => {
  it("unset, or without PLANS, deletes nothing, and the record announces no cleanup", async () => {
    const lapsed = await organizationWithData(Date.now() - 200 * DAY);
    await housekeeping(PLANS);
    await housekeeping({ LAPSED_PLAN_CLEANUP_DAYS: "30" });
    expect(await leftOf(lapsed)).toEqual(WHOLE);
    const record = await recordOf(lapsed.owner, PLANS);
    expect(record).toMatchObject({ noActivePlanDays: 200, cleanupRemainingDays: null, estimatedCleanupDate: null });
  });

  it("set: an organization lapsed longer ago deleted with its data; within the days or renewed: kept", async () => {
    const now = Date.now();
    const past = await organizationWithData(now - 31 * DAY);
    const within = await organizationWithData(now - 29 * DAY);
    const renewed = await organizationWithData(now - 31 * DAY);
    const runsOn = await organizationWithData(now + 10 * DAY);
    // Staff renewed the plan: no expiry any more.
    await db()
      .update(organizations)
      .set({ planExpiredAt: null })
      .where(eq(organizations.id, renewed.owner.organizationId));
    // The record counts down from the setting.
    expect(await recordOf(within.owner, CLEANUP)).toMatchObject({
      noActivePlanDays: 29,
      cleanupRemainingDays: 1,
      estimatedCleanupDate: new Date(now + DAY).toISOString().slice(0, 10),
    });
    expect(await recordOf(runsOn.owner, CLEANUP)).toMatchObject({ cleanupRemainingDays: null });
    await housekeeping(CLEANUP, now);
    expect(await leftOf(past)).toEqual({ organization: 0, chatbots: 0, conversations: 0, upload: false });
    await expectError(await past.owner.fetch("GET", `/organizations/${past.owner.organizationId}/`), 404);
    for (const kept of [within, renewed, runsOn]) expect(await leftOf(kept)).toEqual(WHOLE);
    // Two days on (the cron's clock): the one lapsed 29 days ago is past its 30 now; the others stay.
    expect(await deleteLapsedOrganizations(bindingsWith(CLEANUP), db(), now + 2 * DAY)).toEqual([
      within.owner.organizationId,
    ]);
    expect(await leftOf(within)).toMatchObject({ organization: 0, conversations: 0, upload: false });
    for (const kept of [renewed, runsOn]) expect(await leftOf(kept)).toEqual(WHOLE);
  });

  it("the sweep seeks the lapsed organizations by their index, not every organization", async () => {
    expect(await queryPlan(db(), longestLapsed(db(), Date.now()))).toMatch(
      /USING INDEX organizations_plan_expired_idx/,
    );
  });

  it("a malformed value: an error naming it; the cron deletes nothing, the record 503, /health names it", async () => {
    const lapsed = await organizationWithData(Date.now() - 31 * DAY);
    for (const value of ["thirty", "30d", "0", "-5", "1.5", "1e3"]) {
      const settings = { ...PLANS, LAPSED_PLAN_CLEANUP_DAYS: value };
      await expect(deleteLapsedOrganizations(bindingsWith(settings), db())).rejects.toMatchObject({
        status: 503,
        detail: expect.stringMatching(/^LAPSED_PLAN_CLEANUP_DAYS is ".*"; it must be a whole number of days/),
      });
      const err = await expectError(
        await lapsed.owner.fetch("GET", `/organizations/${lapsed.owner.organizationId}/`, undefined, { settings }),
        503,
        "not_configured",
      );
      expect(err.detail).toContain(`LAPSED_PLAN_CLEANUP_DAYS is "${value}"`);
      const health = await healthOf(await fetchWorker(new Request("http://localhost/health"), bindingsWith(settings)));
      expect(health.settings.find((s) => s.name === "LAPSED_PLAN_CLEANUP_DAYS")?.problem).toContain("whole number");
    }
    expect(await leftOf(lapsed)).toEqual(WHOLE);
  });
});
