import type { Router } from "../../lib/openapi";
import { registerExportChatbotRecordsCsv } from "./export-csv";
import { registerExportChatbotRecords } from "./export-excel";
import { registerListChatbotRecords } from "./list";

export function registerChatbotRecordRoutes(r: Router) {
  registerExportChatbotRecordsCsv(r);
  registerExportChatbotRecords(r);
  registerListChatbotRecords(r);
}
