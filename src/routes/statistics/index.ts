import type { Router } from "../../lib/openapi";
import { registerChatbotStatistics } from "./chatbot-statistics";
import { registerLlmUsageStatistics } from "./llm-usage-statistics";

export function registerStatisticsRoutes(r: Router) {
  registerChatbotStatistics(r);
  registerLlmUsageStatistics(r);
}
