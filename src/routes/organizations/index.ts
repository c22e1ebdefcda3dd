import type { Router } from "../../lib/openapi";

export function registerOrganizationRoutes(r: Router) {
  void r;
}
