import type { Router } from "../../lib/openapi";

export function registerMemberRoutes(r: Router) {
  void r;
}
