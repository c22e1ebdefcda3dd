import type { Router } from "../../lib/openapi";
import { registerCreateBatchQa } from "./create";
import { registerExportBatchQa } from "./export-excel";
import { registerGetBatchQa } from "./get";
import { registerBatchQaItems } from "./items";
import { registerListBatchQas } from "./list";

export function registerBatchQaRoutes(r: Router) {
  registerListBatchQas(r);
  registerCreateBatchQa(r);
  registerExportBatchQa(r);
  registerGetBatchQa(r);
  registerBatchQaItems(r);
}
