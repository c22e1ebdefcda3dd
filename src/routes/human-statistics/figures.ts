import type { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { orgAccess, requirePermission } from "../../services/access";
import { humanQueryOf, humanStatistics } from "../../services/statistics/human";
import type { HumanStatisticsQuery } from "./schema";
import { dataParts } from "../../services/shards/parts";

/** The figures a request asks for (viewed as JSON or exported), once the caller holds `statistics.view`. */
export async function figuresOf(c: Context<AppEnv>, organizationPk: string, q: z.infer<typeof HumanStatisticsQuery>) {
  const access = await orgAccess(c, organizationPk);
  requirePermission(access, "statistics.view");
  const ctx = await humanQueryOf(c.var.db, access.organizationId, q);
  const parts = await dataParts(c.env, access.organizationId);
  return { ctx, ...(await humanStatistics(c.var.db, parts, ctx.query)) };
}
