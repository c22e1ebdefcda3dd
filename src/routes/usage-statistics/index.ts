import type { Router } from "../../lib/openapi";
import { registerChatbotUsage } from "./chatbots";
import { registerChatbotsUsageSummary } from "./chatbots-summary";
import { registerMemberUsage } from "./members";
import { registerMembersUsageSummary } from "./members-summary";

export function registerUsageStatisticsRoutes(r: Router) {
  // Summaries first: their paths sit below the lists'.
  registerMembersUsageSummary(r);
  registerChatbotsUsageSummary(r);
  registerMemberUsage(r);
  registerChatbotUsage(r);
}
