import type { Router } from "../../lib/openapi";

export function registerModelRoutes(r: Router) {
  void r;
}
