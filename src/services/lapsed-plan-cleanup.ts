// The cleanup the organization record announces (`cleanupRemainingDays`, `estimatedCleanupDate`; docs/decisions.md,
// "Plans"): deleting an organization's data is destructive, so it happens only when the operator set
// `LAPSED_PLAN_CLEANUP_DAYS`, and only to organizations whose plan lapsed more than that many days ago.
import { and, asc, isNotNull, lt } from "drizzle-orm";
import type { Bindings, Db } from "../env";
import { organizations } from "../db/schema";
import { deleteOrganization } from "./organizations";
import { planSettings } from "./plans";

const DAY = 86_400_000;

/**
 * Deletes, up to `limit` (the longest lapsed first), the organizations whose plan lapsed more than
 * `LAPSED_PLAN_CLEANUP_DAYS` days before `now`, each as its owner's `DELETE /organizations/{id}/` does, its stored
 * objects included. Nothing without the setting or without `PLANS` (read first: a malformed one throws, naming it).
 * Each is chosen just before it goes, so one renewed meanwhile (`planExpiredAt` cleared or moved on) stays. Run by the
 * housekeeping cron; answers the ids deleted.
 */
export async function deleteLapsedOrganizations(env: Bindings, db: Db, now = Date.now(), limit = 5): Promise<string[]> {
  const days = planSettings(env).cleanupAfterDays;
  if (days === null) return [];
  const deleted: string[] = [];
  while (deleted.length < limit) {
    const [next] = await longestLapsed(db, now - days * DAY);
    if (!next) break;
    const removeStorage = await deleteOrganization(env, db, next.id);
    await removeStorage();
    deleted.push(next.id);
  }
  return deleted;
}

/** The organization whose plan lapsed longest before `cutoff`, if any (by `organizations_plan_expired_idx`). */
export const longestLapsed = (db: Db, cutoff: number) =>
  db
    .select({ id: organizations.id })
    .from(organizations)
    .where(and(isNotNull(organizations.planExpiredAt), lt(organizations.planExpiredAt, cutoff)))
    .orderBy(asc(organizations.planExpiredAt))
    .limit(1);
