import type { Router } from "../../lib/openapi";
import { registerCreateBatchQa } from "./create";
import { registerExportBatchQa } from "./export-excel";
import { registerGetBatchQa } from "./get";

export function registerBatchQaRoutes(r: Router) {
  registerCreateBatchQa(r);
  registerExportBatchQa(r);
  registerGetBatchQa(r);
}
