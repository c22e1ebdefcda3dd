import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Bindings, Db } from "../env";
import { organizations } from "../db/schema";
import { tableCache } from "../db/write-watch";
import { notConfigured } from "../lib/errors";

/**
 * Plans and their quotas are the operator's configuration, not built-in caps (CONTRACT section 8):
 * without `PLANS` every organization is on the one "Self-hosted" plan, which limits nothing.
 *
 * `PLANS` is a JSON object keyed by plan id, e.g.
 * `{"free": {"planName": "Free", "createChatbotLimit": 3, "monthlyWords": 100000}, "enterprise": {"planName":
 * "Enterprise", "logoUploads": true}}`;
 * `DEFAULT_PLAN` names the plan new organizations get (default: the first one listed).
 * `LAPSED_PLAN_CLEANUP_DAYS`: days after an organization's plan lapsed (`planExpiredAt`, set by staff) that the
 * housekeeping cron deletes it with its data; unset, nothing is ever deleted (docs/decisions.md, "Plans").
 * A quota left out (or null) is unlimited. `paid` says whether staff putting an organization on the plan approves it
 * (the spec's "paid plan activation"); left out, every plan is paid but a `free` or `trial` one (its `planType`).
 */
const quota = z.number().int().nonnegative().nullable().default(null);
const PlanConfig = z
  .object({
    planName: z.string().min(1).optional(),
    planType: z.string().min(1).optional(),
    createChatbotLimit: quota,
    monthlyWords: quota,
    uploadBytes: quota,
    /** Organization logos as multipart uploads ("enterprise plan only" in the spec). */
    logoUploads: z.boolean().default(false),
    paid: z.boolean().optional(),
  })
  .strict();
const PlansConfig = z.record(
  z.string().regex(/^[a-z0-9_-]{1,40}$/, "plan ids are lowercase letters, digits, _ and -"),
  PlanConfig,
);

export interface Plan {
  id: string;
  planName: string;
  planType: string;
  /** null: unlimited. */
  createChatbotLimit: number | null;
  monthlyWords: number | null;
  uploadBytes: number | null;
  logoUploads: boolean;
  /** Whether being put on it approves the organization. */
  paid: boolean;
}

export interface PlanSettings {
  /** Whether the operator configured plans at all. */
  configured: boolean;
  plans: Map<string, Plan>;
  defaultPlan: Plan;
  /** Days after a plan lapsed that its organization is deleted; null: never (so without `PLANS`: no plan lapses). */
  cleanupAfterDays: number | null;
}

export const SELF_HOSTED: Plan = {
  id: "self-hosted",
  planName: "Self-hosted",
  planType: "self_hosted",
  createChatbotLimit: null,
  monthlyWords: null,
  uploadBytes: null,
  logoUploads: true,
  paid: false,
};

const UNCONFIGURED: PlanSettings = {
  configured: false,
  plans: new Map([[SELF_HOSTED.id, SELF_HOSTED]]),
  defaultPlan: SELF_HOSTED,
  cleanupAfterDays: null,
};

/** Why the plan settings cannot be used, or null when they can (also reported by `GET /health`). */
export function planSettingsProblem(env: Pick<Bindings, "PLANS" | "DEFAULT_PLAN">): string | null {
  try {
    parse(env.PLANS, env.DEFAULT_PLAN);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

const parsed = new Map<string, PlanSettings>();
/** Plan types that cost nothing: putting an organization on one leaves its approval as it was. */
const UNPAID_TYPES = new Set(["free", "trial"]);

function parse(raw: string | undefined, defaultId: string | undefined): PlanSettings {
  if (!raw?.trim()) {
    if (defaultId?.trim()) throw new Error(`DEFAULT_PLAN is "${defaultId}" but PLANS is not set.`);
    return UNCONFIGURED;
  }
  const cacheKey = `${defaultId ?? ""}\n${raw}`;
  const known = parsed.get(cacheKey);
  if (known) return known;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    throw new Error(`PLANS is not valid JSON: ${(err as Error).message}`);
  }
  const result = PlansConfig.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(`PLANS is invalid at ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  const plans = new Map<string, Plan>();
  for (const [id, p] of Object.entries(result.data)) {
    const planType = p.planType ?? id;
    plans.set(id, {
      id,
      planName: p.planName ?? id,
      planType,
      createChatbotLimit: p.createChatbotLimit,
      monthlyWords: p.monthlyWords,
      uploadBytes: p.uploadBytes,
      logoUploads: p.logoUploads,
      paid: p.paid ?? !UNPAID_TYPES.has(planType),
    });
  }
  if (!plans.size) throw new Error("PLANS lists no plan.");
  const defaultPlan = defaultId?.trim() ? plans.get(defaultId.trim()) : plans.values().next().value;
  if (!defaultPlan)
    throw new Error(`DEFAULT_PLAN "${defaultId}" is not one of PLANS (${[...plans.keys()].join(", ")}).`);
  const settings = { configured: true, plans, defaultPlan, cleanupAfterDays: null };
  parsed.set(cacheKey, settings);
  return settings;
}

type PlanBindings = Pick<Bindings, "PLANS" | "DEFAULT_PLAN" | "LAPSED_PLAN_CLEANUP_DAYS">;

/** `LAPSED_PLAN_CLEANUP_DAYS` as a number of days, null when unset; throws naming it when it is not one. */
function cleanupDays(raw: string | undefined): number | null {
  const value = raw?.trim();
  if (!value) return null;
  // Deleting organizations is no place for a guess: "30d", "1e3" or "0" are refused rather than read somehow.
  if (!/^\d{1,6}$/.test(value) || Number(value) < 1)
    throw new Error(
      `LAPSED_PLAN_CLEANUP_DAYS is "${raw}"; it must be a whole number of days, 1 or more ` +
        `(unset: organizations whose plan lapsed are never deleted).`,
    );
  return Number(value);
}

/** Why `LAPSED_PLAN_CLEANUP_DAYS` cannot be used, or null when it can (reported by `GET /health`). */
export function lapsedPlanCleanupProblem(env: Pick<Bindings, "LAPSED_PLAN_CLEANUP_DAYS">): string | null {
  try {
    cleanupDays(env.LAPSED_PLAN_CLEANUP_DAYS);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

/** The deployment's plans; a malformed setting is 503 `not_configured` naming it. */
export function planSettings(env: PlanBindings): PlanSettings {
  let settings: PlanSettings;
  let days: number | null;
  try {
    settings = parse(env.PLANS, env.DEFAULT_PLAN);
  } catch (err) {
    throw notConfigured(`${(err as Error).message} Fix the PLANS / DEFAULT_PLAN settings.`);
  }
  try {
    days = cleanupDays(env.LAPSED_PLAN_CLEANUP_DAYS);
  } catch (err) {
    throw notConfigured((err as Error).message);
  }
  // Without configured plans nothing lapses (nor stops answering), so nothing is cleaned up either.
  return days === null || !settings.configured ? settings : { ...settings, cleanupAfterDays: days };
}

/** An organization's plan: its stored plan when configured, else the default one. */
export const planOf = (settings: PlanSettings, planId: string) => settings.plans.get(planId) ?? settings.defaultPlan;

/** Whether a plan that expires at `expiredAt` (epoch ms; null: never) has lapsed at `now`: from that moment on. */
export const planLapsed = (expiredAt: number | null, now: number): expiredAt is number =>
  expiredAt !== null && expiredAt <= now;

/** An organization's plan and when it lapses (epoch ms; null: never), as staff set them. */
export interface OrganizationPlan {
  plan: Plan;
  expiredAt: number | null;
}

/**
 * The organization's plan id and expiry, per isolate for 10 s: a write to organizations in this isolate forgets them
 * at once, other isolates read them again within 10 s. The expiry is compared with the caller's clock at each use.
 */
const planRows = tableCache<{ planId: string; expiredAt: number | null }>([organizations], 10_000);

/**
 * The plan of an organization and its expiry when the operator configured plans; null without `PLANS` (nothing read
 * then) or for an organization that is gone. For the checks made where a request is taken (a lapsed plan, monthly
 * words, upload bytes).
 */
export async function organizationPlanOf(
  env: PlanBindings,
  db: Db,
  organizationId: string,
): Promise<OrganizationPlan | null> {
  const plans = planSettings(env);
  if (!plans.configured) return null;
  const row = await planRows.remember(organizationId, async () => {
    const [found] = await db
      .select({ planId: organizations.planId, expiredAt: organizations.planExpiredAt })
      .from(organizations)
      .where(eq(organizations.id, organizationId));
    return found;
  });
  return row === undefined ? null : { plan: planOf(plans, row.planId), expiredAt: row.expiredAt };
}

/** `organizationPlanOf`'s plan alone. */
export const configuredPlanOf = async (env: PlanBindings, db: Db, organizationId: string): Promise<Plan | null> =>
  (await organizationPlanOf(env, db, organizationId))?.plan ?? null;
