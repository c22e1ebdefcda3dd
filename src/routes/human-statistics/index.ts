import type { Router } from "../../lib/openapi";
import { registerExportHumanStatistics } from "./export-excel";
import { registerHumanStatistics } from "./human-statistics";

export function registerHumanStatisticsRoutes(r: Router) {
  registerExportHumanStatistics(r);
  registerHumanStatistics(r);
}
