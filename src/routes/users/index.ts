import type { Router } from "../../lib/openapi";
import { registerGetCurrentUser } from "./get-current";
import { registerUpdateCurrentUser } from "./update-current";

export function registerUserRoutes(r: Router) {
  registerGetCurrentUser(r);
  registerUpdateCurrentUser(r);
}
