import type { Router } from "../../lib/openapi";
import { registerChatbotUsage } from "./chatbots";
import { registerChatbotsUsageSummary, registerMembersUsageSummary } from "./summaries";
import { registerMemberUsage } from "./members";

export function registerUsageStatisticsRoutes(r: Router) {
  // Summaries first: their paths sit below the lists'.
  registerMembersUsageSummary(r);
  registerChatbotsUsageSummary(r);
  registerMemberUsage(r);
  registerChatbotUsage(r);
}
