import type { Router } from "../../lib/openapi";
import { registerCreateCannedResponse } from "./create";
import { registerDeleteCannedResponse } from "./delete";
import { registerGetCannedResponse } from "./get";
import { registerListCannedResponses } from "./list";
import { registerUpdateCannedResponse } from "./update";

/** The organization's canned responses (the console's `/` in the reply box). */
export function registerCannedResponseRoutes(r: Router) {
  registerListCannedResponses(r);
  registerCreateCannedResponse(r);
  registerGetCannedResponse(r);
  registerUpdateCannedResponse(r);
  registerDeleteCannedResponse(r);
}
