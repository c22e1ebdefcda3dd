import type { Router } from "../lib/openapi";
import { registerAuthRoutes } from "./auth";
import { registerUserRoutes } from "./users";
import { registerApiKeyRoutes } from "./api-keys";
import { registerPermissionRoutes } from "./permissions";

/** Every resource of the API; each is mounted under both /api/v1 and /api. */
export function registerRoutes(r: Router) {
  registerAuthRoutes(r);
  registerUserRoutes(r);
  registerApiKeyRoutes(r);
  registerPermissionRoutes(r);
}
