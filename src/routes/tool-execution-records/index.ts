import type { Router } from "../../lib/openapi";
import { registerListRecords } from "./list";
import { registerRecordOptions } from "./options";
import { registerGetRecord } from "./get";
import { registerDesktopResult } from "./result";

export function registerToolExecutionRecordRoutes(r: Router) {
  // The option lists first: `chatbots/` and `tools/` must not be read as record ids.
  registerRecordOptions(r);
  registerListRecords(r);
  registerGetRecord(r);
  registerDesktopResult(r);
}
