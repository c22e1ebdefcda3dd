import type { Router } from "../../lib/openapi";
import { registerListPermissions } from "./list";

export function registerPermissionRoutes(r: Router) {
  registerListPermissions(r);
}
