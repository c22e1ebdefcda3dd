import type { Router } from "../../../lib/openapi";
import { registerListLabels } from "./list";
import { registerCreateLabel } from "./create";
import { registerGetLabel } from "./get";
import { registerUpdateLabel } from "./update";
import { registerDeleteLabel } from "./delete";

export function registerLabelRoutes(r: Router) {
  registerListLabels(r);
  registerCreateLabel(r);
  registerGetLabel(r);
  registerUpdateLabel(r);
  registerDeleteLabel(r);
}
