// A plan's upload bytes in the tests (docs/decisions.md, "Plans"): a deployment whose one plan stores 1,000 bytes of
// uploads, and what an organization's record says it stores.
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { expect } from "vitest";
import type { Actor, Settings } from "../harness";
import { data } from "../harness";
import { bodyOf } from "./api";

/** Every organization on the plan "Small" of 1,000 bytes of uploads (with logo uploads). */
export const SMALL: Settings = {
  PLANS: JSON.stringify({ small: { planName: "Small", uploadBytes: 1_000, logoUploads: true } }),
  DEFAULT_PLAN: "small",
};

/** The organization record's upload figures, read on `settings` (default: the plan of 1,000 bytes). */
export async function uploadUsage(actor: Actor, settings: Settings = SMALL) {
  const res = await actor.fetch("GET", `/organizations/${actor.organizationId}/`, undefined, { settings });
  expect(res.status, await res.clone().text()).toBe(200);
  const { usageStatistics } = await bodyOf<"GET /organizations/{id}/">(res);
  return { used: usageStatistics.usedUploadFileSizeTotal, available: usageStatistics.availableUploadFilesSizeTotal };
}

export const used = async (actor: Actor) => (await uploadUsage(actor)).used;

/** `n` bytes of text. */
export const text = (n: number) => new TextEncoder().encode("x".repeat(n));

/** The keys stored in R2 under `prefix`. */
export const objectsUnder = async (prefix: string) => (await env.FILES.list({ prefix })).objects.map((o) => o.key);

/** The organization's upload rows, by key. */
export const uploadRowsOf = async (organizationId: string) =>
  (
    await (
      await data(organizationId)
    ).all<{ key: string; size: number | null }>(
      sql`select key, size from uploads where organization_id = ${organizationId} order by key`,
    )
  ).map((r) => r.key);
