import { createRoute, type z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { ZodType } from "zod";
import type { AppEnv } from "../../env";
import type { Router } from "../../lib/openapi";
import { errorResponses, json } from "../../lib/openapi";
import { planSettings } from "../../services/plans";
import type { UsageScope } from "../../services/statistics/organization";
import { usageSummary } from "../../services/statistics/usage";
import { usageRangeOf } from "./range";
import { ChatbotsSummarySchema, MembersSummarySchema } from "../../services/records/usage-statistics";
import { OrganizationParams, USAGE_TAG, UsageSummaryQuery } from "./schema";

/** The members' and the assistants' summaries: the same figures, counted over either. */
const summaryRoute = <T extends ZodType>(scope: UsageScope, schema: T, summary: string, description: string) =>
  createRoute({
    method: "get",
    path: `/organizations/{organizationPk}/usage-statistics/${scope}/summary/`,
    tags: [USAGE_TAG],
    summary,
    description,
    request: { params: OrganizationParams, query: UsageSummaryQuery },
    responses: { 200: json(schema, "The summary"), ...errorResponses(400, 403, 404) },
  });

const membersRoute = summaryRoute(
  "members",
  MembersSummarySchema,
  "Members' usage in total and over time, with the organization's quantities",
  "Needs `statistics.view`. Totals and the time series of all members' traffic between `startDate` and " +
    "`endDate`, how many members " +
    "there are and how many used an assistant, and the organization's usage statistics (assistants, monthly " +
    "words, upload bytes) and plan.",
);

const chatbotsRoute = summaryRoute(
  "chatbots",
  ChatbotsSummarySchema,
  "Assistants' usage in total and over time, with the organization's quantities",
  "Needs `statistics.view`. Totals and the time series of all assistants' traffic between `startDate` and " +
    "`endDate`, how many " +
    "assistants there are and how many were used, and the organization's usage statistics (assistants, " +
    "monthly words, upload bytes) and plan.",
);

async function summaryOf(
  c: Context<AppEnv>,
  organizationPk: string,
  q: z.infer<typeof UsageSummaryQuery>,
  scope: UsageScope,
) {
  const range = await usageRangeOf(c, organizationPk, q);
  return usageSummary(c.var.db, planSettings(c.env), scope, range, q.timeGranularity);
}

export const registerMembersUsageSummary = (r: Router) =>
  r.openapi(membersRoute, async (c) => {
    const { organizationPk } = c.req.valid("param");
    const { count, active, ...summary } = await summaryOf(c, organizationPk, c.req.valid("query"), "members");
    return c.json({ ...summary, membersCount: count, activeMembersCount: active }, 200);
  });

export const registerChatbotsUsageSummary = (r: Router) =>
  r.openapi(chatbotsRoute, async (c) => {
    const { organizationPk } = c.req.valid("param");
    const { count, active, ...summary } = await summaryOf(c, organizationPk, c.req.valid("query"), "chatbots");
    return c.json({ ...summary, chatbotsCount: count, activeChatbotsCount: active }, 200);
  });
