import type { Router } from "../../lib/openapi";
import { registerExportChatbotRecords } from "./export-excel";
import { registerListChatbotRecords } from "./list";

export function registerChatbotRecordRoutes(r: Router) {
  registerExportChatbotRecords(r);
  registerListChatbotRecords(r);
}
