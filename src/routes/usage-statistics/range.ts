import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { orgAccess, requirePermission } from "../../services/access";
import { dataParts } from "../../services/shards/parts";
import { type RangeQuery, usageRange } from "../../services/statistics/usage";

/** The period and filters a usage request asks for, once the caller holds `statistics.view`. */
export async function usageRangeOf(
  c: Context<AppEnv>,
  organizationPk: string,
  q: RangeQuery & { chatbot?: string; search?: string },
) {
  const access = await orgAccess(c, organizationPk);
  requirePermission(access, "statistics.view");
  return usageRange(c.var.db, await dataParts(c.env, access.organizationId), access.organizationId, q, c.executionCtx);
}
